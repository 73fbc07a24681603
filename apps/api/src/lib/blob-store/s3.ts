import { DeleteObjectsCommand, type DeleteObjectsCommandOutput, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { type BlobInfo, type BlobStore, BlobStoreError, checkKey } from './index';

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, the sandbox's stand-in). */
export interface S3Settings {
  /** The service's origin (`http(s)://host[:port]`, optionally a path); null: AWS's own for the region. */
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key` (MinIO and most stand-ins need it). */
  forcePathStyle: boolean;
  /** How long one request may take (ms). */
  timeoutMs: number;
}

/** How many keys one DeleteObjects names (S3's limit). */
const DELETE_BATCH = 1000;

type Warn = (fields: object, msg: string) => void;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isMissing(error: unknown): boolean {
  return statusOf(error) === 404 || (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound'));
}

/** What went wrong, without anything secret (the SDK's messages name neither key nor signature). */
function describe(error: unknown): string {
  if (error instanceof S3ServiceException) return `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'}): ${error.message}`.slice(0, 300);
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return String(error).slice(0, 300);
}

/**
 * Blobs in an S3-compatible bucket (`BLOB_STORE=s3`) through the AWS SDK (SigV4, path-style when
 * asked). Anything but "no such key" (network, timeout, 5xx, a refused signature) is a
 * `BlobStoreError`; the cause is logged here, never the credentials.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(
    settings: S3Settings,
    private readonly warn: Warn = () => undefined,
  ) {
    this.#bucket = settings.bucket;
    this.#client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // One retry: an upload waits on it, and the bot sends the transcript again anyway.
      maxAttempts: 2,
      // Checksums only where S3 requires them (DeleteObjects): MinIO, R2 and older stores take that.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { requestTimeout: settings.timeoutMs, connectionTimeout: settings.timeoutMs },
    });
  }

  #fail(operation: BlobStoreError['operation'], key: string, error: unknown): BlobStoreError {
    const cause = describe(error);
    this.warn({ store: 's3', bucket: this.#bucket, operation, key: key.slice(0, 200), cause }, 'blob store: request failed');
    return new BlobStoreError(operation, `The S3 store did not ${operation} ${key}: ${cause}`, { cause: error });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    checkKey(key);
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }));
    } catch (error) {
      throw this.#fail('put', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    checkKey(key);
    try {
      const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.#fail('get', key, error);
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    checkKey(key);
    try {
      const answer = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return { size: answer.ContentLength ?? 0, contentType: answer.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.#fail('head', key, error);
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH).map(checkKey);
      let answer: DeleteObjectsCommandOutput;
      try {
        answer = await this.#client.send(new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      } catch (error) {
        throw this.#fail('delete', batch[0] ?? '', error);
      }
      const refused = answer.Errors?.[0];
      if (refused) throw this.#fail('delete', refused.Key ?? '', new Error(`${refused.Code ?? 'Error'}: ${refused.Message ?? 'refused'}`));
    }
  }

  close(): void {
    this.#client.destroy();
  }
}

/**
 * Where transcripts and their attachments keep their bytes: a key-value store of blobs, PostgreSQL
 * (`BLOB_STORE=database`, the default: the `blobs` table) or an S3-compatible bucket
 * (`BLOB_STORE=s3`). services/transcripts.ts names the keys and keeps the rows; docs/operations.md,
 * "Transcript storage", says how to run either.
 */

/** What a stored blob is, without its bytes. */
export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface BlobStore {
  /** Which store (logs, docs): `database` or `s3`. */
  readonly kind: 'database' | 's3';
  /** Stores `bytes` under `key`, replacing what was there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** The size and type under `key`, or null when there is nothing. */
  head(key: string): Promise<BlobInfo | null>;
  /** Removes the keys (a key already gone is no error). */
  delete(keys: readonly string[]): Promise<void>;
  /** Frees connections at shutdown. */
  close(): void;
}

/** The store did not answer or refused (network, 5xx, credentials): the operation did nothing it could confirm. */
export class BlobStoreError extends Error {
  constructor(
    readonly operation: 'put' | 'get' | 'head' | 'delete',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'BlobStoreError';
  }
}

/** Keys are plain paths: letters, digits and `/ - _ . !`, no `..` segment, at most 512 characters. */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9!_.\-/]{1,512}$/.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new RangeError(`blob store: "${key.slice(0, 100)}" is not a valid key`);
  }
  return key;
}

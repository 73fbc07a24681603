import { createS3SandboxControl, s3Sandbox } from '@tickety/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, BlobStoreError } from '../../src/lib/blob-store';
import { PostgresBlobStore } from '../../src/lib/blob-store/postgres';
import { S3BlobStore, type S3Settings } from '../../src/lib/blob-store/s3';
import { migrate } from '../../src/db/migrate';
import { MIGRATIONS_DIR } from '../../src/plugins/app/db';
import { databases, useSuiteDb } from '../helpers/db';

/** The sandbox's S3 stand-in on a real loopback port, as the API meets MinIO or R2. */
const S3_DEMO = { accessKeyId: 'TICKETYSANDBOXKEY', secretAccessKey: 'tickety-sandbox-secret-0123456789', region: 'us-east-1', bucket: 'transcripts' };

async function standIn(control = createS3SandboxControl()): Promise<{ server: FastifyInstance; endpoint: string; control: typeof control }> {
  const server = Fastify();
  await server.register(s3Sandbox, { prefix: '/sandbox/s3', accessKeyId: S3_DEMO.accessKeyId, secretAccessKey: S3_DEMO.secretAccessKey, buckets: [S3_DEMO.bucket], control });
  const address = await server.listen({ host: '127.0.0.1', port: 0 });
  return { server, endpoint: `${address}/sandbox/s3`, control };
}

function s3Settings(endpoint: string, overrides: Partial<S3Settings> = {}): S3Settings {
  return { endpoint, region: S3_DEMO.region, bucket: S3_DEMO.bucket, accessKeyId: S3_DEMO.accessKeyId, secretAccessKey: S3_DEMO.secretAccessKey, forcePathStyle: true, timeoutMs: 5_000, ...overrides };
}

/** What every store does the same way. */
function behavesAsAStore(store: () => BlobStore) {
  it('puts, reads back, heads, replaces and deletes (a missing key is null; deleting it again is no error)', async () => {
    const bytes = Buffer.from([0x1f, 0x8b, 0, 1, 2, 255]);
    await store().put('transcripts/1/a/u1/content.json.gz', bytes, 'application/gzip');
    expect(await store().get('transcripts/1/a/u1/content.json.gz')).toEqual(bytes);
    expect(await store().head('transcripts/1/a/u1/content.json.gz')).toEqual({ size: 6, contentType: 'application/gzip' });
    await store().put('transcripts/1/a/u1/content.json.gz', Buffer.from('second'), 'text/plain');
    expect((await store().get('transcripts/1/a/u1/content.json.gz'))?.toString()).toBe('second');
    await store().put('transcripts/1/a/u1/attachments/9', new Uint8Array(0), 'image/png');
    expect(await store().get('transcripts/1/a/u1/attachments/9')).toEqual(Buffer.alloc(0));
    await store().delete(['transcripts/1/a/u1/content.json.gz', 'transcripts/1/a/u1/attachments/9', 'transcripts/never/stored']);
    expect(await store().get('transcripts/1/a/u1/content.json.gz')).toBeNull();
    expect(await store().head('transcripts/1/a/u1/attachments/9')).toBeNull();
    await store().delete([]);
  });

  it('refuses keys that are no plain path', async () => {
    for (const key of ['', '../x', 'a//b', 'a/./b', 'a b', 'é']) await expect(store().put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(RangeError);
  });
}

describe.each(databases())('PostgresBlobStore on $name', (database) => {
  const suite = useSuiteDb(database);
  beforeAll(async () => {
    await migrate(suite.db, MIGRATIONS_DIR);
  });
  behavesAsAStore(() => new PostgresBlobStore(suite.db));
});

describe('S3BlobStore against the sandbox stand-in', () => {
  let s3: Awaited<ReturnType<typeof standIn>>;
  let store: S3BlobStore;
  beforeAll(async () => {
    s3 = await standIn();
    store = new S3BlobStore(s3Settings(s3.endpoint));
  });
  afterAll(async () => {
    store.close();
    await s3.server.close();
  });
  behavesAsAStore(() => store);

  it('keeps the bytes and type in the bucket, path-style', async () => {
    await store.put('transcripts/2/b/u/attachments/5', Buffer.from('PNG bytes'), 'image/png');
    expect(s3.control.objects(S3_DEMO.bucket)).toMatchObject([{ key: 'transcripts/2/b/u/attachments/5', size: 9, contentType: 'image/png' }]);
    expect(s3.control.bytes(S3_DEMO.bucket, 'transcripts/2/b/u/attachments/5')?.toString()).toBe('PNG bytes');
    expect(s3.control.requests().PutObject).toBeGreaterThan(0);
    await store.delete(['transcripts/2/b/u/attachments/5']);
    expect(s3.control.objects(S3_DEMO.bucket)).toEqual([]);
  });

  it('a wrong secret, an unknown bucket, a store that is down or gone: BlobStoreError, the cause logged without the secret', async () => {
    const warnings: Array<{ fields: object; msg: string }> = [];
    const wrong = new S3BlobStore(s3Settings(s3.endpoint, { secretAccessKey: 'not-the-secret' }), (fields, msg) => warnings.push({ fields, msg }));
    const failure = await wrong.put('k/1', Buffer.from('x'), 'text/plain').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobStoreError);
    expect(String((failure as Error).message)).toContain('SignatureDoesNotMatch (HTTP 403)');
    await expect(wrong.get('k/1')).rejects.toThrow(BlobStoreError);
    expect(JSON.stringify(warnings)).not.toContain('not-the-secret');
    expect(warnings[0]).toMatchObject({ msg: 'blob store: request failed', fields: { store: 's3', operation: 'put' } });
    wrong.close();
    expect(s3.control.objects()).toEqual([]);

    const noBucket = new S3BlobStore(s3Settings(s3.endpoint, { bucket: 'no-such-bucket' }));
    await expect(noBucket.put('k/1', Buffer.from('x'), 'text/plain')).rejects.toThrow(/NoSuchBucket/);
    noBucket.close();

    s3.control.outage(true);
    await expect(store.get('k/1')).rejects.toThrow(/ServiceUnavailable \(HTTP 503\)/);
    s3.control.outage(false);

    const gone = await standIn();
    await gone.server.close();
    const closed = new S3BlobStore(s3Settings(gone.endpoint));
    await expect(closed.put('k/1', Buffer.from('x'), 'text/plain')).rejects.toThrow(BlobStoreError);
    closed.close();
  });
});

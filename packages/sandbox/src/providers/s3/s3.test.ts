import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3SandboxControl, type S3SandboxControl, type S3SandboxOptions, s3Sandbox, signS3Request } from '.';
import { UNSIGNED_PAYLOAD, verifySignature } from './sigv4';

const PREFIX = '/sandbox/s3';
const ORIGIN = 'http://s3.test:9000';
const AT = Date.UTC(2026, 0, 15, 12, 0, 0);
const CREDENTIALS = { accessKeyId: 'SANDBOXKEY', secretAccessKey: 'sandbox-secret', region: 'us-east-1' };

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function harness(options: Partial<S3SandboxOptions> = {}): Promise<{ app: FastifyInstance; control: S3SandboxControl }> {
  const control = options.control ?? createS3SandboxControl();
  app = Fastify();
  await app.register(s3Sandbox, { prefix: PREFIX, accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: CREDENTIALS.secretAccessKey, buckets: ['bucket'], clock: () => AT, control, ...options });
  await app.ready();
  return { app, control };
}

/** A request signed as an S3 client signs it (with `credentials`, the stand-in's unless given). */
function send(target: FastifyInstance, method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE', path: string, options: { body?: Buffer; headers?: Record<string, string>; secret?: string; now?: number } = {}) {
  const url = new URL(`${ORIGIN}${PREFIX}${path}`);
  const headers = signS3Request({ method, url, headers: options.headers ?? {}, ...(options.body ? { body: options.body } : {}) }, { ...CREDENTIALS, secretAccessKey: options.secret ?? CREDENTIALS.secretAccessKey }, options.now ?? AT);
  return target.inject({ method, url: `${url.pathname}${url.search}`, headers, ...(options.body ? { payload: options.body } : {}) });
}

function errorCode(body: string): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
}

describe('SigV4 as S3 checks it', () => {
  it('holds the example of S3’s own documentation (GET Object with a range)', () => {
    const request = {
      method: 'GET',
      path: '/test.txt',
      rawQuery: '',
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      headers: {
        host: 'examplebucket.s3.amazonaws.com',
        range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date': '20130524T000000Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
      },
    };
    const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
    const now = Date.UTC(2013, 4, 24);
    expect(verifySignature(request, credentials, now)).toBeNull();
    expect(verifySignature({ ...request, headers: { ...request.headers, range: 'bytes=0-10' } }, credentials, now)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(verifySignature(request, credentials, now + 16 * 60 * 1000)).toMatchObject({ status: 403, code: 'RequestTimeTooSkewed' });
    expect(verifySignature(request, { ...credentials, region: 'eu-west-1' }, now)).toMatchObject({ status: 400, code: 'AuthorizationHeaderMalformed' });
    expect(verifySignature(request, { ...credentials, accessKeyId: 'OTHER' }, now)).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
    expect(verifySignature({ ...request, headers: { ...request.headers, authorization: undefined } } as never, credentials, now)).toMatchObject({ status: 403, code: 'AccessDenied' });
  });
});

describe('the S3 stand-in', () => {
  it('puts, gets, heads and deletes objects (path-style), with S3’s headers', async () => {
    const { app, control } = await harness();
    const body = Buffer.from('hello transcript');
    const put = await send(app, 'PUT', '/bucket/transcripts/1/a%20b/content.json.gz', { body, headers: { 'content-type': 'application/gzip' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.headers.etag).toBe(`"${createHash('md5').update(body).digest('hex')}"`);
    expect(control.objects('bucket')).toMatchObject([{ key: 'transcripts/1/a b/content.json.gz', size: 16, contentType: 'application/gzip' }]);
    const get = await send(app, 'GET', '/bucket/transcripts/1/a%20b/content.json.gz');
    expect(get.statusCode).toBe(200);
    expect(get.rawPayload).toEqual(body);
    expect(get.headers['content-type']).toBe('application/gzip');
    expect(get.headers.etag).toBe(put.headers.etag);
    const head = await send(app, 'HEAD', '/bucket/transcripts/1/a%20b/content.json.gz');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('16');
    expect((await send(app, 'DELETE', '/bucket/transcripts/1/a%20b/content.json.gz')).statusCode).toBe(204);
    expect(control.objects()).toEqual([]);
    expect(control.requests()).toEqual({ PutObject: 1, GetObject: 1, HeadObject: 1, DeleteObject: 1 });
  });

  it('answers S3’s XML errors: NoSuchKey, NoSuchBucket, a missing HEAD without a body', async () => {
    const { app } = await harness();
    const missing = await send(app, 'GET', '/bucket/nothing');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/xml/);
    expect(errorCode(missing.body)).toBe('NoSuchKey');
    expect(missing.body).toContain('<Resource>/bucket/nothing</Resource>');
    const head = await send(app, 'HEAD', '/bucket/nothing');
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
    expect(errorCode((await send(app, 'GET', '/other-bucket/key')).body)).toBe('NoSuchBucket');
    expect(errorCode((await send(app, 'GET', '/bucket')).body)).toBe('NotImplemented');
  });

  it('creates buckets, and deletes many objects at once (DeleteObjects, quiet or not)', async () => {
    const { app, control } = await harness({ buckets: [] });
    expect((await send(app, 'HEAD', '/made')).statusCode).toBe(404);
    expect((await send(app, 'PUT', '/made')).statusCode).toBe(200);
    expect((await send(app, 'HEAD', '/made')).statusCode).toBe(200);
    for (const key of ['a/1', 'a/2', 'a/3']) await send(app, 'PUT', `/made/${key}`, { body: Buffer.from(key) });
    const xml = (quiet: boolean, keys: string[]) =>
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${keys.map((k) => `<Object><Key>${k}</Key></Object>`).join('')}<Quiet>${quiet}</Quiet></Delete>`);
    const loud = await send(app, 'POST', '/made?delete', { body: xml(false, ['a/1', 'never']), headers: { 'content-type': 'application/xml' } });
    expect(loud.statusCode, loud.body).toBe(200);
    expect(loud.body).toContain('<Deleted><Key>a/1</Key></Deleted><Deleted><Key>never</Key></Deleted>');
    const quiet = await send(app, 'POST', '/made?delete=', { body: xml(true, ['a/2', 'a/3']), headers: { 'content-type': 'application/xml' } });
    expect(quiet.body).not.toContain('<Deleted>');
    expect(control.objects('made')).toEqual([]);
    expect(errorCode((await send(app, 'POST', '/made?delete', { body: Buffer.from('<nope/>') })).body)).toBe('MalformedXML');
  });

  it('verifies every signature: a wrong secret is 403 SignatureDoesNotMatch, a changed body XAmzContentSHA256Mismatch; nothing is stored', async () => {
    const { app, control } = await harness();
    const wrong = await send(app, 'PUT', '/bucket/k', { body: Buffer.from('x'), secret: 'not-the-secret' });
    expect(wrong.statusCode).toBe(403);
    expect(errorCode(wrong.body)).toBe('SignatureDoesNotMatch');
    const unsigned = await app.inject({ method: 'GET', url: `${PREFIX}/bucket/k` });
    expect(unsigned.statusCode).toBe(403);
    expect(errorCode(unsigned.body)).toBe('AccessDenied');
    const url = new URL(`${ORIGIN}${PREFIX}/bucket/k`);
    const signed = signS3Request({ method: 'PUT', url, body: Buffer.from('signed bytes') }, CREDENTIALS, AT);
    const swapped = await app.inject({ method: 'PUT', url: url.pathname, headers: signed, payload: Buffer.from('other bytes!') });
    expect(errorCode(swapped.body)).toBe('XAmzContentSHA256Mismatch');
    // UNSIGNED-PAYLOAD is S3's way of signing the headers only.
    const unsignedPayload = await app.inject({ method: 'PUT', url: url.pathname, headers: { ...signS3Request({ method: 'PUT', url, headers: { 'x-amz-content-sha256': UNSIGNED_PAYLOAD } }, CREDENTIALS, AT), 'x-amz-content-sha256': UNSIGNED_PAYLOAD }, payload: Buffer.from('any') });
    expect(errorCode(unsignedPayload.body)).toBe('SignatureDoesNotMatch');
    const stale = await send(app, 'GET', '/bucket/k', { now: AT - 20 * 60 * 1000 });
    expect(errorCode(stale.body)).toBe('RequestTimeTooSkewed');
    expect(control.objects()).toEqual([]);
    expect(control.requests()).toEqual({});
  });

  it('faults: an outage answers 503 ServiceUnavailable; failPutsAfter lets n uploads through; too large is EntityTooLarge', async () => {
    const { app, control } = await harness({ maxObjectBytes: 1024 });
    control.outage(true);
    const down = await send(app, 'GET', '/bucket/k');
    expect(down.statusCode).toBe(503);
    expect(errorCode(down.body)).toBe('ServiceUnavailable');
    control.outage(false);
    control.failPutsAfter(1);
    expect((await send(app, 'PUT', '/bucket/one', { body: Buffer.from('1') })).statusCode).toBe(200);
    expect(errorCode((await send(app, 'PUT', '/bucket/two', { body: Buffer.from('2') })).body)).toBe('ServiceUnavailable');
    control.failPutsAfter(null);
    expect((await send(app, 'PUT', '/bucket/two', { body: Buffer.from('2') })).statusCode).toBe(200);
    const large = await send(app, 'PUT', '/bucket/large', { body: Buffer.alloc(2048) });
    expect(large.statusCode).toBe(400);
    expect(errorCode(large.body)).toBe('EntityTooLarge');
    control.reset();
    expect(control.objects()).toEqual([]);
  });

  it('refuses bad options', async () => {
    const bad = Fastify();
    await expect(bad.register(s3Sandbox, { accessKeyId: '', secretAccessKey: 'x' }).ready()).rejects.toThrow(/accessKeyId is required/);
    await bad.close();
  });
});

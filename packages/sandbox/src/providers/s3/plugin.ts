import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../kit/html';
import { controlInternals, createS3SandboxControl, type S3Operation, type S3SandboxControl, type StoredBytes } from './control';
import { sha256Hex, UNSIGNED_PAYLOAD, verifySignature } from './sigv4';

export interface S3SandboxOptions {
  /** The demo credentials every request must be signed with (AWS Signature Version 4). */
  accessKeyId: string;
  secretAccessKey: string;
  /** The region in the signature's scope. Default `us-east-1`. */
  region?: string;
  /** Buckets that exist from the start (CreateBucket makes others). */
  buckets?: string[];
  control?: S3SandboxControl;
  /** The largest object accepted (bytes). Default 64 MiB. */
  maxObjectBytes?: number;
  /** All objects together (bytes); past it a PutObject answers 503. Default 1 GiB. */
  maxTotalBytes?: number;
  /** The stand-in's time (epoch ms): the signature's allowed skew and Last-Modified. Default Date.now. */
  clock?: () => number;
}

/** An answer in S3's XML error format. */
class S3Error extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly resource = '',
  ) {
    super(message);
  }
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function xmlText(value: string): string {
  return escapeHtml(value);
}

function unescapeXml(value: string): string {
  return value.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[name.toLowerCase()]) return named[name.toLowerCase()]!;
    const code = name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
  });
}

function sendError(reply: FastifyReply, error: S3Error, requestId: string): FastifyReply {
  reply.code(error.statusCode).header('x-amz-request-id', requestId);
  if (reply.request.method === 'HEAD') return reply.send();
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xmlText(error.message)}</Message>` +
    `${error.resource ? `<Resource>${xmlText(error.resource)}</Resource>` : ''}<RequestId>${requestId}</RequestId></Error>`;
  return reply.type('application/xml').send(body);
}

/**
 * An S3-compatible object store on loopback, for tests and the demo (production never mounts it):
 * path-style `/<bucket>` (PUT CreateBucket, HEAD, POST `?delete` DeleteObjects) and
 * `/<bucket>/<key>` (PUT, GET, HEAD, DELETE), every request signed with AWS Signature Version 4
 * with the demo credentials, objects in memory, S3's XML errors. docs/sandbox.md#s3.
 */
export const s3Sandbox: FastifyPluginAsync<S3SandboxOptions> = async function s3Sandbox(app: FastifyInstance, opts: S3SandboxOptions) {
  for (const name of ['accessKeyId', 'secretAccessKey'] as const) {
    if (typeof opts[name] !== 'string' || opts[name].trim() === '') throw new RangeError(`s3Sandbox: ${name} is required (a non-empty string)`);
  }
  const credentials = { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, region: opts.region ?? 'us-east-1' };
  const maxObjectBytes = opts.maxObjectBytes ?? 64 * 1024 * 1024;
  const maxTotalBytes = opts.maxTotalBytes ?? 1024 * 1024 * 1024;
  for (const [name, value] of [['maxObjectBytes', maxObjectBytes], ['maxTotalBytes', maxTotalBytes]] as const) {
    if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`s3Sandbox: ${name} must be a whole number > 0, not ${value}`);
  }
  const clock = opts.clock ?? Date.now;
  const control = opts.control ?? createS3SandboxControl();
  const state = controlInternals(control);
  for (const bucket of opts.buckets ?? []) {
    if (!BUCKET_NAME.test(bucket)) throw new RangeError(`s3Sandbox: "${bucket}" is not a bucket name`);
    if (!state.buckets.has(bucket)) state.buckets.set(bucket, new Map());
  }
  let sequence = 0;
  const totalBytes = () => [...state.buckets.values()].reduce((sum, objects) => sum + [...objects.values()].reduce((size, object) => size + object.size, 0), 0);

  // Every body as bytes: the signature covers them as sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxObjectBytes }, (_req, body, done) => done(null, body));

  app.setErrorHandler(async (error: FastifyError | S3Error, req, reply) => {
    const requestId = `SANDBOX${String(++sequence).padStart(9, '0')}`;
    if (error instanceof S3Error) return sendError(reply, error, requestId);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, new S3Error(400, 'EntityTooLarge', `Your proposed upload exceeds the maximum allowed size (${maxObjectBytes} bytes here).`), requestId);
    req.log.error({ err: error }, 's3 sandbox: unexpected error');
    return sendError(reply, new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.'), requestId);
  });

  const count = (operation: S3Operation) => state.counts.set(operation, (state.counts.get(operation) ?? 0) + 1);

  function authenticate(req: FastifyRequest, body: Buffer): void {
    const raw = req.raw.url ?? '/';
    const at = raw.indexOf('?');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    const refused = verifySignature(
      { method: req.method, path: at === -1 ? raw : raw.slice(0, at), rawQuery: at === -1 ? '' : raw.slice(at + 1), headers: req.headers, payloadHash },
      credentials,
      clock(),
    );
    if (refused) throw new S3Error(refused.status, refused.code, refused.message);
    if (payloadHash.startsWith('STREAMING-')) throw new S3Error(501, 'NotImplemented', 'The stand-in takes whole bodies only (no aws-chunked uploads).');
    if (payloadHash !== UNSIGNED_PAYLOAD && payloadHash !== sha256Hex(body)) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
    }
  }

  function bucketOf(name: string): Map<string, StoredBytes> {
    const found = state.buckets.get(name);
    if (!found) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.', `/${name}`);
    return found;
  }

  function objectHeaders(reply: FastifyReply, object: StoredBytes): FastifyReply {
    return reply
      .header('etag', object.etag)
      .header('last-modified', new Date(object.lastModified).toUTCString())
      .header('content-length', String(object.size))
      .type(object.contentType);
  }

  app.route({
    method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
    url: '/*',
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      authenticate(req, body);
      const requestId = `SANDBOX${String(++sequence).padStart(9, '0')}`;
      reply.header('x-amz-request-id', requestId);
      if (state.down) throw new S3Error(503, 'ServiceUnavailable', 'The stand-in is switched off (control.outage): please reduce your request rate.');
      const path = (req.params as { '*': string })['*'];
      const slash = path.indexOf('/');
      const bucketName = decodeURIComponent(slash === -1 ? path : path.slice(0, slash));
      const key = slash === -1 ? '' : decodeURIComponent(path.slice(slash + 1));
      const query = new URLSearchParams((req.raw.url ?? '').split('?')[1] ?? '');
      if (!BUCKET_NAME.test(bucketName)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', `/${bucketName}`);

      if (key === '') {
        if (req.method === 'PUT') {
          count('CreateBucket');
          if (!state.buckets.has(bucketName)) state.buckets.set(bucketName, new Map());
          return reply.header('location', `/${bucketName}`).send();
        }
        if (req.method === 'HEAD') {
          count('HeadBucket');
          bucketOf(bucketName);
          return reply.send();
        }
        if (req.method === 'POST' && query.has('delete')) {
          count('DeleteObjects');
          const objects = bucketOf(bucketName);
          const xml = body.toString('utf8');
          const keys = [...xml.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((found) => unescapeXml(found[1] ?? ''));
          if (!/<Delete\b/.test(xml) || keys.length === 0 || keys.length > 1000) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
          for (const name of keys) objects.delete(name);
          const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(xml);
          const deleted = quiet ? '' : keys.map((name) => `<Deleted><Key>${xmlText(name)}</Key></Deleted>`).join('');
          return reply.type('application/xml').send(`<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${deleted}</DeleteResult>`);
        }
        throw new S3Error(501, 'NotImplemented', `The stand-in does not serve ${req.method} on a bucket (PUT, HEAD and POST ?delete only).`, `/${bucketName}`);
      }

      const objects = bucketOf(bucketName);
      const resource = `/${bucketName}/${key}`;
      if (key.length > 1024) throw new S3Error(400, 'KeyTooLongError', 'Your key is too long.', resource);
      if (req.method === 'PUT') {
        count('PutObject');
        if (req.headers['x-amz-copy-source'] !== undefined) throw new S3Error(501, 'NotImplemented', 'The stand-in does not copy objects.', resource);
        if (state.putsLeft !== null) {
          if (state.putsLeft <= 0) throw new S3Error(503, 'ServiceUnavailable', 'The stand-in refuses uploads (control.failPutsAfter): please reduce your request rate.', resource);
          state.putsLeft--;
        }
        if (totalBytes() - (objects.get(key)?.size ?? 0) + body.length > maxTotalBytes) {
          throw new S3Error(503, 'SlowDown', `The stand-in holds its maxTotalBytes (${maxTotalBytes} bytes) already.`, resource);
        }
        const object: StoredBytes = {
          bucket: bucketName,
          key,
          size: body.length,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag: `"${createHash('md5').update(body).digest('hex')}"`,
          lastModified: new Date(clock()).toISOString(),
          content: Buffer.from(body),
        };
        objects.set(key, object);
        return reply.header('etag', object.etag).send();
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        count(req.method === 'GET' ? 'GetObject' : 'HeadObject');
        const object = objects.get(key);
        if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', resource);
        objectHeaders(reply, object);
        return reply.send(req.method === 'GET' ? object.content : undefined);
      }
      if (req.method === 'DELETE') {
        count('DeleteObject');
        objects.delete(key);
        return reply.code(204).send();
      }
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', resource);
    },
  });
};

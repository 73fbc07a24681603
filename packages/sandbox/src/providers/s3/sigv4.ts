import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from '../../kit/crypto';

/**
 * AWS Signature Version 4 as S3 checks it on an `Authorization: AWS4-HMAC-SHA256 …` header
 * (docs/sandbox.md#s3): the canonical request (method, path as sent, sorted query, the signed
 * headers, the payload's hash), the string to sign with the credential scope, and the HMAC chain
 * from the secret. `signS3Request` makes the same header (the stand-in's own tests and tools).
 */

export const ALGORITHM = 'AWS4-HMAC-SHA256';
/** The payload hash a client sends when it does not sign the body. */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 encoding as SigV4 wants it: everything but `A-Z a-z 0-9 - _ . ~` escaped, upper-case hex. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decodeLoose(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return value;
  }
}

/** The query as SigV4 signs it: each name and value decoded, re-encoded, sorted by name then value. */
export function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  return rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at === -1 ? pair : pair.slice(0, at);
      const value = at === -1 ? '' : pair.slice(at + 1);
      return [uriEncode(decodeLoose(name)), uriEncode(decodeLoose(value))] as const;
    })
    .sort(([nameA, valueA], [nameB, valueB]) => (nameA === nameB ? (valueA < valueB ? -1 : valueA > valueB ? 1 : 0) : nameA < nameB ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(value: string | string[] | undefined): string {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/\s+/g, ' ');
}

export interface SignedRequest {
  method: string;
  /** The path exactly as sent (already URI-encoded by the client). */
  path: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  payloadHash: string;
}

export function canonicalRequest(request: SignedRequest, signedHeaders: readonly string[]): string {
  const headers = signedHeaders.map((name) => `${name}:${headerValue(request.headers[name])}\n`).join('');
  return [request.method.toUpperCase(), request.path, canonicalQuery(request.rawQuery), headers, signedHeaders.join(';'), request.payloadHash].join('\n');
}

/** The signature of a canonical request under a scope `date/region/service/aws4_request`. */
export function signature(secretAccessKey: string, amzDate: string, scope: string, canonical: string): string {
  const [date = '', region = '', service = ''] = scope.split('/');
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** Why a request's signature is refused: S3's error code and message. */
export interface SignatureRefusal {
  status: number;
  code: string;
  message: string;
}

/** The time the request says it was signed (`x-amz-date`, `20130524T000000Z`), as epoch ms, or null. */
export function amzDateMs(value: string): number | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** How far a request's time may be from the stand-in's (S3's own allowance). */
export const MAX_SKEW_MS = 15 * 60 * 1000;

/**
 * Checks a request's `Authorization` header against the stand-in's credentials: null when it holds,
 * else S3's answer (403 SignatureDoesNotMatch, InvalidAccessKeyId, RequestTimeTooSkewed, AccessDenied;
 * 400 AuthorizationHeaderMalformed).
 */
export function verifySignature(request: SignedRequest, credentials: Credentials, now: number): SignatureRefusal | null {
  const authorization = headerValue(request.headers.authorization);
  if (authorization === '') return { status: 403, code: 'AccessDenied', message: 'Anonymous access is not allowed: sign the request (AWS Signature Version 4).' };
  const match = /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed: expected AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=….' };
  const [, accessKeyId = '', date = '', region = '', service = '', signedList = '', given = ''] = match;
  if (!safeEqual(accessKeyId, credentials.accessKeyId)) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  if (service !== 's3') return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The credential scope names the service "${service}": expected "s3".` };
  if (region !== credentials.region) return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The authorization header is malformed; the region '${region}' is wrong; expecting '${credentials.region}'.` };
  const amzDate = headerValue(request.headers['x-amz-date']);
  const signedAt = amzDateMs(amzDate);
  if (signedAt === null) return { status: 403, code: 'AccessDenied', message: 'AWS authentication requires a valid x-amz-date header.' };
  if (!amzDate.startsWith(date)) return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The credential scope's date ${date} is not the date of x-amz-date (${amzDate}).` };
  if (Math.abs(signedAt - now) > MAX_SKEW_MS) return { status: 403, code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' };
  const signedHeaders = signedList.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date') && !signedHeaders.includes('date')) {
    return { status: 403, code: 'AccessDenied', message: 'The signed headers must include host and x-amz-date.' };
  }
  const expected = signature(credentials.secretAccessKey, amzDate, `${date}/${region}/${service}/aws4_request`, canonicalRequest(request, signedHeaders));
  if (!safeEqual(expected, given)) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
  }
  return null;
}

/** An `Authorization` header (and the headers it signs) for a request to the stand-in: tests and tools. */
export function signS3Request(
  request: { method: string; url: URL; headers?: Record<string, string>; body?: Uint8Array },
  credentials: Credentials,
  now: number,
): Record<string, string> {
  const amzDate = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const payloadHash = sha256Hex(request.body ?? new Uint8Array());
  const headers: Record<string, string> = { ...request.headers, host: request.url.host, 'x-amz-date': amzDate, 'x-amz-content-sha256': payloadHash };
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const signedHeaders = Object.keys(lower).sort();
  const scope = `${amzDate.slice(0, 8)}/${credentials.region}/s3/aws4_request`;
  const canonical = canonicalRequest({ method: request.method, path: request.url.pathname, rawQuery: request.url.search.slice(1), headers: lower, payloadHash }, signedHeaders);
  const signed = signature(credentials.secretAccessKey, amzDate, scope, canonical);
  return { ...lower, authorization: `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signed}` };
}

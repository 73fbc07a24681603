import { createHmac } from 'node:crypto';

/**
 * The `X-FS-Signature` header value FastSpring sends with a webhook POST when the webhook has an
 * "HMAC SHA256 Secret": base64(HMAC-SHA256(key = the secret, message = the raw body bytes)).
 */
export function signFastspring(raw: string | Buffer, secret: string): string {
  if (typeof secret !== 'string' || secret === '') throw new RangeError('signFastspring: secret must be a non-empty string');
  return createHmac('sha256', secret).update(raw).digest('base64');
}

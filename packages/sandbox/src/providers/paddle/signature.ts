import { createHmac } from 'node:crypto';

/**
 * The `Paddle-Signature` header value Paddle sends with a notification: `ts=<unix seconds>;h1=<hex>`,
 * where h1 = hex HMAC-SHA256(key = the destination's secret, message = `${ts}:${rawBody}`).
 */
export function signPaddle(rawBody: string, secret: string, tsSeconds: number): string {
  if (!Number.isInteger(tsSeconds) || tsSeconds < 0) throw new RangeError(`signPaddle: tsSeconds must be a whole number of seconds >= 0, not ${tsSeconds}`);
  const h1 = createHmac('sha256', secret).update(`${tsSeconds}:${rawBody}`).digest('hex');
  return `ts=${tsSeconds};h1=${h1}`;
}

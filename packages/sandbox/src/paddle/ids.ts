import { createHash, randomBytes } from 'node:crypto';
import type { Interval } from './types';

/** Crockford's base32 alphabet, lowercased like Paddle's ids. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out.padEnd(length, '0');
}

const RANDOM_BITS = 80n;
let lastTime = -1;
let lastRandom = 0n;

/**
 * A Paddle-style id: `<prefix>_` and 26 lowercase ULID characters (10 of time, 16 random), e.g.
 * `sub_01hv8y5ehszzq0yv20ttx3166y`. Monotonic like ULIDs: ids made in the same millisecond increment
 * the random part, so ids sort in the order they were made (the API lists by id).
 */
export function paddleId(prefix: string, nowMs: number): string {
  const t = Math.max(0, Math.floor(nowMs));
  let random: bigint;
  if (t === lastTime && lastRandom + 1n < 1n << RANDOM_BITS) random = lastRandom + 1n;
  else random = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n;
  lastTime = t;
  lastRandom = random;
  let time = '';
  let rest = t;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = ALPHABET[Number(random & 31n)] + tail;
    random >>= 5n;
  }
  return `${prefix}_${time}${tail}`;
}

/** A stable id derived from a name (the products of the configured prices). */
export function derivedId(prefix: string, name: string): string {
  return `${prefix}_01${base32(createHash('sha256').update(name).digest(), 24)}`;
}

/** Epoch microseconds as Paddle writes times: ISO 8601 UTC with six fraction digits. */
export function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = String(Math.floor(micros - ms * 1000)).padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, -1)}${rest}Z`;
}

/** Epoch ms as Paddle writes times (`.sss000Z`). */
export function isoMs(ms: number): string {
  return isoMicros(Math.floor(ms) * 1000);
}

/**
 * `ms` moved by `count` calendar months or years in UTC; a day past the end of the target month is
 * clamped to its last day (Jan 31 + 1 month = Feb 28/29), the time of day is kept.
 */
export function addInterval(ms: number, interval: Interval, count = 1): number {
  const d = new Date(ms);
  const months = interval === 'year' ? 12 * count : count;
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

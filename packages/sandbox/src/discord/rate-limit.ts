import { sha256 } from '../kit/crypto';

export interface RateLimitSettings {
  /** Requests allowed per bucket per window. */
  limit: number;
  /** Window length in seconds (fractions allowed). */
  windowSeconds: number;
}

/** Generous enough that the API, its tests and the benches never meet it unless they ask to. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { limit: 100, windowSeconds: 1 };

/** POST /channels/{id}/messages: 5 messages per 5 s per channel, as Discord's bucket for it typically is. */
export const DEFAULT_MESSAGE_RATE_LIMIT: RateLimitSettings = { limit: 5, windowSeconds: 5 };

export interface RateLimitOutcome {
  limited: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds (fractional) when the bucket refills. */
  reset: number;
  /** Seconds (fractional) until the bucket refills. */
  resetAfter: number;
  /** Opaque bucket id, as Discord's X-RateLimit-Bucket (does not include the major parameter). */
  bucket: string;
}

/** Opaque, stable per route like Discord's bucket hashes. */
function bucketId(route: string): string {
  return sha256(`sandbox-bucket:${route}`).toString('hex').slice(0, 32);
}

/**
 * Fixed-window buckets keyed by route bucket + major parameter + caller (token, client or IP), the way
 * Discord documents per-route limits. State lives per plugin registration.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; end: number; count: number }>();

  take(route: string, key: string, now: number, settings: RateLimitSettings): RateLimitOutcome {
    const bucket = bucketId(route);
    const windowMs = Math.max(1, settings.windowSeconds * 1000);
    const id = `${bucket}:${key}`;
    let writer = this.#windows.get(id);
    if (!writer || now >= writer.start + windowMs) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      writer = { start: now, end: now + windowMs, count: 0 };
      this.#windows.set(id, writer);
    }
    writer.end = writer.start + windowMs;
    const resetMs = writer.end;
    const limited = writer.count >= settings.limit;
    if (!limited) writer.count++;
    return {
      limited,
      limit: settings.limit,
      remaining: Math.max(0, settings.limit - writer.count),
      reset: resetMs / 1000,
      resetAfter: Math.max(0, (resetMs - now) / 1000),
      bucket,
    };
  }

  clear(): void {
    this.#windows.clear();
  }

  /** Drops ended windows (each by its own length: buckets differ). */
  #sweep(now: number): void {
    for (const [id, writer] of this.#windows) if (now >= writer.end) this.#windows.delete(id);
  }
}

/** Seconds with millisecond precision, as Discord prints them. */
export function seconds(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The value of one cookie in a request's `Cookie` header (the first of that name), or null. */
function cookieValue(req: FastifyRequest, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * A route's own limit (`config` of a route, for @fastify/rate-limit): `max` requests per minute and
 * session, counted under `bucket`. The key is a hash of the session cookie (never the token itself,
 * which would then sit in the limiter's store), else of the address: other cookies do not change it,
 * so a caller cannot step around the limit by adding some.
 */
export function perSessionLimit(bucket: string, max: number, sessionCookie: string) {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => {
        const session = cookieValue(req, sessionCookie);
        return `${bucket}:${createHash('sha256').update(session === null ? `ip ${req.ip}` : `session ${session}`).digest('base64url')}`;
      },
    },
  };
}

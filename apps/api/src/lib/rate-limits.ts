import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A route's own limit (its `config`, for @fastify/rate-limit): `max` requests per minute and signed-in
 * user, counted under `bucket` (one per route, so counters stay apart in Redis too); a request without
 * a live session counts against its address. It replaces the global per-address limit on the route:
 * docs/api.md#per-user-rate-limits.
 */
export function perUserLimit(bucket: string, max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      hook: 'onRequest' as const,
      keyGenerator: async (req: FastifyRequest) => {
        const session = await req.getSession();
        return session ? `${bucket}:user:${session.userId}` : `${bucket}:ip:${normalizeIP(req.ip, 64)}`;
      },
    },
  };
}

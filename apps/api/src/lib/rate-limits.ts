import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A route's own limit (its `config`, for @fastify/rate-limit): `max` requests per minute and signed-in
 * user, counted under `bucket` (one bucket per route: the name is part of the key, so counters stay
 * apart in Redis too). Taken in the route's `onRequest` (after the app's own, which reads the
 * cookies; before its guards, so a refused caller is counted too): the key is the user the session
 * cookie resolved to (the lookup is the one the guard then reuses), so spelling the cookie another way, adding cookies, or signing in
 * again for more sessions changes nothing; a request without a live session (made-up tokens
 * included) counts against its address (IPv6 per /64, as the global limit). @fastify/rate-limit applies one limit per request, so this
 * replaces the global per-address limit on the route: a user is limited as tightly as an address
 * and never shares an address's budget with others behind it.
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

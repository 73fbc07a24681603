import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ApiHttpError } from '../../lib/errors';

/**
 * Per-IP rate limits on /api (static files and the sandbox are not limited). Shared between
 * instances through Redis when REDIS_URL is set (an unreachable Redis lets requests through rather
 * than failing them), in memory otherwise. 429 answers carry Retry-After and a 1003 body.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, opts: { max: number; windowMs: number; redis: Redis | null }) {
    await app.register(rateLimit, {
      global: true,
      max: opts.max,
      timeWindow: opts.windowMs,
      ...(opts.redis ? { redis: opts.redis, nameSpace: 'tickety-rl:', skipOnError: true } : {}),
      allowList: (req) => !req.url.startsWith('/api/'),
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
      addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
      errorResponseBuilder: (_req, context) =>
        new ApiHttpError('RATE_LIMITED', { retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
  },
  { name: 'tickety-rate-limit' },
);

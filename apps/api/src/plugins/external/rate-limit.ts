import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';
import { isInProcess } from '../../lib/inject-fetch';
import { LIMIT_NAMESPACE, sharedOrLocalStore } from '../../lib/limit-store';
import type { RedisLink } from '../../lib/redis-link';
import { bearerKey, botKeyId } from '../../services/bot-keys';

interface RateLimitOptions {
  /** Requests per window and IP on /api (and unmatched addresses). */
  max: number;
  /** Requests per window and IP on /sandbox (demo mode). */
  sandboxMax: number;
  /** Requests per window and IP on the payment providers' webhooks (/api/webhooks/). */
  webhookMax: number;
  /** Requests per window and bot key on the bot API (/api/bot/). */
  botMax: number;
  windowMs: number;
  /** REDIS_URL's connection: counters shared through it while it answers, per instance while it does not. */
  redis: RedisLink | null;
}

/** Which limit a request counts against, or null (static files, config.json, health). */
type LimitScope = 'api' | 'bot' | 'webhook' | 'sandbox' | null;

/**
 * Decided on the route the router matched (its pattern, on decoded paths), never on the raw URL:
 * `/%61pi/plans` matches `/api/plans` and counts like it. The all-in-one static wildcard (`/*`) is
 * judged by the path the router decoded into its parameter, so `/api/<unknown>` answered by the
 * static site's not-found still counts. Requests no route matched reach the not-found handler, which
 * may read the session: they count against the /api limit.
 */
function limitScope(req: FastifyRequest): LimitScope {
  const route = req.routeOptions.url;
  if (route === undefined) return 'api';
  const path = route === '/*' ? `/${(req.params as { '*'?: string } | undefined)?.['*'] ?? ''}` : route;
  if (path.startsWith('/api/bot/')) return 'bot';
  // Providers send bursts from few addresses (retries after an outage): a counter of their own.
  if (path.startsWith('/api/webhooks/')) return 'webhook';
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (path.startsWith('/sandbox/')) return 'sandbox';
  return null;
}

/**
 * Per-IP rate limits: /api (and anything no route matched) and, in demo mode, /sandbox, each its own
 * counter; routes may set a tighter limit (the sign-in popup). Static files are not limited. Shared
 * between instances through Redis when REDIS_URL is set, in memory otherwise; while Redis is
 * unreachable or slower than REDIS_TIMEOUT_MS every limit counts in this instance's memory (so a client
 * gets at most N times a limit across N instances), never none. 429 answers carry Retry-After and a
 * 1003 body.
 * The API's own in-process calls to the sandbox are not a visitor's and are not counted.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, opts: RateLimitOptions) {
    await app.register(rateLimit, {
      global: true,
      max: (_req, key) =>
        key.startsWith('sandbox:') ? opts.sandboxMax : key.startsWith('bot:') ? opts.botMax : key.startsWith('webhook:') ? opts.webhookMax : opts.max,
      timeWindow: opts.windowMs,
      // Route limits and createRateLimit's are the store's children: they fall back the same way.
      ...(opts.redis ? { store: sharedOrLocalStore(opts.redis, LIMIT_NAMESPACE) } : {}),
      // IPv6 clients are counted per /64 (a host often holds a whole /64: one address each would be
      // a fresh quota per request), as the plugin's default key does.
      // The bot API counts per key (its id, read from the header before the key is checked: a request
      // with a made-up key is refused by the key check, which the limit does not replace).
      keyGenerator: (req) => {
        const scope = limitScope(req);
        const keyId = scope === 'bot' ? botKeyId(bearerKey(req) ?? '') : null;
        return keyId ? `bot:${keyId}` : `${scope ?? 'none'}:${normalizeIP(req.ip, 64)}`;
      },
      allowList: (req) => {
        const scope = limitScope(req);
        return scope === null || (scope === 'sandbox' && isInProcess(req));
      },
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
      addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
      errorResponseBuilder: (_req, context) =>
        new ApiHttpError('RATE_LIMITED', { retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
  },
  { name: 'tickety-rate-limit' },
);

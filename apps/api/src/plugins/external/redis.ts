import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { limitProbe } from '../../lib/limit-store';
import { RedisLink } from '../../lib/redis-link';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis (REDIS_URL), or null: the rate limits are then per instance. */
    redis: Redis | null;
    /** Whether Redis answers now (the rate limits fall back to per-instance counts while it does not); null without REDIS_URL. */
    redisLink: RedisLink | null;
  }
}

/** Resolves true once Redis is ready, false on its first error or after `timeoutMs`. */
function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
    redis.once('error', onError);
  });
}

/**
 * `app.redis`: a connection to REDIS_URL when set (the rate limits shared between API instances), else
 * null; `app.redisLink` says whether it answers. Redis down never stops the API: every command is
 * bounded by `timeoutMs` (a Redis that hangs included), and while Redis fails the rate limits count
 * in this instance's memory (lib/limit-store.ts).
 */
export default fp(
  async function redisPlugin(app: FastifyInstance, opts: { url: string | null; timeoutMs: number }) {
    if (!opts.url) {
      app.decorate('redis', null);
      app.decorate('redisLink', null);
      return;
    }
    const redis = new Redis(opts.url, {
      connectTimeout: 2_000,
      commandTimeout: opts.timeoutMs,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    const link = new RedisLink(redis, app.log, app.clock, limitProbe);
    // Without the offline queue, commands sent before the connection is up fail: wait for it (or its
    // first error) and a first count before serving; until then the limits count in memory.
    if (await redisReady(redis, 2_000)) await link.check();
    else link.down(`not reachable at start (${redis.status})`);
    app.decorate('redis', redis);
    app.decorate('redisLink', link);
    app.addHook('onClose', async () => {
      link.close();
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'tickety-redis' },
);

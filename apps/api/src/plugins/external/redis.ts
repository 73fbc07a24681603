import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis (REDIS_URL), or null: the rate limits are then per instance. */
    redis: Redis | null;
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
 * null. Redis down never stops the API: its errors are logged and the limits let requests through.
 */
export default fp(
  async function redisPlugin(app: FastifyInstance, opts: { url: string | null }) {
    if (!opts.url) {
      app.decorate('redis', null);
      return;
    }
    const redis = new Redis(opts.url, { connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (error) => app.log.warn({ err: error.message }, 'redis error (rate limits fall back to letting requests through)'));
    // Without the offline queue, commands sent before the connection is up fail, and the limiter
    // lets those requests through: wait for it (or its first error) before serving.
    if (!(await redisReady(redis, 2_000))) {
      app.log.warn({ status: redis.status }, 'redis is not reachable: rate limits let requests through until it is');
    }
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'tickety-redis' },
);

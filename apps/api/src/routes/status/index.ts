import { type HealthState, StatusResponse } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { iso, toMs } from '../../lib/clock';

/** A database check slower than this is "degraded"; one that does not finish in time is "down". */
export const DB_SLOW_MS = 1_000;
export const DB_TIMEOUT_MS = 3_000;
/** A shard without a heartbeat for this long is not counted as healthy. */
export const SHARD_STALE_MS = 120_000;

const rank: Record<HealthState, number> = { operational: 0, degraded: 1, down: 2 };

/** Public service status: the API, the database (with latency), Redis when configured, and the bot's shards. */
export default async function statusRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/', { schema: { response: { 200: StatusResponse } } }, async (req, reply): Promise<StatusResponse> => {
    reply.header('cache-control', 'no-cache');
    const services: StatusResponse['services'] = [{ name: 'api', status: 'operational', latencyMs: 0 }];
    let shards: StatusResponse['shards'] = [];

    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.db.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), DB_TIMEOUT_MS);
        }),
      ]);
      const latencyMs = Math.round(performance.now() - started);
      services.push(
        latencyMs > DB_SLOW_MS
          ? { name: 'database', status: 'degraded', latencyMs, detail: 'The database is answering slowly.' }
          : { name: 'database', status: 'operational', latencyMs },
      );
    } catch (error) {
      const err = error instanceof Error ? error.message : String(error);
      app.logThrottle.warn(req.log, { err }, 'status: database check failed', err);
      services.push({ name: 'database', status: 'down', latencyMs: null, detail: 'The database is not answering.' });
    } finally {
      clearTimeout(timer);
    }

    if (services[1]?.status !== 'down') {
      try {
        const { rows } = await app.db.query<{ id: number; state: string; latency_ms: number | null; guilds: number; last_heartbeat: unknown }>(
          'SELECT id, state, latency_ms, guilds, last_heartbeat FROM bot_shards WHERE bot_id = $1 ORDER BY id',
          [app.config.discord.clientId],
        );
        shards = rows.map((r) => ({
          id: Number(r.id),
          state: r.state,
          latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
          guilds: Number(r.guilds),
          lastHeartbeat: iso(toMs(r.last_heartbeat) ?? 0),
        }));
      } catch (error) {
        req.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'status: shard query failed');
      }
    }
    // Redis (REDIS_URL only): while it does not answer, the rate limits count per instance.
    if (app.redisLink) {
      const redis = await app.redisLink.check();
      services.push(
        redis.reachable
          ? { name: 'redis', status: 'operational', latencyMs: redis.latencyMs }
          : { name: 'redis', status: 'down', latencyMs: null, detail: 'Redis is not answering: rate limits are counted on each API instance until it is back.' },
      );
    }

    if (shards.length > 0) {
      const now = app.clock();
      const healthy = shards.filter((s) => s.state === 'ready' && now - Date.parse(s.lastHeartbeat) < SHARD_STALE_MS).length;
      services.push({
        name: 'bot',
        status: healthy === shards.length ? 'operational' : healthy === 0 ? 'down' : 'degraded',
        latencyMs: null,
        ...(healthy === shards.length ? {} : { detail: `${shards.length - healthy} of ${shards.length} shards are not ready.` }),
      });
    }

    // The API answers, so the whole is at worst "degraded" when a dependency is slow or down.
    const worst = services.reduce<HealthState>((acc, s) => (rank[s.status] > rank[acc] ? s.status : acc), 'operational');
    return { status: worst === 'operational' ? 'operational' : 'degraded', checkedAt: iso(app.clock()), services, shards };
  });
}

import { HealthResponse, ReadyResponse } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiHttpError } from '../../lib/errors';
import { DB_RETRY_AFTER } from '../../plugins/app/errors';
import { ANSWERS_UNDER_PRESSURE, OVERLOAD_RETRY_AFTER } from '../../plugins/external/under-pressure';

/** How long the readiness check waits for the database. */
const READY_DB_DEADLINE_MS = 2_000;

/**
 * Liveness (`/api/health`: the process answers, no dependency checked, answers under load too) and
 * readiness (`/api/health/ready`: the database answers within 2 s and the process is not shedding
 * load; a load balancer takes an instance out while it fails).
 */
export default async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/', { config: { rateLimit: false, ...ANSWERS_UNDER_PRESSURE }, schema: { response: { 200: HealthResponse } } }, async (_req, reply): Promise<HealthResponse> => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });

  app.get('/ready', { config: { rateLimit: false, ...ANSWERS_UNDER_PRESSURE }, schema: { response: { 200: ReadyResponse } } }, async (req, reply): Promise<ReadyResponse> => {
    reply.header('cache-control', 'no-store');
    if (app.isUnderPressure()) throw new ApiHttpError('OVERLOADED', { retryAfter: OVERLOAD_RETRY_AFTER });
    let latencyMs: number;
    try {
      latencyMs = await app.systemHealth.ping(READY_DB_DEADLINE_MS);
    } catch (error) {
      const err = error instanceof Error ? error.message : String(error);
      app.logThrottle.warn(req.log, { err }, 'readiness: database check failed', err);
      throw new ApiHttpError('DATABASE_UNAVAILABLE', { retryAfter: DB_RETRY_AFTER });
    }
    return { status: 'ready', database: { latencyMs: Math.round(latencyMs * 10) / 10 } };
  });
}

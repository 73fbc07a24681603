import type { HealthResponse } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';

/** Liveness: the process answers. No dependency is checked (see /api/status for that). */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/', { config: { rateLimit: false } }, async (_req, reply): Promise<HealthResponse> => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });
}

import type { Plan } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';

/** The plan catalogue (config/plans.json or PLANS_FILE, validated at start). */
export default async function planRoutes(app: FastifyInstance) {
  app.get('/', async (_req, reply): Promise<Plan[]> => {
    reply.header('cache-control', 'public, max-age=300');
    return app.config.plans;
  });
}

import { Plan } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The plan catalogue (config/plans.json or PLANS_FILE, validated at start). */
export default async function planRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/', { schema: { response: { 200: z.array(Plan) } } }, async (_req, reply): Promise<Plan[]> => {
    reply.header('cache-control', 'public, max-age=300');
    return app.config.plans;
  });
}

import { StatusResponse } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Public service status: the API, the database (with latency), Redis when configured, and the bot's shards. */
export default async function statusRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/', { schema: { response: { 200: StatusResponse } } }, async (req, reply): Promise<StatusResponse> => {
    reply.header('cache-control', 'no-cache');
    return app.systemHealth.status(req.log);
  });
}

import { ApiError, GuildParams, ServerResources, ServerResourcesQuery } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 422: ApiError, 503: ApiError };

/**
 * `GET /api/guilds/:server/resources`: the server's channels (with where the bot can post a panel),
 * roles and custom emojis, read from Discord with the bot's token and kept a minute in memory
 * (`?refresh=1` reads Discord again). A server the bot is not in: 1014. Read access to the Panel Menu,
 * Restore Configs or Web Logs.
 */
export default async function serverResourcesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:server/resources',
    // The pickers of the Panel Menu, and the channel and role names Restore Configs and Web Logs show.
    { attachValidation: true, preHandler: app.requireArea(['panels', 'configs', 'logs'], 'read'), schema: { params: GuildParams, querystring: ServerResourcesQuery, response: { 200: ServerResources, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      return app.serverResources.get(req.guild!.id, { refresh: req.query.refresh === '1' });
    },
  );
}

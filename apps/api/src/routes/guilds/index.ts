import type { Guild } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';

/**
 * Server routes. Everything under `/api/guilds/:server` goes through requireGuildAccess (reads) or
 * requireGuildWriteAccess (changes), which decide on a guild list younger than their window.
 */
export default async function guildRoutes(app: FastifyInstance) {
  app.get('/:server', { preHandler: app.requireGuildAccess }, async (req, reply): Promise<Guild> => {
    reply.header('cache-control', 'no-store');
    return req.guild!;
  });
}

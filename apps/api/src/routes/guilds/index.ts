import { Guild, GuildParams } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Server routes. Everything under `/api/guilds/:server` goes through requireGuildAccess (reads) or
 * requireGuildWriteAccess (changes), which decide on a guild list younger than their window.
 */
export default async function guildRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The session is checked before the address (401 before 400): the params' schema is attached, not
  // enforced, and requireGuildAccess refuses a malformed id with the same Snowflake check (and
  // `selector: true`, so the page offers the server list).
  const route = { attachValidation: true, preHandler: app.requireGuildAccess } as const;
  app.get('/:server', { ...route, schema: { params: GuildParams, response: { 200: Guild } } }, async (req, reply): Promise<Guild> => {
    reply.header('cache-control', 'no-store');
    return req.guild!;
  });
}

import { GuildParams, GuildWithAccess } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Server routes. Everything under `/api/guilds/:server` goes through requireArea(area, level) (or, for
 * the server itself, requireGuildAccess: any access), which decides on a guild list younger than its
 * window and on the server's access rules for a member who does not manage it.
 */
export default async function guildRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The session is checked before the address (401 before 400): the params' schema is attached, not
  // enforced, and requireGuildAccess refuses a malformed id with the same Snowflake check (and
  // `selector: true`, so the page offers the server list).
  const route = { attachValidation: true, preHandler: app.requireGuildAccess } as const;
  // The server and what the user may do there: the dashboard mirrors `access` (hides or marks pages,
  // turns saving off); every route decides again.
  app.get('/:server', { ...route, schema: { params: GuildParams, response: { 200: GuildWithAccess } } }, async (req, reply): Promise<GuildWithAccess> => {
    reply.header('cache-control', 'no-store');
    return { ...req.guild!, access: req.serverAccess! };
  });
}

import { type Guild, GuildParams, GuildWithAccess, type ServerAccess } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendEncoded } from '../../lib/encoded-answer';

/**
 * Server routes. Everything under `/api/guilds/:server` goes through requireArea(area, level) (or, for
 * the server itself, requireGuildAccess: any access), which decides on a guild list younger than its
 * window and on the server's access rules for a member who does not manage it.
 */
/**
 * One answer object per guild and access objects: a warm read's guild is its user's cached one and a
 * manager's access the one full access, so the same pair gets the same object, whose bytes are
 * encoded once (lib/encoded-answer.ts). Objects made per request (role access, staff read) are
 * answered once and forgotten with them.
 */
const answers = new WeakMap<Guild, WeakMap<ServerAccess, GuildWithAccess>>();
function answerOf(guild: Guild, access: ServerAccess): GuildWithAccess {
  let byAccess = answers.get(guild);
  if (!byAccess) {
    byAccess = new WeakMap();
    answers.set(guild, byAccess);
  }
  let answer = byAccess.get(access);
  if (!answer) {
    answer = { ...guild, access };
    byAccess.set(access, answer);
  }
  return answer;
}

export default async function guildRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The session is checked before the address (401 before 400): the params' schema is attached, not
  // enforced, and requireGuildAccess refuses a malformed id with the same Snowflake check (and
  // `selector: true`, so the page offers the server list).
  const route = { attachValidation: true, preHandler: app.requireGuildAccess } as const;
  // The server and what the user may do there: the dashboard mirrors `access` (hides or marks pages,
  // turns saving off); every route decides again.
  app.get('/:server', { ...route, compress: false, schema: { params: GuildParams, response: { 200: GuildWithAccess } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return sendEncoded(req, reply, answerOf(req.guild!, req.serverAccess!));
  });
}

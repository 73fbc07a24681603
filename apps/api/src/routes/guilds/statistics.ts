import { ApiError, GuildParams, type ServerConfig, StatisticsAnswer, StatisticsQuery } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DiscordBotError } from '../../lib/discord-bot';
import { Statistics } from '../../services/statistics';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 503: ApiError };

/** The time zone most of the server's panels' support hours use (the first such panel's on a tie), or null. */
export function serverTimeZone(config: ServerConfig): string | null {
  const counts = new Map<string, number>();
  for (const panel of config.panels ?? []) {
    const zone = panel.supportHours?.timeZone;
    if (zone) counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [zone, n] of counts) if (best === null || n > counts.get(best)!) best = zone;
  return best;
}

/** Staff members looked up by name at most this many per answer (the rest keep "Member <id>"). */
const NAME_LOOKUPS_MAX = 25;
const NAME_TTL_MS = 10 * 60_000;
/** How long a lookup Discord did not answer is not asked again. */
const NAME_RETRY_MS = 60_000;
const NAME_CACHE_MAX = 5_000;

/**
 * A server's Statistics (`GET /api/guilds/:server/statistics`): read access to Statistics. The range
 * the server's plan allows (the plan catalogue's `statisticsDays`, `statisticsExport`) is checked here. Without `tz`, the days are the server's (serverTimeZone).
 */
export default async function statisticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const statistics = new Statistics(app.db, app.clock, app.config.plans, async (guildId) => serverTimeZone((await app.serverConfigs.live(guildId)).config as ServerConfig));

  // Staff who never signed in to the dashboard have no name in `users`: the server's member is asked
  // for as the product's bot (their nickname there, else their Discord name), only on a server that
  // bot serves, and kept ten minutes (a member who left, too; Discord not answering, a minute). The
  // oldest entries go first when the cache is full. Without a name the page shows the id.
  const names = new Map<string, { name: string | null; until: number }>();
  async function memberName(guildId: string, userId: string): Promise<string | null> {
    const key = `${guildId}:${userId}`;
    const now = app.clock();
    const known = names.get(key);
    if (known && known.until > now) return known.name;
    let name: string | null = null;
    let ttl = NAME_TTL_MS;
    try {
      const member = await app.discordBot.guildMember(guildId, userId);
      name = member.nick ?? member.user?.global_name ?? member.user?.username ?? null;
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'unavailable') ttl = NAME_RETRY_MS;
    }
    names.delete(key);
    while (names.size >= NAME_CACHE_MAX) names.delete(names.keys().next().value!);
    names.set(key, { name, until: now + ttl });
    return name;
  }

  app.get(
    '/:server/statistics',
    {
      attachValidation: true,
      preHandler: app.requireArea('statistics', 'read'),
      schema: { params: GuildParams, querystring: StatisticsQuery, response: { 200: StatisticsAnswer, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const timings: string[] = [];
      const answer = await statistics.read(req.guild!.id, req.query, (name, ms) => timings.push(`${name};dur=${ms.toFixed(1)}`));
      const served = req.guild!.botInGuild && (await app.botKeys.notServed(app.config.discord.clientId, [req.guild!.id])).length === 0;
      const unnamed = served ? answer.staff.filter((s) => s.name === null).slice(0, NAME_LOOKUPS_MAX) : [];
      const found = await Promise.all(unnamed.map((s) => memberName(req.guild!.id, s.userId)));
      unnamed.forEach((s, i) => {
        s.name = found[i] ?? null;
      });
      // Each query's time (Server-Timing: the browser's devtools show it; bench/statistics.mjs reads it).
      reply.header('server-timing', timings.join(', '));
      return answer;
    },
  );
}

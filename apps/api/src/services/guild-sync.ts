import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock';
import { type DiscordClient, DiscordError, type DiscordPartialGuild } from '../lib/discord';
import type { SessionStore } from './sessions';

/** Guilds a refresh checks one by one for the bot (the ones a user could just have invited it to). */
export const MAX_DIRECT_CHECKS = 25;

/** Refresh the access token when it expires within this margin. */
const EXPIRY_MARGIN_MS = 60_000;

export class DiscordGrantEndedError extends Error {
  constructor() {
    super('The Discord authorization has ended (revoked or expired).');
    this.name = 'DiscordGrantEndedError';
  }
}

/**
 * Fetches guild lists from Discord for a session: refreshes an expired access token first, and on a
 * 401 refreshes once and tries once more (never a loop). The bot's guild list is cached briefly.
 */
export class GuildSync {
  #bot: { ids: Set<string>; at: number } | null = null;
  #botPending: Promise<Set<string> | null> | null = null;

  constructor(
    private readonly discord: DiscordClient,
    private readonly clock: Clock,
    private readonly botCacheMs = 60_000,
  ) {}

  /** The bot's guild ids, or null when unknown (no bot token, or Discord failing: keep stored values). */
  async botGuilds(log: FastifyBaseLogger): Promise<Set<string> | null> {
    if (this.#bot && this.clock() - this.#bot.at < this.botCacheMs) return this.#bot.ids;
    if (!this.#botPending) {
      this.#botPending = this.discord
        .getBotGuildIds()
        .then((ids) => {
          if (ids) this.#bot = { ids, at: this.clock() };
          return ids;
        })
        .catch((error: unknown) => {
          log.warn({ err: error instanceof DiscordError ? error.message : String(error) }, 'bot guild list unavailable; keeping stored values');
          return null;
        })
        .finally(() => {
          this.#botPending = null;
        });
    }
    return this.#botPending;
  }

  /**
   * The bot's guild ids for a user's refresh: the (cached) list, plus a direct check of each of
   * `candidates` it does not contain (at most MAX_DIRECT_CHECKS), so a bot the user has just invited
   * shows at once, without fetching the bot's whole guild list for every refresh. A failed check
   * keeps what the list says.
   */
  async botGuildsFor(log: FastifyBaseLogger, candidates: string[]): Promise<Set<string> | null> {
    const listed = await this.botGuilds(log);
    if (!listed) return null;
    const missing = candidates.filter((id) => !listed.has(id)).slice(0, MAX_DIRECT_CHECKS);
    if (missing.length === 0) return listed;
    const found = await Promise.all(
      missing.map((id) =>
        this.discord.botInGuild(id).catch((error: unknown) => {
          log.warn({ err: error instanceof DiscordError ? error.message : String(error), guildId: id }, 'bot guild check failed; keeping the listed value');
          return null;
        }),
      ),
    );
    const added = missing.filter((_, i) => found[i] === true);
    if (added.length === 0) return listed;
    const ids = new Set([...listed, ...added]);
    // Later readers within the cache window see the bot there too.
    if (this.#bot?.ids === listed) this.#bot = { ids, at: this.#bot.at };
    return ids;
  }

  /** The user's guilds for a session. Throws DiscordError (unavailable/failed) or DiscordGrantEndedError. */
  async userGuilds(sessions: SessionStore, sessionId: string): Promise<DiscordPartialGuild[]> {
    let tokens = await sessions.tokens(sessionId);
    if (!tokens) throw new DiscordGrantEndedError();
    let refreshed = false;
    const refresh = async () => {
      try {
        const next = await this.discord.refresh(tokens!.refreshToken);
        await sessions.saveTokens(sessionId, next);
        refreshed = true;
        return next.accessToken;
      } catch (error) {
        if (error instanceof DiscordError && (error.kind === 'invalid_grant' || error.kind === 'unauthorized')) throw new DiscordGrantEndedError();
        throw error;
      }
    };
    let accessToken = tokens.accessToken;
    if (tokens.expiresAt - EXPIRY_MARGIN_MS <= this.clock()) accessToken = await refresh();
    try {
      return await this.discord.getUserGuilds(accessToken);
    } catch (error) {
      if (!(error instanceof DiscordError) || error.kind !== 'unauthorized') throw error;
      if (refreshed) throw new DiscordGrantEndedError();
      tokens = { ...tokens, accessToken };
      accessToken = await refresh();
      try {
        return await this.discord.getUserGuilds(accessToken);
      } catch (again) {
        if (again instanceof DiscordError && again.kind === 'unauthorized') throw new DiscordGrantEndedError();
        throw again;
      }
    }
  }
}

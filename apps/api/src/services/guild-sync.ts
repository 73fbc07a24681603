import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock';
import { type DiscordClient, DiscordError, type DiscordPartialGuild } from '../lib/discord';
import type { SessionStore } from './sessions';

/** Guilds a refresh checks one by one for the bot (the ones a user could just have invited it to). */
export const MAX_DIRECT_CHECKS = 25;

/** Refresh the access token when it expires within this margin. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * Longest a sign-in waits for the bot's guild list (a first fetch of a big list can take a while):
 * past it the sign-in stores `null` (keep the stored bot flags) and the fetch goes on, filling the cache.
 */
export const SIGN_IN_BOT_WAIT_MS = 3_000;

/** Seconds to stop asking Discord for a user's guilds after an unexpected answer (no Retry-After of Discord's). */
export const FAILED_RETRY_AFTER = 30;

export class DiscordGrantEndedError extends Error {
  constructor(
    /** The session whose Discord tokens no longer work, when known. */
    readonly sessionId: string | null = null,
  ) {
    super('The Discord authorization has ended (revoked or expired).');
    this.name = 'DiscordGrantEndedError';
  }
}

const NOT_READY = Symbol('not ready');

/**
 * Fetches guild lists from Discord for a session: refreshes an expired access token first, and on a
 * 401 refreshes once and tries once more (never a loop). The bot's guild list is cached briefly.
 * Per user (in this process): one guild fetch at a time for access checks (`shared`), and none while
 * Discord's Retry-After for that user runs (`userGuildsPaced`).
 */
export class GuildSync {
  #bot: { ids: Set<string>; at: number } | null = null;
  #botPending: Promise<Set<string> | null> | null = null;
  readonly #closing = new AbortController();
  readonly #flights = new Map<string, Promise<unknown>>();
  /** User id → epoch ms before which Discord is not asked for their guilds again. */
  readonly #waitUntil = new Map<string, number>();

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
        .getBotGuildIds(this.#closing.signal)
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
   * botGuilds, but waiting at most `waitMs` (the sign-in path): null (keep the stored bot flags) when
   * the list is not ready by then. The fetch goes on in the background and fills the cache for the
   * next sign-ins; close() stops it.
   */
  async botGuildsWithin(log: FastifyBaseLogger, waitMs: number): Promise<Set<string> | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof NOT_READY>((resolve) => {
      timer = setTimeout(() => resolve(NOT_READY), waitMs);
    });
    try {
      const ids = await Promise.race([this.botGuilds(log), late]);
      if (ids !== NOT_READY) return ids;
      log.info({ waitMs }, 'bot guild list not ready in time; keeping stored values, the fetch goes on in the background');
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops a bot guild list being read (the app is closing) and waits for it to settle. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#botPending;
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

  /**
   * Runs `task` for the user, unless one is running already for them: then the caller shares its
   * outcome (single flight, per process), so concurrent requests cause one Discord call.
   */
  shared<T>(userId: string, task: () => Promise<T>): Promise<T> {
    const running = this.#flights.get(userId);
    if (running) return running as Promise<T>;
    const flight = task().finally(() => {
      if (this.#flights.get(userId) === flight) this.#flights.delete(userId);
    });
    this.#flights.set(userId, flight);
    return flight;
  }

  /** Seconds before Discord may be asked for this user's guilds again (its Retry-After), 0 when it may be now. */
  userRetryAfter(userId: string): number {
    const until = this.#waitUntil.get(userId);
    if (until === undefined) return 0;
    const left = until - this.clock();
    if (left <= 0) {
      this.#waitUntil.delete(userId);
      return 0;
    }
    return Math.ceil(left / 1000);
  }

  /**
   * userGuilds, within Discord's limits for the user: while a Retry-After Discord gave (429, 5xx,
   * timeout) runs, throws DiscordError 'unavailable' with the seconds left and asks nothing; such an
   * answer (or an unexpected one: FAILED_RETRY_AFTER) starts that wait.
   */
  async userGuildsPaced(sessions: SessionStore, userId: string, sessionId: string): Promise<DiscordPartialGuild[]> {
    const wait = this.userRetryAfter(userId);
    if (wait > 0) throw new DiscordError('unavailable', `Discord users/@me/guilds: waiting out its Retry-After (${wait} s left)`, null, wait);
    try {
      return await this.userGuilds(sessions, sessionId);
    } catch (error) {
      if (error instanceof DiscordError && (error.kind === 'unavailable' || error.kind === 'failed')) {
        const seconds = error.kind === 'unavailable' ? (error.retryAfter ?? FAILED_RETRY_AFTER) : FAILED_RETRY_AFTER;
        this.#waitUntil.set(userId, this.clock() + seconds * 1000);
        if (this.#waitUntil.size > 10_000) this.#prune();
      }
      throw error;
    }
  }

  #prune(): void {
    const now = this.clock();
    for (const [id, until] of this.#waitUntil) if (until <= now) this.#waitUntil.delete(id);
  }

  /** The user's guilds for a session. Throws DiscordError (unavailable/failed) or DiscordGrantEndedError. */
  async userGuilds(sessions: SessionStore, sessionId: string): Promise<DiscordPartialGuild[]> {
    let tokens = await sessions.tokens(sessionId);
    if (!tokens) throw new DiscordGrantEndedError(sessionId);
    let refreshed = false;
    const refresh = async () => {
      try {
        const next = await this.discord.refresh(tokens!.refreshToken);
        await sessions.saveTokens(sessionId, next);
        refreshed = true;
        return next.accessToken;
      } catch (error) {
        if (error instanceof DiscordError && (error.kind === 'invalid_grant' || error.kind === 'unauthorized')) {
          throw new DiscordGrantEndedError(sessionId);
        }
        throw error;
      }
    };
    let accessToken = tokens.accessToken;
    if (tokens.expiresAt - EXPIRY_MARGIN_MS <= this.clock()) accessToken = await refresh();
    try {
      return await this.discord.getUserGuilds(accessToken);
    } catch (error) {
      if (!(error instanceof DiscordError) || error.kind !== 'unauthorized') throw error;
      if (refreshed) throw new DiscordGrantEndedError(sessionId);
      tokens = { ...tokens, accessToken };
      accessToken = await refresh();
      try {
        return await this.discord.getUserGuilds(accessToken);
      } catch (again) {
        if (again instanceof DiscordError && again.kind === 'unauthorized') throw new DiscordGrantEndedError(sessionId);
        throw again;
      }
    }
  }
}

import { DiscordAPIError, HTTPError, RateLimitError, REST, type RequestData, type ResponseLike, type RouteLike } from '@discordjs/rest';
import {
  type APIChannel,
  type APIEmoji,
  type APIEntitlement,
  type APIGuild,
  type APIGuildChannel,
  type APIGuildMember,
  type APIMessage,
  type APIRole,
  type APIUser,
  Routes,
} from 'discord-api-types/v10';
import type { FetchLike } from './discord';

/**
 * The bot's REST calls to Discord (or the sandbox, by base URL): the server's channels, roles and
 * emojis, its member, and the panel messages it posts and edits. Built on @discordjs/rest (buckets,
 * the global limit, Retry-After), with one deadline per call, a bounded rate-limit wait, one retry
 * for idempotent calls and every failure a DiscordBotError: docs/api.md#the-bots-rest-client.
 */
type DiscordBotErrorKind = 'unavailable' | 'refused' | 'failed';

export class DiscordBotError extends Error {
  constructor(
    readonly kind: DiscordBotErrorKind,
    message: string,
    /** Discord's HTTP status, when it answered. */
    readonly status: number | null = null,
    /** Discord's JSON error code (`refused`): 50013 Missing Permissions, 10008 Unknown Message... */
    readonly code: number | null = null,
    /** Seconds to wait (`unavailable`). */
    readonly retryAfter: number | null = null,
    /** Discord's own message (`refused`), with its form errors ("embeds[0].title[BASE_TYPE_MAX_LENGTH]: …"). */
    readonly discordMessage: string | null = null,
  ) {
    super(message);
    this.name = 'DiscordBotError';
  }
}

interface DiscordBotOptions {
  /** Discord's versioned API base (`https://discord.com/api/v10`, or the sandbox's). */
  apiBase: string;
  /** Without one, every call fails as `failed` (no bot configured). */
  botToken: string | null;
  /** The whole call's time limit, waits and a retry included; also each attempt's. */
  timeoutMs: number;
  fetch?: FetchLike;
  /** The longest rate-limit wait a call sits out before failing with Retry-After (default 3 s). */
  maxRateLimitWaitMs?: number;
  /** Warnings (rate limits met, retries). */
  log?: { warn(obj: object, msg: string): void };
}

const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 3_000;
/** The margin @discordjs/rest adds to every rate-limit wait (its `offset`), taken off again when reporting Retry-After. */
const RATE_LIMIT_OFFSET_MS = 50;
/** Retry-After for failures that carry none (5xx, timeouts). */
const DEFAULT_RETRY_AFTER = 5;

/** A panel message's body, as Discord's create / edit message takes it. */
type MessageBody = Record<string, unknown>;

/** A channel of `GET /guilds/{id}/channels`, as far as the API reads it (the type is a number: new kinds appear). */
export type GuildChannel = Omit<APIGuildChannel, 'type'> & { type: number; parent_id?: string | null; position?: number };

function abortError(): Error {
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

export class DiscordBot {
  readonly #o: DiscordBotOptions;
  readonly #rest: REST | null;
  readonly #fetch: FetchLike;
  #me: Promise<APIUser> | null = null;

  constructor(options: DiscordBotOptions) {
    this.#o = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    this.#rest = options.botToken
      ? new REST({
          // The base already carries the version (`…/api/v10`): every call passes `versioned: false`.
          api: options.apiBase,
          timeout: options.timeoutMs,
          // Retries of 5xx and timeouts are decided here per method (see #call); 429s are the library's.
          retries: 0,
          offset: RATE_LIMIT_OFFSET_MS,
          rejectOnRateLimit: (limit) => limit.retryAfter > maxWait,
          makeRequest: (url, init) => this.#send(url, init as RequestInit),
          userAgentAppendix: 'Tickety-Dashboard',
        }).setToken(options.botToken)
      : null;
    this.#rest?.on('rateLimited', (limit) => {
      options.log?.warn({ route: limit.route, retryAfterMs: limit.retryAfter, global: limit.global, scope: limit.scope }, 'discord bot: rate limited');
    });
  }

  /** Whether a bot token is configured. */
  get configured(): boolean {
    return this.#rest !== null;
  }

  /** Stops the library's sweep timers (the app's onClose). */
  close(): void {
    this.#rest?.clearHashSweeper();
    this.#rest?.clearHandlerSweeper();
  }

  /** The injected fetch, aborted by the library's per-attempt signal even when the fetch ignores it. */
  async #send(url: string, init: RequestInit): Promise<ResponseLike> {
    const signal = init.signal ?? null;
    if (signal?.aborted) throw abortError();
    const answer = this.#fetch(url, { ...init, redirect: 'error' });
    if (!signal) return (await answer) as unknown as ResponseLike;
    return new Promise<ResponseLike>((resolve, reject) => {
      const onAbort = () => reject(abortError());
      signal.addEventListener('abort', onAbort, { once: true });
      answer.then(
        (res) => {
          signal.removeEventListener('abort', onAbort);
          resolve(res as unknown as ResponseLike);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  async #call<T>(method: 'GET' | 'POST' | 'PATCH', route: RouteLike, body?: MessageBody, query?: URLSearchParams): Promise<T> {
    const rest = this.#rest;
    if (!rest) throw new DiscordBotError('failed', 'No bot token is configured (DISCORD_BOT_TOKEN).');
    const deadline = AbortSignal.timeout(this.#o.timeoutMs);
    const what = `${method} ${route.replace(/\d{15,}/g, ':id')}`;
    const idempotent = method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      const request: RequestData = { versioned: false, signal: deadline, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) };
      const call = method === 'GET' ? rest.get(route, request) : method === 'POST' ? rest.post(route, request) : rest.patch(route, request);
      // The library may still be sitting out a rate-limit wait when the deadline passes: stop waiting for it.
      call.catch(() => undefined);
      let stop: (() => void) | null = null;
      const timedOut = new Promise<never>((_, reject) => {
        stop = () => reject(abortError());
        deadline.addEventListener('abort', stop, { once: true });
      });
      timedOut.catch(() => undefined);
      try {
        return (await Promise.race([call, timedOut])) as T;
      } catch (error) {
        const failure = this.#failure(error, what, deadline.aborted);
        const retry = idempotent && attempt === 0 && failure.kind === 'unavailable' && failure.status !== 429 && !deadline.aborted;
        if (!retry) {
          if (error instanceof DiscordAPIError && error.status === 401) rest.setToken(this.#o.botToken!); // the library forgets a refused token
          const { kind, status, code, retryAfter } = failure;
          this.#o.log?.warn({ call: what, kind, status, code, retryAfter, err: failure.message }, 'discord bot: call failed');
          throw failure;
        }
        this.#o.log?.warn({ call: what, err: failure.message }, 'discord bot: retrying once');
      } finally {
        if (stop) deadline.removeEventListener('abort', stop);
      }
    }
  }

  #failure(error: unknown, what: string, deadlinePassed: boolean): DiscordBotError {
    if (error instanceof RateLimitError) {
      const seconds = Math.min(Math.max(Math.ceil((error.retryAfter - RATE_LIMIT_OFFSET_MS) / 1000), 1), 3600);
      return new DiscordBotError('unavailable', `Discord ${what}: rate limited for ${seconds} s`, 429, null, seconds);
    }
    if (error instanceof HTTPError) {
      return new DiscordBotError('unavailable', `Discord ${what}: HTTP ${error.status}`, error.status, null, DEFAULT_RETRY_AFTER);
    }
    if (error instanceof DiscordAPIError) {
      const code = typeof error.code === 'number' ? error.code : null;
      if (error.status === 401) return new DiscordBotError('failed', `Discord ${what}: the bot token was refused (HTTP 401)`, 401, code);
      if (error.status === 429) return new DiscordBotError('unavailable', `Discord ${what}: HTTP 429`, 429, code, DEFAULT_RETRY_AFTER);
      return new DiscordBotError('refused', `Discord ${what}: HTTP ${error.status} ${code ?? ''} ${error.message}`.trim(), error.status, code, null, error.message);
    }
    if (isAbort(error) || deadlinePassed) {
      return new DiscordBotError('unavailable', `Discord ${what}: timed out`, null, null, DEFAULT_RETRY_AFTER);
    }
    if (error instanceof Error && error.message.startsWith('Expected token')) {
      return new DiscordBotError('failed', `Discord ${what}: no bot token`);
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new DiscordBotError('unavailable', `Discord ${what}: unreachable (${reason})`, null, null, DEFAULT_RETRY_AFTER);
  }

  /** The bot's own user (asked once; asked again after a failure). */
  me(): Promise<APIUser> {
    if (!this.#me) {
      // The literal path: Routes.user('@me') escapes the '@', which not every server (the sandbox) decodes.
      const asked = this.#call<APIUser>('GET', '/users/@me');
      this.#me = asked;
      asked.catch(() => {
        if (this.#me === asked) this.#me = null;
      });
    }
    return this.#me;
  }

  /** A Discord user's public profile (name, avatar) by id; Discord answers 404 (10013) for an unknown one. */
  user(userId: string): Promise<APIUser> {
    return this.#call<APIUser>('GET', Routes.user(userId));
  }

  /** The guild with its roles and emojis (and its owner). */
  guild(guildId: string): Promise<APIGuild> {
    return this.#call<APIGuild>('GET', Routes.guild(guildId));
  }

  guildChannels(guildId: string): Promise<GuildChannel[]> {
    return this.#call<GuildChannel[]>('GET', Routes.guildChannels(guildId));
  }

  guildRoles(guildId: string): Promise<APIRole[]> {
    return this.#call<APIRole[]>('GET', Routes.guildRoles(guildId));
  }

  guildEmojis(guildId: string): Promise<APIEmoji[]> {
    return this.#call<APIEmoji[]>('GET', Routes.guildEmojis(guildId));
  }

  /** A page of the application's entitlements (app subscriptions): Discord's query parameters as given. */
  entitlements(applicationId: string, query: URLSearchParams): Promise<APIEntitlement[]> {
    return this.#call<APIEntitlement[]>('GET', Routes.entitlements(applicationId), undefined, query);
  }

  /** A channel (a server's, with `guild_id`, or a DM, with its recipients). */
  channel(channelId: string): Promise<APIChannel> {
    return this.#call<APIChannel>('GET', Routes.channel(channelId));
  }

  guildMember(guildId: string, userId: string): Promise<APIGuildMember> {
    return this.#call<APIGuildMember>('GET', Routes.guildMember(guildId, userId));
  }

  /** Fresh signed links for expired attachment links (Discord's `POST /attachments/refresh-urls`). */
  async refreshAttachmentUrls(urls: string[]): Promise<Array<{ original: string; refreshed: string }>> {
    const answer = await this.#call<{ refreshed_urls?: Array<{ original: string; refreshed: string }> }>('POST', '/attachments/refresh-urls', {
      attachment_urls: urls,
    } as unknown as MessageBody);
    return answer.refreshed_urls ?? [];
  }

  /** One message of a channel (the health check asks whether a posted panel is still there). */
  message(channelId: string, messageId: string): Promise<APIMessage> {
    return this.#call<APIMessage>('GET', Routes.channelMessage(channelId, messageId));
  }

  createMessage(channelId: string, body: MessageBody): Promise<APIMessage> {
    return this.#call<APIMessage>('POST', Routes.channelMessages(channelId), body);
  }

  editMessage(channelId: string, messageId: string, body: MessageBody): Promise<APIMessage> {
    return this.#call<APIMessage>('PATCH', Routes.channelMessage(channelId, messageId), body);
  }
}

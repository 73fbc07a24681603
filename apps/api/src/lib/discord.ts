import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The few Discord calls the API makes (OAuth2 token/revoke, users/@me, users/@me/guilds), with plain
 * fetch against configurable bases (real Discord, or the sandbox). No retries here: a 429/5xx/timeout
 * becomes `unavailable` with Discord's retry-after, a 401/403 becomes `unauthorized`; callers decide
 * (and never retry 401/403 in a loop). The one exception is the bot's guild list (many pages under one
 * deadline), which waits out Discord's rate limits between pages; see getBotGuildIds.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

interface DiscordClientOptions {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  botToken: string | null;
  redirectUri: string;
  /** Per request. */
  timeoutMs: number;
  /** Overall limit for reading the bot's whole guild list, all pages (default 20 s). */
  botGuildsDeadlineMs?: number;
  fetch?: FetchLike;
  userAgent?: string;
}

const DEFAULT_BOT_GUILDS_DEADLINE_MS = 20_000;
/** Guilds per page of GET /users/@me/guilds (Discord's maximum). */
const PAGE_SIZE = 200;
/** Rate-limit waits (429 or an empty bucket) one bot guild list may do before giving up. */
const MAX_RATE_LIMIT_WAITS = 20;

export interface DiscordTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
}

export interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  discriminator?: string;
}

export interface DiscordPartialGuild {
  id: string;
  name: string;
  icon: string | null;
  owner: boolean;
  permissions: string;
}

type DiscordErrorKind = 'unavailable' | 'unauthorized' | 'invalid_grant' | 'failed';

export class DiscordError extends Error {
  constructor(
    readonly kind: DiscordErrorKind,
    message: string,
    readonly status: number | null = null,
    /** Seconds Discord asked us to wait (429), or a default for 5xx/timeouts. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'DiscordError';
  }
}

const DEFAULT_RETRY_AFTER = 5;

function retryAfterSeconds(res: Response, body: unknown): number {
  const fromBody =
    body && typeof body === 'object' && 'retry_after' in body ? Number((body as { retry_after: unknown }).retry_after) : Number.NaN;
  // A missing header is null, and Number(null) is 0: only a present header counts.
  const header = res.headers.get('retry-after');
  const fromHeader = header === null || header.trim() === '' ? Number.NaN : Number(header);
  const value = Number.isFinite(fromBody) ? fromBody : Number.isFinite(fromHeader) ? fromHeader : DEFAULT_RETRY_AFTER;
  return Math.min(Math.max(Math.ceil(value), 1), 3600);
}

export class DiscordClient {
  readonly #o: DiscordClientOptions;
  readonly #fetch: FetchLike;

  constructor(options: DiscordClientOptions) {
    this.#o = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async #request(path: string, init: RequestInit, what: string, stop?: AbortSignal): Promise<{ res: Response; body: unknown }> {
    let res: Response;
    try {
      const timeout = AbortSignal.timeout(this.#o.timeoutMs);
      res = await this.#fetch(`${this.#o.apiBase}${path}`, {
        ...init,
        headers: { 'user-agent': this.#o.userAgent ?? 'DiscordBot (https://tickety.gg, 1.0) Tickety-Dashboard', ...init.headers },
        signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new DiscordError('unavailable', `Discord ${what}: ${timedOut ? 'timed out' : 'unreachable'}`, null, DEFAULT_RETRY_AFTER);
    }
    let body: unknown = null;
    const text = await res.text().catch(() => '');
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (res.ok) return { res, body };
    if (res.status === 429 || res.status >= 500) {
      throw new DiscordError('unavailable', `Discord ${what}: HTTP ${res.status}`, res.status, retryAfterSeconds(res, body));
    }
    const oauthError = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : '';
    if (oauthError === 'invalid_grant') throw new DiscordError('invalid_grant', `Discord ${what}: invalid_grant`, res.status);
    if (res.status === 401 || res.status === 403) {
      throw new DiscordError('unauthorized', `Discord ${what}: HTTP ${res.status}`, res.status);
    }
    throw new DiscordError('failed', `Discord ${what}: HTTP ${res.status}${oauthError ? ` ${oauthError}` : ''}`, res.status);
  }

  #basicAuth(): string {
    return `Basic ${Buffer.from(`${this.#o.clientId}:${this.#o.clientSecret}`).toString('base64')}`;
  }

  async #token(form: Record<string, string>, what: string): Promise<DiscordTokens> {
    const { body } = await this.#request(
      '/oauth2/token',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: this.#basicAuth() },
        body: new URLSearchParams(form).toString(),
      },
      what,
    );
    const answer = body as Record<string, unknown> | null;
    if (!answer || typeof answer.access_token !== 'string' || typeof answer.refresh_token !== 'string') {
      throw new DiscordError('failed', `Discord ${what}: unexpected answer`);
    }
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresIn: typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 604_800,
      scope: typeof answer.scope === 'string' ? answer.scope : '',
    };
  }

  exchangeCode(code: string, codeVerifier: string): Promise<DiscordTokens> {
    return this.#token(
      { grant_type: 'authorization_code', code, redirect_uri: this.#o.redirectUri, code_verifier: codeVerifier },
      'token exchange',
    );
  }

  refresh(refreshToken: string): Promise<DiscordTokens> {
    return this.#token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'token refresh');
  }

  async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
    await this.#request(
      '/oauth2/token/revoke',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: this.#basicAuth() },
        body: new URLSearchParams({ token, token_type_hint: hint }).toString(),
      },
      'token revoke',
    );
  }

  async getUser(accessToken: string): Promise<DiscordUser> {
    const { body } = await this.#request('/users/@me', { headers: { authorization: `Bearer ${accessToken}` } }, 'users/@me');
    const answer = body as Record<string, unknown> | null;
    if (!answer || typeof answer.id !== 'string' || typeof answer.username !== 'string') throw new DiscordError('failed', 'Discord users/@me: unexpected answer');
    return {
      id: answer.id,
      username: answer.username,
      global_name: typeof answer.global_name === 'string' ? answer.global_name : null,
      avatar: typeof answer.avatar === 'string' ? answer.avatar : null,
      ...(typeof answer.discriminator === 'string' ? { discriminator: answer.discriminator } : {}),
    };
  }

  /** The user's guilds (one page of 200 is Discord's maximum per user; pages further if full). */
  getUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    return this.#guilds(`Bearer ${accessToken}`, 'users/@me/guilds', 5);
  }

  /**
   * The ids of every guild the bot is in, or null when no bot token is configured. Reads all pages of
   * 200 (no page cap: a bot in 10,000+ guilds has 51+ pages) under one overall deadline
   * (`botGuildsDeadlineMs`), and waits out Discord's rate limits on the way (an empty bucket, or a 429's
   * Retry-After) when the wait fits before the deadline.
   *
   * All or nothing: a list that cannot be read completely (a page failing, the deadline passing,
   * `signal` aborting) throws DiscordError, never returns part of the list, in which every guild not
   * yet read would look like "bot not added". Callers then keep the stored values.
   */
  async getBotGuildIds(signal?: AbortSignal): Promise<Set<string> | null> {
    if (!this.#o.botToken) return null;
    const authorization = `Bot ${this.#o.botToken}`;
    const deadlineMs = this.#o.botGuildsDeadlineMs ?? DEFAULT_BOT_GUILDS_DEADLINE_MS;
    const ends = Date.now() + deadlineMs;
    const deadline = AbortSignal.timeout(deadlineMs);
    const stop = signal ? AbortSignal.any([deadline, signal]) : deadline;
    const ids = new Set<string>();
    let after: string | null = null;
    let pages = 0;
    let waits = 0;
    const incomplete = (why: string, retryAfter = DEFAULT_RETRY_AFTER) =>
      new DiscordError('unavailable', `Discord bot guilds: ${why} (${pages} page(s) read); the list is incomplete`, null, retryAfter);
    const interrupted = () =>
      deadline.aborted ? incomplete(`not read within the deadline of ${deadlineMs} ms`) : incomplete('cancelled');
    /** Waits `ms` for a rate limit, if that fits before the deadline. */
    const waitFor = async (ms: number) => {
      if (++waits > MAX_RATE_LIMIT_WAITS) throw incomplete(`still rate limited after ${MAX_RATE_LIMIT_WAITS} waits`);
      if (Date.now() + ms >= ends) throw incomplete(`rate limited for ${Math.ceil(ms / 1000)} s, past the deadline`, Math.max(1, Math.ceil(ms / 1000)));
      try {
        await sleep(ms, undefined, { signal: stop });
      } catch {
        throw interrupted();
      }
    };

    for (;;) {
      if (stop.aborted) throw interrupted();
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (after) query.set('after', after);
      let answer: { res: Response; body: unknown };
      try {
        answer = await this.#request(`/users/@me/guilds?${query}`, { headers: { authorization } }, 'bot guilds', stop);
      } catch (error) {
        if (stop.aborted) throw interrupted();
        if (error instanceof DiscordError && error.status === 429) {
          await waitFor((error.retryAfter ?? DEFAULT_RETRY_AFTER) * 1000);
          continue; // the same page again
        }
        throw error;
      }
      const { res, body } = answer;
      if (!Array.isArray(body)) throw new DiscordError('failed', 'Discord bot guilds: unexpected answer');
      pages++;
      let last: string | null = null;
      for (const g of body as Array<Record<string, unknown> | null>) {
        if (g && typeof g.id === 'string' && /^\d{1,20}$/.test(g.id)) {
          ids.add(g.id);
          last = g.id;
        }
      }
      if (body.length < PAGE_SIZE) return ids;
      if (last === null || (after !== null && BigInt(last) <= BigInt(after))) {
        throw new DiscordError('failed', 'Discord bot guilds: the pages do not move forward');
      }
      after = last;
      // The bucket is empty: wait until Discord refills it rather than run into a 429.
      if (res.headers.get('x-ratelimit-remaining') === '0') {
        const resetAfter = Number(res.headers.get('x-ratelimit-reset-after'));
        if (Number.isFinite(resetAfter) && resetAfter > 0) await waitFor(resetAfter * 1000);
      }
    }
  }

  /**
   * Whether the bot is in one guild (`GET /guilds/{id}` as the bot): true on 200, false on 403/404
   * (Discord's answer for a guild the bot is not in). Other failures throw DiscordError; null without
   * a bot token.
   */
  async botInGuild(guildId: string): Promise<boolean | null> {
    if (!this.#o.botToken) return null;
    try {
      await this.#request(`/guilds/${encodeURIComponent(guildId)}`, { headers: { authorization: `Bot ${this.#o.botToken}` } }, 'bot guild');
      return true;
    } catch (error) {
      if (error instanceof DiscordError && (error.status === 403 || error.status === 404)) return false;
      throw error;
    }
  }

  async #guilds(authorization: string, what: string, maxPages: number): Promise<DiscordPartialGuild[]> {
    const all: DiscordPartialGuild[] = [];
    let after: string | null = null;
    for (let page = 0; page < maxPages; page++) {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (after) query.set('after', after);
      const { body } = await this.#request(`/users/@me/guilds?${query}`, { headers: { authorization } }, what);
      if (!Array.isArray(body)) throw new DiscordError('failed', `Discord ${what}: unexpected answer`);
      for (const g of body as Record<string, unknown>[]) {
        if (typeof g.id !== 'string' || typeof g.name !== 'string') continue;
        all.push({
          id: g.id,
          name: g.name,
          icon: typeof g.icon === 'string' ? g.icon : null,
          owner: g.owner === true,
          permissions: typeof g.permissions === 'string' ? g.permissions : '0',
        });
      }
      if (body.length < PAGE_SIZE) break;
      after = all[all.length - 1]?.id ?? null;
    }
    return all;
  }
}

/** CDN URL of a guild icon, or null. */
export function guildIconUrl(cdnBase: string, guildId: string, icon: string | null): string | null {
  return icon ? `${cdnBase}/icons/${guildId}/${icon}.png` : null;
}

/** CDN URL of a user's avatar, or Discord's default avatar for users without one. */
export function avatarUrl(cdnBase: string, userId: string, avatar: string | null): string {
  if (avatar) return `${cdnBase}/avatars/${userId}/${avatar}.png`;
  let index = 0n;
  try {
    index = (BigInt(userId) >> 22n) % 6n;
  } catch {
    index = 0n;
  }
  return `${cdnBase}/embed/avatars/${index}.png`;
}

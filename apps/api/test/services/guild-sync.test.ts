import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DiscordClient, DiscordError, type DiscordPartialGuild, type DiscordTokens } from '../../src/lib/discord';
import { DiscordGrantEndedError, GuildSync, MAX_DIRECT_CHECKS } from '../../src/services/guild-sync';
import type { SessionStore, StoredDiscordTokens } from '../../src/services/sessions';
import { testClock } from '../helpers/clock';
import { LogCapture } from '../helpers/logs';

const GUILDS: DiscordPartialGuild[] = [{ id: '1', name: 'g', icon: null, owner: true, permissions: '0' }];

/** A Discord client whose answers the test scripts, recording what was called. */
class FakeDiscord extends DiscordClient {
  calls: string[] = [];
  guildAnswers: Array<DiscordPartialGuild[] | DiscordError> = [];
  refreshAnswers: Array<DiscordTokens | DiscordError> = [];
  botAnswers: Array<Set<string> | DiscordError> = [];

  constructor() {
    super({ apiBase: 'x', clientId: 'x', clientSecret: 'x', botToken: 'x', redirectUri: 'x', timeoutMs: 1 });
  }

  override async getUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    this.calls.push(`guilds:${accessToken}`);
    const next = this.guildAnswers.shift() ?? GUILDS;
    if (next instanceof DiscordError) throw next;
    return next;
  }

  override async refresh(refreshToken: string): Promise<DiscordTokens> {
    this.calls.push(`refresh:${refreshToken}`);
    const next = this.refreshAnswers.shift();
    if (!next) throw new Error('unexpected refresh');
    if (next instanceof DiscordError) throw next;
    return next;
  }

  botIn = new Set<string>();
  guildCheckError: DiscordError | null = null;

  override async botInGuild(guildId: string): Promise<boolean | null> {
    this.calls.push(`guild:${guildId}`);
    if (this.guildCheckError) throw this.guildCheckError;
    return this.botIn.has(guildId);
  }

  override async getBotGuildIds(): Promise<Set<string> | null> {
    this.calls.push('bot');
    const next = this.botAnswers.shift() ?? new Set(['1']);
    if (next instanceof DiscordError) throw next;
    return next;
  }
}

function sessions(initial: StoredDiscordTokens | null) {
  let current = initial;
  const saved: DiscordTokens[] = [];
  const store = {
    tokens: async () => current,
    saveTokens: async (_id: string, t: DiscordTokens) => {
      saved.push(t);
      current = { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: Date.now() + t.expiresIn * 1000, scope: t.scope };
    },
  } as unknown as SessionStore;
  return { store, saved };
}

/** A logger like the app's (pino through Fastify), silent or writing to `stream`. */
function logger(stream?: LogCapture): FastifyBaseLogger {
  return Fastify({ logger: stream ? { level: 'warn', stream } : false }).log;
}

const pair = (n: number): DiscordTokens => ({ accessToken: `a${n}`, refreshToken: `r${n}`, expiresIn: 604800, scope: 'identify guilds' });
const unauthorized = () => new DiscordError('unauthorized', 'HTTP 401', 401);

describe('GuildSync.userGuilds', () => {
  const clock = testClock();
  const live = (): StoredDiscordTokens => ({ accessToken: 'a0', refreshToken: 'r0', expiresAt: clock.now + 3_600_000, scope: 'identify guilds' });

  it('uses a live access token as it is', async () => {
    const discord = new FakeDiscord();
    expect(await new GuildSync(discord, clock).userGuilds(sessions(live()).store, 's')).toEqual(GUILDS);
    expect(discord.calls).toEqual(['guilds:a0']);
  });

  it('refreshes a token expiring within a minute first, and saves the new pair', async () => {
    const discord = new FakeDiscord();
    discord.refreshAnswers.push(pair(1));
    const tokenStore = sessions({ ...live(), expiresAt: clock.now + 30_000 });
    await new GuildSync(discord, clock).userGuilds(tokenStore.store, 's');
    expect(discord.calls).toEqual(['refresh:r0', 'guilds:a1']);
    expect(tokenStore.saved).toEqual([pair(1)]);
  });

  it('on a 401, refreshes once and retries once; a second 401 ends the grant (no loop)', async () => {
    const discord = new FakeDiscord();
    discord.guildAnswers.push(unauthorized());
    discord.refreshAnswers.push(pair(1));
    expect(await new GuildSync(discord, clock).userGuilds(sessions(live()).store, 's')).toEqual(GUILDS);
    expect(discord.calls).toEqual(['guilds:a0', 'refresh:r0', 'guilds:a1']);

    const again = new FakeDiscord();
    again.guildAnswers.push(unauthorized(), unauthorized());
    again.refreshAnswers.push(pair(2));
    await expect(new GuildSync(again, clock).userGuilds(sessions(live()).store, 's')).rejects.toBeInstanceOf(DiscordGrantEndedError);
    expect(again.calls).toEqual(['guilds:a0', 'refresh:r0', 'guilds:a2']);
  });

  it('does not refresh twice when the token was just refreshed and still gets a 401', async () => {
    const discord = new FakeDiscord();
    discord.refreshAnswers.push(pair(1));
    discord.guildAnswers.push(unauthorized());
    await expect(new GuildSync(discord, clock).userGuilds(sessions({ ...live(), expiresAt: clock.now }).store, 's')).rejects.toBeInstanceOf(
      DiscordGrantEndedError,
    );
    expect(discord.calls).toEqual(['refresh:r0', 'guilds:a1']);
  });

  it('ends the grant on invalid_grant or a rejected refresh, and without tokens', async () => {
    for (const error of [new DiscordError('invalid_grant', 'invalid_grant', 400), unauthorized()]) {
      const discord = new FakeDiscord();
      discord.refreshAnswers.push(error);
      await expect(new GuildSync(discord, clock).userGuilds(sessions({ ...live(), expiresAt: 0 }).store, 's')).rejects.toBeInstanceOf(
        DiscordGrantEndedError,
      );
    }
    await expect(new GuildSync(new FakeDiscord(), clock).userGuilds(sessions(null).store, 's')).rejects.toBeInstanceOf(DiscordGrantEndedError);
  });

  it('passes Discord outages through (503 with Retry-After upstream), without refreshing', async () => {
    const discord = new FakeDiscord();
    discord.guildAnswers.push(new DiscordError('unavailable', 'HTTP 503', 503, 7));
    const error = await new GuildSync(discord, clock).userGuilds(sessions(live()).store, 's').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', retryAfter: 7 });
    expect(discord.calls).toEqual(['guilds:a0']);
  });
});

describe('GuildSync.botGuilds', () => {
  it("caches the bot's guild list for a minute and shares one request between concurrent callers", async () => {
    const clock = testClock();
    const discord = new FakeDiscord();
    const sync = new GuildSync(discord, clock);
    const log = logger();
    const [a, b] = await Promise.all([sync.botGuilds(log), sync.botGuilds(log)]);
    expect(a).toEqual(new Set(['1']));
    expect(b).toBe(a);
    clock.advance(59_000);
    await sync.botGuilds(log);
    expect(discord.calls).toEqual(['bot']);
    clock.advance(1_000);
    await sync.botGuilds(log);
    expect(discord.calls).toEqual(['bot', 'bot']);
  });

  it('botGuildsFor checks the listed-as-missing candidates directly and adds those the bot is in', async () => {
    const discord = new FakeDiscord();
    discord.botIn.add('7');
    const logs = new LogCapture();
    const sync = new GuildSync(discord, testClock());
    const ids = await sync.botGuildsFor(logger(logs), ['1', '7', '8']);
    expect(ids).toEqual(new Set(['1', '7']));
    // '1' was listed: only the two others were checked one by one.
    expect(discord.calls).toEqual(['bot', 'guild:7', 'guild:8']);
    // The cached list now has '7' too, for other readers within the minute.
    expect(await sync.botGuilds(logger())).toEqual(new Set(['1', '7']));
  });

  it('botGuildsFor keeps the listed value when a direct check fails, and checks at most 25', async () => {
    const discord = new FakeDiscord();
    discord.guildCheckError = new DiscordError('unavailable', 'Discord bot guild: HTTP 503', 503, 5);
    const logs = new LogCapture();
    const sync = new GuildSync(discord, testClock());
    const candidates = Array.from({ length: 30 }, (_, i) => String(100 + i));
    expect(await sync.botGuildsFor(logger(logs), candidates)).toEqual(new Set(['1']));
    expect(discord.calls.filter((c) => c.startsWith('guild:'))).toHaveLength(MAX_DIRECT_CHECKS);
    expect(logs.messages(/bot guild check failed/)).toHaveLength(MAX_DIRECT_CHECKS);
  });

  it('answers null (keep stored flags) and logs when Discord fails', async () => {
    const discord = new FakeDiscord();
    discord.botAnswers.push(new DiscordError('unavailable', 'Discord bot guilds: HTTP 503', 503, 5));
    const logs = new LogCapture();
    const sync = new GuildSync(discord, testClock());
    expect(await sync.botGuilds(logger(logs))).toBeNull();
    expect(logs.messages(/bot guild list unavailable/)).toHaveLength(1);
    expect(await sync.botGuilds(logger())).toEqual(new Set(['1']));
  });
});

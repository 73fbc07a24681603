import { describe, expect, it } from 'vitest';
import { avatarUrl, DiscordClient, DiscordError, type FetchLike, guildIconUrl } from '../../src/lib/discord';

interface Call {
  url: string;
  init: RequestInit;
}

function client(answers: Array<Response | Error>, options: { botToken?: string | null } = {}) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  const discord = new DiscordClient({
    apiBase: 'https://discord.test/api/v10',
    clientId: '1300000000000000001',
    clientSecret: 'shh',
    botToken: options.botToken === undefined ? 'bot-token' : options.botToken,
    redirectUri: 'https://api.test/api/auth/callback',
    timeoutMs: 1000,
    fetch,
  });
  return { discord, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const tokenAnswer = { access_token: 'at', refresh_token: 'rt', expires_in: 604800, scope: 'identify guilds', token_type: 'Bearer' };

async function failure(promise: Promise<unknown>): Promise<DiscordError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordError);
    return error as DiscordError;
  }
  throw new Error('expected a DiscordError');
}

describe('DiscordClient', () => {
  it('exchanges a code with a form body, HTTP Basic client auth, the redirect URI and the PKCE verifier', async () => {
    const { discord, calls } = client([json(200, tokenAnswer)]);
    expect(await discord.exchangeCode('the-code', 'the-verifier')).toEqual({ accessToken: 'at', refreshToken: 'rt', expiresIn: 604800, scope: 'identify guilds' });
    const call = calls[0]!;
    expect(call.url).toBe('https://discord.test/api/v10/oauth2/token');
    expect(call.init.method).toBe('POST');
    const headers = new Headers(call.init.headers);
    expect(headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(headers.get('authorization')).toBe(`Basic ${Buffer.from('1300000000000000001:shh').toString('base64')}`);
    expect(headers.get('user-agent')).toMatch(/^DiscordBot \(/);
    expect(Object.fromEntries(new URLSearchParams(String(call.init.body)))).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://api.test/api/auth/callback',
      code_verifier: 'the-verifier',
    });
    expect(call.init.redirect).toBe('error');
    expect(call.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('refreshes and revokes with form bodies', async () => {
    const { discord, calls } = client([json(200, { ...tokenAnswer, expires_in: 0 }), json(200, {})]);
    expect((await discord.refresh('rt')).expiresIn).toBe(604800);
    await discord.revoke('rt', 'refresh_token');
    expect(Object.fromEntries(new URLSearchParams(String(calls[0]!.init.body)))).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt' });
    expect(calls[1]!.url).toBe('https://discord.test/api/v10/oauth2/token/revoke');
    expect(Object.fromEntries(new URLSearchParams(String(calls[1]!.init.body)))).toEqual({ token: 'rt', token_type_hint: 'refresh_token' });
  });

  it('classifies failures: 429/5xx unavailable with Retry-After, invalid_grant, 401/403 unauthorized, others failed', async () => {
    const cases: Array<[Response | Error, DiscordError['kind'], number | null]> = [
      [json(429, { message: 'rate limited', retry_after: 2.4, global: false }), 'unavailable', 3],
      [json(429, {}, { 'retry-after': '9' }), 'unavailable', 9],
      [json(429, { retry_after: 99999 }), 'unavailable', 3600],
      [json(429, { retry_after: 0.01 }), 'unavailable', 1],
      [json(503, { message: 'down' }), 'unavailable', 5],
      [new Response('<html>bad gateway</html>', { status: 502 }), 'unavailable', 5],
      [json(400, { error: 'invalid_grant' }), 'invalid_grant', null],
      [json(401, { message: '401: Unauthorized' }), 'unauthorized', null],
      [json(403, { message: 'Missing Access' }), 'unauthorized', null],
      [json(404, { message: 'Unknown' }), 'failed', null],
      [json(400, { error: 'invalid_request' }), 'failed', null],
      [Object.assign(new Error('timed out'), { name: 'TimeoutError' }), 'unavailable', 5],
      [new TypeError('fetch failed'), 'unavailable', 5],
    ];
    for (const [answer, kind, retryAfter] of cases) {
      const { discord } = client([answer]);
      const error = await failure(discord.getUser('at'));
      expect(error.kind, String(answer)).toBe(kind);
      expect(error.retryAfter, String(answer)).toBe(retryAfter);
      expect(error.message).not.toContain('at');
    }
  });

  it('refuses unexpected answers', async () => {
    expect((await failure(client([json(200, { nope: true })]).discord.exchangeCode('c', 'v'))).kind).toBe('failed');
    expect((await failure(client([new Response('not json', { status: 200 })]).discord.getUser('at'))).kind).toBe('failed');
    expect((await failure(client([json(200, { id: 1 })]).discord.getUser('at'))).kind).toBe('failed');
    expect((await failure(client([json(200, { guilds: [] })]).discord.getUserGuilds('at'))).kind).toBe('failed');
  });

  it('reads the user with a Bearer token and normalises the fields', async () => {
    const { discord, calls } = client([json(200, { id: '1', username: 'ava', global_name: null, avatar: 7, discriminator: '0' })]);
    expect(await discord.getUser('access')).toEqual({ id: '1', username: 'ava', global_name: null, avatar: null, discriminator: '0' });
    expect(new Headers(calls[0]!.init.headers).get('authorization')).toBe('Bearer access');
  });

  it('pages guild lists by 200 with `after`, skipping malformed entries', async () => {
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: String(1_000_000_000_000_000 + from + i), name: `g${from + i}`, icon: null, owner: false, permissions: '8' }));
    const { discord, calls } = client([json(200, page(0, 200)), json(200, [...page(200, 3), { id: 5 }, { name: 'no id' }])]);
    const guilds = await discord.getUserGuilds('at');
    expect(guilds).toHaveLength(203);
    expect(guilds[0]).toEqual({ id: '1000000000000000', name: 'g0', icon: null, owner: false, permissions: '8' });
    expect(calls.map((c) => new URL(c.url).search)).toEqual(['?limit=200', '?limit=200&after=1000000000000199']);
  });

  it("lists the bot's guilds with the bot token, or null without one", async () => {
    const { discord, calls } = client([json(200, [{ id: '11', name: 'a' }])]);
    expect(await discord.getBotGuildIds()).toEqual(new Set(['11']));
    expect(new Headers(calls[0]!.init.headers).get('authorization')).toBe('Bot bot-token');
    expect(await client([], { botToken: null }).discord.getBotGuildIds()).toBeNull();
  });
});

describe('DiscordClient.botInGuild', () => {
  it('asks GET /guilds/{id} as the bot: 200 yes, 404 and 403 no, 5xx an error; null without a bot token', async () => {
    const { discord, calls } = client([json(200, { id: '1' }), json(404, { message: 'Unknown Guild', code: 10004 }), json(403, { message: 'Missing Access', code: 50001 }), json(503, {})]);
    expect(await discord.botInGuild('1100000000000000001')).toBe(true);
    expect(calls[0]!.url).toBe('https://discord.test/api/v10/guilds/1100000000000000001');
    expect(new Headers(calls[0]!.init.headers).get('authorization')).toBe('Bot bot-token');
    expect(await discord.botInGuild('2')).toBe(false);
    expect(await discord.botInGuild('3')).toBe(false);
    expect((await failure(discord.botInGuild('4'))).kind).toBe('unavailable');
    expect(await client([], { botToken: null }).discord.botInGuild('1')).toBeNull();
  });
});

describe('CDN URLs', () => {
  it('builds guild icons and avatars, with Discord default avatars', () => {
    expect(guildIconUrl('https://cdn.test', '1', 'abc')).toBe('https://cdn.test/icons/1/abc.png');
    expect(guildIconUrl('https://cdn.test', '1', null)).toBeNull();
    expect(avatarUrl('https://cdn.test', '42', 'hash')).toBe('https://cdn.test/avatars/42/hash.png');
    // (id >> 22) % 6
    expect(avatarUrl('https://cdn.test', '1000000000000000002', null)).toBe(
      `https://cdn.test/embed/avatars/${(1000000000000000002n >> 22n) % 6n}.png`,
    );
    expect(avatarUrl('https://cdn.test', 'not-a-number', null)).toBe('https://cdn.test/embed/avatars/0.png');
  });
});

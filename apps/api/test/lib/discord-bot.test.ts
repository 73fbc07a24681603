import { afterEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/lib/discord';
import { DiscordBot, DiscordBotError } from '../../src/lib/discord-bot';

const API = 'http://discord.test/api/v10';
const CHANNEL = '1200000000000001003';

interface Call {
  method: string;
  url: string;
  auth: string | null;
  body: string | null;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A fetch answering from a script of responses (the last one repeats), recording every call. */
function scripted(...answers: Array<Response | (() => Response | Promise<Response>)>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const headers = new Headers(init.headers);
    calls.push({ method: init.method ?? 'GET', url, auth: headers.get('authorization'), body: typeof init.body === 'string' ? init.body : null });
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    return typeof next === 'function' ? next() : next.clone();
  };
  return { fetch, calls };
}

const bots: DiscordBot[] = [];
function bot(fetch: FetchLike, options: { timeoutMs?: number; maxRateLimitWaitMs?: number } = {}) {
  const discordBot = new DiscordBot({ apiBase: API, botToken: 'bot-token', timeoutMs: options.timeoutMs ?? 2_000, fetch, ...(options.maxRateLimitWaitMs !== undefined ? { maxRateLimitWaitMs: options.maxRateLimitWaitMs } : {}) });
  bots.push(discordBot);
  return discordBot;
}

afterEach(() => {
  for (const b of bots.splice(0)) b.close();
});

async function failure(promise: Promise<unknown>): Promise<DiscordBotError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordBotError);
    return error as DiscordBotError;
  }
  throw new Error('expected a failure');
}

describe('DiscordBot (@discordjs/rest over the injected fetch)', () => {
  it('calls the configured base (its version included once) with the bot token, through the injected fetch', async () => {
    const { fetch, calls } = scripted(json(200, { id: '1', content: '' }));
    await bot(fetch).createMessage(CHANNEL, { embeds: [{ title: 'Hi' }] });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: `${API}/channels/${CHANNEL}/messages`, auth: 'Bot bot-token' });
    expect(JSON.parse(calls[0]!.body!)).toEqual({ embeds: [{ title: 'Hi' }] });
  });

  it('waits out a short 429 (Retry-After) and tries again', async () => {
    const { fetch, calls } = scripted(json(429, { message: 'You are being rate limited.', retry_after: 0.05, global: false }, { 'retry-after': '0.05' }), json(200, { id: CHANNEL }));
    const started = Date.now();
    await expect(bot(fetch).guildChannels('1100000000000000001')).resolves.toEqual({ id: CHANNEL });
    expect(calls).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('does not sit out a long 429: unavailable at once with Discord’s Retry-After', async () => {
    const { fetch, calls } = scripted(json(429, { message: 'You are being rate limited.', retry_after: 42, global: false }, { 'retry-after': '42' }));
    const error = await failure(bot(fetch).createMessage(CHANNEL, { content: 'x' }));
    expect(error).toMatchObject({ kind: 'unavailable', status: 429, retryAfter: 42 });
    expect(calls).toHaveLength(1);
  });

  it('keeps to a bucket it has emptied: the next call on the route waits for the reset, or fails with it', async () => {
    const empty = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '30', 'x-ratelimit-bucket': 'abc' };
    const { fetch, calls } = scripted(json(200, { id: '1' }, empty));
    const discordBot = bot(fetch);
    // The first answer names the route's bucket (the library files the route under it from then on),
    // the second says that bucket is empty for 30 s.
    await discordBot.createMessage(CHANNEL, { content: 'one' });
    await discordBot.createMessage(CHANNEL, { content: 'two' });
    const error = await failure(discordBot.createMessage(CHANNEL, { content: 'three' }));
    expect(error).toMatchObject({ kind: 'unavailable', status: 429 });
    expect(error.retryAfter).toBeGreaterThanOrEqual(29);
    expect(calls).toHaveLength(2); // the third never reached Discord
  });

  it('retries a 5xx once for a read, never for a new message', async () => {
    const reads = scripted(json(502, { message: 'Bad Gateway' }), json(200, []));
    await expect(bot(reads.fetch).guildChannels('1100000000000000001')).resolves.toEqual([]);
    expect(reads.calls).toHaveLength(2);

    const posts = scripted(json(500, { message: 'Internal Server Error', code: 0 }), json(200, { id: '1' }));
    const error = await failure(bot(posts.fetch).createMessage(CHANNEL, { content: 'x' }));
    expect(error).toMatchObject({ kind: 'unavailable', status: 500, retryAfter: 5 });
    expect(posts.calls).toHaveLength(1);
  });

  it('gives up at the time limit even when the fetch never answers', async () => {
    const { fetch } = scripted(() => new Promise<Response>(() => undefined));
    const started = Date.now();
    const error = await failure(bot(fetch, { timeoutMs: 150 }).guild('1100000000000000001'));
    expect(error).toMatchObject({ kind: 'unavailable', retryAfter: 5 });
    expect(error.message).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports Discord’s refusals with their JSON code and message', async () => {
    const { fetch } = scripted(json(403, { message: 'Missing Permissions', code: 50013 }));
    const error = await failure(bot(fetch).createMessage(CHANNEL, { content: 'x' }));
    expect(error).toMatchObject({ kind: 'refused', status: 403, code: 50013, discordMessage: 'Missing Permissions' });
  });

  it('keeps its token after a 401 (the library would forget it), and says the token was refused', async () => {
    const { fetch, calls } = scripted(json(401, { message: '401: Unauthorized', code: 0 }), json(200, { id: '7', username: 'Tickety' }));
    const discordBot = bot(fetch);
    expect(await failure(discordBot.me())).toMatchObject({ kind: 'failed', status: 401 });
    await expect(discordBot.me()).resolves.toMatchObject({ id: '7' });
    expect(calls.map((c) => c.auth)).toEqual(['Bot bot-token', 'Bot bot-token']);
  });

  it('fails every call as `failed` without a bot token', async () => {
    const discordBot = new DiscordBot({ apiBase: API, botToken: null, timeoutMs: 1000 });
    expect(discordBot.configured).toBe(false);
    expect(await failure(discordBot.guild('1100000000000000001'))).toMatchObject({ kind: 'failed' });
  });
});

import { ApiError, ServerResources } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { SECOND } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const CHANNELS = DEMO_CHANNELS.avasArcade;
const SEND_MESSAGES = String(1 << 11);

describe.each(databases())('GET /api/guilds/:server/resources on $name', (database) => {
  const t = useTestApp(database);
  const url = `/api/guilds/${ARCADE}/resources`;

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  /** The bot's calls for this server's resources since `from` (index into discordCalls). */
  const guildCalls = (from = 0) => t.discordCalls.slice(from).filter((c) => c.url.includes(`/guilds/${ARCADE}`));

  it('refuses a visitor (401), a member who cannot manage the server (403) and a stranger to it (405)', async () => {
    const visitor = await new Browser(t.app).get(url);
    expect(visitor.statusCode).toBe(401);
    expect(ApiError.parse(visitor.json()).code).toBe(401);
    const member = await (await as(ben.id)).get(url);
    expect(member.statusCode).toBe(403);
    expect(ApiError.parse(member.json())).toMatchObject({ code: 403, selector: true });
    const stranger = await (await as(cleo.id)).get(url);
    expect(stranger.statusCode).toBe(404);
    expect(ApiError.parse(stranger.json()).code).toBe(405);
    expect(guildCalls()).toEqual([]);
  });

  it('answers the channels in Discord’s order with where the bot can post, the roles and the custom emojis', async () => {
    const browser = await as(ava.id);
    const res = await browser.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = ServerResources.parse(res.json());
    expect(body.channels.map((c) => [c.name, c.kind, c.parentId])).toEqual([
      ['welcome', 'text', null],
      ['Support', 'category', null],
      ['support', 'text', CHANNELS.supportCategory],
      ['staff-only', 'text', CHANNELS.supportCategory],
      ['faq', 'text', CHANNELS.supportCategory],
      ['Archive', 'category', null],
      ['transcripts', 'text', CHANNELS.archiveCategory],
      ['mod-log', 'text', CHANNELS.archiveCategory],
    ]);
    const byId = new Map(body.channels.map((c) => [c.id, c]));
    for (const id of [CHANNELS.welcome, CHANNELS.support, CHANNELS.transcripts]) expect(byId.get(id)).toMatchObject({ botCanPost: true, botMissing: [] });
    expect(byId.get(CHANNELS.staffOnly)).toMatchObject({ botCanPost: false, botMissing: ['SEND_MESSAGES'] });
    expect(byId.get(CHANNELS.faq)).toMatchObject({ botCanPost: false, botMissing: ['EMBED_LINKS'] });
    // @everyone may neither see nor send in #mod-log, and nothing gives the bot either back.
    expect(byId.get(CHANNELS.modLog)).toMatchObject({ botCanPost: false, botMissing: ['VIEW_CHANNEL', 'SEND_MESSAGES'] });
    expect(byId.get(CHANNELS.supportCategory)).toMatchObject({ kind: 'category', botCanPost: false });

    // Highest first; @everyone (the server's id) kept, last.
    expect(body.roles.map((r) => [r.name, r.managed])).toEqual([
      ['Admin', false],
      ['Tickety', true],
      ['Moderator', false],
      ['Support Team', false],
      ['Member', false],
      ['@everyone', false],
    ]);
    expect(body.roles.at(-1)).toMatchObject({ id: ARCADE, position: 0 });
    expect(body.roles.find((r) => r.id === DEMO_ROLES.avasArcade.supportTeam)).toMatchObject({ color: 0x1abc9c });
    expect(body.emojis).toEqual([
      { id: '1500000000000001001', name: 'ticket', animated: false },
      { id: '1500000000000001002', name: 'arcade_coin', animated: true },
      { id: '1500000000000001003', name: 'gg', animated: false },
    ]);
    expect(body.fetchedAt).toBe(new Date(t.clock()).toISOString());
  });

  it('serves a second read within 60 s from memory, and reads Discord again with ?refresh=1 or after 60 s', async () => {
    const browser = await as(ava.id);
    const before = t.discordCalls.length;
    const first = ServerResources.parse((await browser.get(url)).json());
    expect(guildCalls(before)).toEqual([]); // still cached from the test above
    t.clock.advance(59 * SECOND);
    expect(ServerResources.parse((await browser.get(url)).json())).toEqual(first);
    expect(guildCalls(before)).toEqual([]);

    const refreshed = await browser.get(`${url}?refresh=1`);
    expect(refreshed.statusCode).toBe(200);
    expect(guildCalls(before).map((c) => `${c.method} ${new URL(c.url).pathname.replace(/^.*\/api\/v10/, '')}`).sort()).toEqual([
      `GET /guilds/${ARCADE}`,
      `GET /guilds/${ARCADE}/channels`,
      `GET /guilds/${ARCADE}/members/${t.config.discord.clientId}`,
    ]);
    expect(ServerResources.parse(refreshed.json()).fetchedAt).toBe(new Date(t.clock()).toISOString());

    const mid = t.discordCalls.length;
    t.clock.advance(60 * SECOND);
    expect((await browser.get(url)).statusCode).toBe(200);
    expect(guildCalls(mid)).toHaveLength(3);
  });

  it('shares one Discord read between concurrent requests', async () => {
    const browser = await as(ava.id);
    t.clock.advance(61 * SECOND);
    const before = t.discordCalls.length;
    const answers = await Promise.all([browser.get(url), browser.get(url), browser.get(url)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(guildCalls(before).filter((c) => c.url.endsWith('/channels'))).toHaveLength(1);
    // A refresh joins a read already under way rather than starting another.
    const mid = t.discordCalls.length;
    const reads = await Promise.all([1, 2, 3].map(() => t.app.serverResources.get(ARCADE, { refresh: true })));
    expect(new Set(reads).size).toBe(1);
    expect(guildCalls(mid).filter((c) => c.url.endsWith('/channels'))).toHaveLength(1);
  });

  it('follows the overwrites Discord has now (refresh=1): the bot losing Send Messages in #support', async () => {
    const browser = await as(ava.id);
    t.sandbox.setChannelOverwrites(CHANNELS.support, [{ id: DEMO_ROLES.avasArcade.tickety, type: 0, allow: '0', deny: SEND_MESSAGES }]);
    try {
      const body = ServerResources.parse((await browser.get(`${url}?refresh=1`)).json());
      expect(body.channels.find((c) => c.id === CHANNELS.support)).toMatchObject({ botCanPost: false, botMissing: ['SEND_MESSAGES'] });
    } finally {
      t.sandbox.setChannelOverwrites(CHANNELS.support, null);
    }
    const back = ServerResources.parse((await browser.get(`${url}?refresh=1`)).json());
    expect(back.channels.find((c) => c.id === CHANNELS.support)).toMatchObject({ botCanPost: true, botMissing: [] });
  });

  it('answers 1014 for a server the bot is not in: invite it first', async () => {
    // Ava administers Study Hall, which the bot has not joined.
    const res = await (await as(ava.id)).get(`/api/guilds/${DEMO_GUILDS.studyHall.id}/resources`);
    expect(res.statusCode).toBe(422);
    expect(ApiError.parse(res.json())).toMatchObject({ code: 1014, message: 'The bot is not in this server: invite it first.' });
  });

  it('retries a Discord 5xx once, then answers 1008 with Retry-After; a long 429 is 1008 with Discord’s Retry-After', async () => {
    const browser = await as(ava.id);
    const channels = `GET /api/v10/guilds/${ARCADE}/channels`;
    t.sandbox.failNext(channels, { status: 502 });
    expect((await browser.get(`${url}?refresh=1`)).statusCode).toBe(200);

    t.sandbox.failNext(channels, { status: 500, times: 2 });
    const down = await browser.get(`${url}?refresh=1`);
    expect(down.statusCode).toBe(503);
    expect(ApiError.parse(down.json()).code).toBe(1008);
    expect(down.headers['retry-after']).toBe('5');

    t.sandbox.failNext(channels, { status: 429, retryAfter: 30 });
    const limited = await browser.get(`${url}?refresh=1`);
    expect(limited.statusCode).toBe(503);
    expect(ApiError.parse(limited.json()).code).toBe(1008);
    expect(limited.headers['retry-after']).toBe('30');
    // A failure is not cached: the resources read earlier are still served, and the next refresh works.
    expect(t.sandbox.pendingFaults()).toEqual([]);
    expect((await browser.get(url)).statusCode).toBe(200);
  });

  it('waits out a short 429 from Discord and answers', async () => {
    const browser = await as(ava.id);
    t.sandbox.failNext(`GET /api/v10/guilds/${ARCADE}/channels`, { status: 429, retryAfter: 0.2 });
    const res = await browser.get(`${url}?refresh=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(t.sandbox.requests(`GET /api/v10/guilds/${ARCADE}/channels`).slice(-2).map((r) => r.status)).toEqual([429, 200]);
  });

  it('refuses a malformed server id and refresh value (1001)', async () => {
    const browser = await as(ava.id);
    expect(ApiError.parse((await browser.get('/api/guilds/123/resources')).json()).code).toBe(1001);
    const bad = await browser.get(`${url}?refresh=yes`);
    expect(bad.statusCode).toBe(400);
    expect(ApiError.parse(bad.json()).code).toBe(1001);
  });
});

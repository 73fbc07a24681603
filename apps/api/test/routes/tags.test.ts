import {
  ApiError,
  BotCommandBatch,
  BotTagList,
  defaultServerConfig,
  ServerConfigAnswer,
  StatisticsAnswer,
  type Tag,
  type TicketEvent,
  TicketCommandView,
  TicketTags,
} from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const OTHER_KEY = `tk_bot_otherbot1_${'o'.repeat(43)}`;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const { ava, ben, cleo, sam } = DEMO_USERS;
const MUTATION = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
/** The test clock's morning (2026-03-02, before its 10:00). */
const at = (time: string) => `2026-03-02T${time}:00.000Z`;

const tag = (id: string, name: string, extra: Partial<Tag> = {}): Tag => ({ id, name, content: `The ${name} answer.`, embed: null, keywords: [], ...extra });
const TAGS: Tag[] = [
  tag('refund', 'refund', { keywords: ['money', 'chargeback'] }),
  tag('rules', 'rules', { content: '', embed: { title: 'Server rules', description: 'Be kind.', colour: 0x10b981, imageUrl: null, thumbnailUrl: null, footer: '' } }),
  tag('reset', 'password-reset', { keywords: ['login'] }),
  ...Array.from({ length: 30 }, (_, index) => tag(`extra${index}`, `extra-${String(index).padStart(2, '0')}`)),
];

describe.each(databases())('tags (canned replies) on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });
  const browsers = new Map<string, Browser>();
  async function as(userId: string): Promise<Browser> {
    let browser = browsers.get(userId);
    if (!browser) {
      browser = new Browser(t.app);
      await signIn(browser, userId);
      browsers.set(userId, browser);
    }
    return browser;
  }
  const bot = (url: string, key: string | null = KEY) => t.app.inject({ method: 'GET', url: `/api/bot/v1${url}`, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const events = (list: TicketEvent[]) =>
    t.app.inject({ method: 'POST', url: '/api/bot/v1/events', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify({ events: list }) });
  const tagUses = async () => Number((await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM tag_uses')).rows[0]!.n);
  const statistics = async () => {
    const res = await (await as(ava.id)).get(`/api/guilds/${ARCADE}/statistics?range=7d&tz=UTC`);
    expect(res.statusCode, res.body).toBe(200);
    return StatisticsAnswer.parse(res.json()).tags;
  };
  const saveConfig = async (config: unknown) => {
    const browser = await as(ava.id);
    const live = ServerConfigAnswer.parse((await browser.get(`/api/guilds/${ARCADE}/config`)).json());
    return browser.request('PUT', `/api/guilds/${ARCADE}/config`, { headers: MUTATION, payload: { expectedVersion: live.version, config } });
  };

  beforeAll(async () => {
    await t.app.botKeys.ensure(OTHER_KEY, '999000000000000001', 'other bot');
    const saved = await saveConfig({ ...defaultServerConfig(), tags: TAGS });
    expect(saved.statusCode, saved.body).toBe(200);
    const opened = await events([{ id: 'o1', serverId: ARCADE, ticketId: 't1', at: at('09:00'), type: 'opened', panelId: 'support', openerId: cleo.id, number: 1, answers: [] }]);
    expect(opened.statusCode, opened.body).toBe(200);
  });

  describe('the configuration', () => {
    it('refuses a tag with a bad name, naming the field, and stores nothing', async () => {
      const before = (await t.app.serverConfigs.live(ARCADE)).version;
      const res = await saveConfig({ ...defaultServerConfig(), tags: [tag('bad', 'Bad Name')] });
      expect(res.statusCode).toBe(400);
      expect(ApiError.parse(res.json()).message).toMatch(/lower-case letters/);
      expect((await t.app.serverConfigs.live(ARCADE)).version).toBe(before);
    });

    it('refuses two tags of one name, and a tag with neither text nor embed', async () => {
      const twice = await saveConfig({ ...defaultServerConfig(), tags: [tag('a', 'same'), tag('b', 'same')] });
      expect(twice.statusCode).toBe(400);
      expect(ApiError.parse(twice.json()).message).toMatch(/already called "same"/);
      const empty = await saveConfig({ ...defaultServerConfig(), tags: [tag('a', 'empty', { content: '  ' })] });
      expect(empty.statusCode).toBe(400);
      expect(ApiError.parse(empty.json()).message).toMatch(/needs a message/);
    });

    it('refuses more tags than the free plan allows (50), saying premium raises it', async () => {
      const many = Array.from({ length: 51 }, (_, index) => tag(`t${index}`, `tag-${index}`));
      const res = await saveConfig({ ...defaultServerConfig(), tags: many });
      expect(res.statusCode).toBe(400);
      expect(ApiError.parse(res.json()).message).toMatch(/at most 50 tags.*premium/);
    });
  });

  describe('GET /api/bot/v1/servers/:server/tags', () => {
    it('needs a bot key (401) and refuses a server the key’s bot does not serve (403 1020)', async () => {
      expect((await bot(`/servers/${ARCADE}/tags`, null)).statusCode).toBe(401);
      const foreign = await bot(`/servers/${ARCADE}/tags`, OTHER_KEY);
      expect(foreign.statusCode).toBe(403);
      expect(ApiError.parse(foreign.json()).code).toBe(1020);
    });

    it('searches names and keywords, best first, at most 25', async () => {
      const all = BotTagList.parse((await bot(`/servers/${ARCADE}/tags`)).json());
      expect(all.tags).toHaveLength(25);
      expect(all.tags[0]!.name).toBe('extra-00');
      const money = BotTagList.parse((await bot(`/servers/${ARCADE}/tags?q=MONEY`)).json());
      expect(money.tags.map((found) => found.name)).toEqual(['refund']);
      const re = BotTagList.parse((await bot(`/servers/${ARCADE}/tags?q=re`)).json());
      // A name starting with "re" first, then one containing it.
      expect(re.tags.map((found) => found.name)).toEqual(['refund', 'password-reset']);
      const rules = BotTagList.parse((await bot(`/servers/${ARCADE}/tags?q=rules`)).json());
      expect(rules.tags[0]).toMatchObject({ id: 'rules', embed: { title: 'Server rules' } });
      expect(rules.version).toBeGreaterThan(0);
    });

    it('refuses a search over 100 characters (400 1001)', async () => {
      const res = await bot(`/servers/${ARCADE}/tags?q=${'a'.repeat(101)}`);
      expect(res.statusCode).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    });

    it('answers an empty list for a server without tags', async () => {
      expect(BotTagList.parse((await bot(`/servers/${PIXEL}/tags`)).json()).tags).toEqual([]);
    });
  });

  describe('uses counted in Statistics', () => {
    it('counts a tag_used event once, sent twice', async () => {
      const use: TicketEvent = { id: 'u1', serverId: ARCADE, ticketId: 't1', at: at('09:05'), type: 'tag_used', tagId: 'refund', staffId: ava.id };
      expect((await events([use])).statusCode).toBe(200);
      expect((await events([use])).json()).toMatchObject({ accepted: 0, duplicates: 1 });
      expect(await statistics()).toEqual([{ tagId: 'refund', uses: 1 }]);
    });

    it('refuses a tag_used event without staffId whole (400), storing nothing', async () => {
      const before = await tagUses();
      const res = await events([{ id: 'u2', serverId: ARCADE, ticketId: 't1', at: at('09:06'), type: 'tag_used', tagId: 'refund' } as unknown as TicketEvent]);
      expect(res.statusCode).toBe(400);
      expect(ApiError.parse(res.json()).message).toMatch(/staffId/);
      expect(await tagUses()).toBe(before);
    });

    it('a dashboard reply from a tag carries its id and embed, and counts once the bot reports it done', async () => {
      const browser = await as(ava.id);
      const sent = await browser.request('POST', `/api/guilds/${ARCADE}/tickets/t1/commands`, { headers: MUTATION, payload: { kind: 'reply', content: '', tagId: 'rules' } });
      expect(sent.statusCode, sent.body).toBe(202);
      TicketCommandView.parse(sent.json());
      const taken = BotCommandBatch.parse((await t.app.inject({ method: 'GET', url: '/api/bot/v1/commands?wait=0', headers: { authorization: `Bearer ${KEY}` } })).json()).commands;
      expect(taken[0]).toMatchObject({ kind: 'reply', content: '', tagId: 'rules', embed: { title: 'Server rules', description: 'Be kind.', color: 0x10b981 } });
      expect(await statistics()).toEqual([{ tagId: 'refund', uses: 1 }]);
      const done = await t.app.inject({
        method: 'POST',
        url: `/api/bot/v1/commands/${taken[0]!.id}/result`,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ outcome: 'done', attempt: 1, messageId: '1300000000000077001' }),
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(await statistics()).toEqual([
        { tagId: 'refund', uses: 1 },
        { tagId: 'rules', uses: 1 },
      ]);
    });

    it('a failed reply from a tag is not counted', async () => {
      const browser = await as(ava.id);
      const sent = await browser.request('POST', `/api/guilds/${ARCADE}/tickets/t1/commands`, { headers: MUTATION, payload: { kind: 'reply', content: 'Refunds take 5 days.', tagId: 'refund' } });
      expect(sent.statusCode, sent.body).toBe(202);
      const taken = BotCommandBatch.parse((await t.app.inject({ method: 'GET', url: '/api/bot/v1/commands?wait=0', headers: { authorization: `Bearer ${KEY}` } })).json()).commands;
      expect(taken[0]).toMatchObject({ tagId: 'refund', content: 'Refunds take 5 days.' });
      expect(taken[0]).not.toHaveProperty('embed');
      await t.app.inject({
        method: 'POST',
        url: `/api/bot/v1/commands/${taken[0]!.id}/result`,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ outcome: 'failed', attempt: 1, reason: 'missing_permission' }),
      });
      expect((await statistics()).find((row) => row.tagId === 'refund')?.uses).toBe(1);
    });

    it('refuses a reply naming an unknown tag, or empty text with a tag without embed (400), queueing nothing', async () => {
      const browser = await as(ava.id);
      const count = async () => Number((await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM bot_commands')).rows[0]!.n);
      const before = await count();
      const unknown = await browser.request('POST', `/api/guilds/${ARCADE}/tickets/t1/commands`, { headers: MUTATION, payload: { kind: 'reply', content: 'Hi', tagId: 'gone' } });
      expect(unknown.statusCode).toBe(400);
      expect(ApiError.parse(unknown.json()).message).toMatch(/not a tag of this server/);
      const empty = await browser.request('POST', `/api/guilds/${ARCADE}/tickets/t1/commands`, { headers: MUTATION, payload: { kind: 'reply', content: '', tagId: 'refund' } });
      expect(empty.statusCode).toBe(400);
      expect(ApiError.parse(empty.json()).message).toMatch(/needs some text/);
      const noTag = await browser.request('POST', `/api/guilds/${ARCADE}/tickets/t1/commands`, { headers: MUTATION, payload: { kind: 'reply', content: '' } });
      expect(noTag.statusCode).toBe(400);
      expect(await count()).toBe(before);
    });
  });

  describe('GET /api/guilds/:server/tickets/tags (the reply box)', () => {
    it('answers the server’s tags to its support team, 401 signed out, 403 to a member without the Tickets area, 404 to someone not on the server', async () => {
      const res = await (await as(ava.id)).get(`/api/guilds/${ARCADE}/tickets/tags`);
      expect(res.statusCode).toBe(200);
      expect(TicketTags.parse(res.json()).tags.map((found) => found.id)).toContain('rules');
      expect((await new Browser(t.app).get(`/api/guilds/${ARCADE}/tickets/tags`)).statusCode).toBe(401);
      expect((await (await as(ben.id)).get(`/api/guilds/${ARCADE}/tickets/tags`)).statusCode).toBe(403);
      expect((await (await as(sam.id)).get(`/api/guilds/${ARCADE}/tickets/tags`)).statusCode).toBe(404);
    });
  });

  it('the product’s bot is the one whose uses are stored', async () => {
    const { rows } = await t.db.query<{ bot_id: string }>('SELECT DISTINCT bot_id FROM tag_uses');
    expect(rows.map((row) => row.bot_id)).toEqual([DEMO_APP.clientId]);
  });
});

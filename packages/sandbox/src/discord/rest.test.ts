import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS, type DemoUserKey } from './demo-data';
import type { PartialGuild } from './rest';
import { get, type Harness, harness, signIn } from './test-helpers';

let sandbox: Harness;
let app: FastifyInstance;
const tokens = {} as Record<DemoUserKey, string>;

beforeAll(async () => {
  sandbox = await harness();
  app = sandbox.app;
  for (const key of Object.keys(DEMO_USERS) as DemoUserKey[]) tokens[key] = (await signIn(app, DEMO_USERS[key].id)).access_token;
});
afterAll(async () => {
  await app.close();
});

const BOT = `Bot ${DEMO_APP.botToken}`;

/** The dashboard's manage rule: owner, ADMINISTRATOR (1<<3) or MANAGE_GUILD (1<<5). */
const manages = (g: PartialGuild) => g.owner || (BigInt(g.permissions) & 0x28n) !== 0n;

describe('GET /users/:id', () => {
  test('a demo user by id, for the bot or a signed-in user; an unknown or malformed id is 404 Unknown User; no auth 401', async () => {
    const ben = DEMO_USERS.ben;
    const res = await get(app, `/users/${ben.id}`, BOT);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ben.id, username: ben.username, global_name: ben.globalName, avatar: ben.avatar, bot: false });
    expect(res.json()).not.toHaveProperty('email');
    expect((await get(app, `/users/${ben.id}`, `Bearer ${tokens.ava}`)).statusCode).toBe(200);
    for (const id of ['1999999999999999999', 'abc']) {
      const missing = await get(app, `/users/${id}`, BOT);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 10013 });
    }
    expect((await get(app, `/users/${ben.id}`, undefined)).statusCode).toBe(401);
  });
});

describe('GET /users/@me', () => {
  test.each(Object.keys(DEMO_USERS) as DemoUserKey[])('%s', async (key) => {
    const user = DEMO_USERS[key];
    const res = await get(app, '/users/@me', `Bearer ${tokens[key]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      username: user.username,
      discriminator: '0',
      global_name: user.globalName,
      avatar: user.avatar,
      bot: false,
    });
    expect(res.json()).not.toHaveProperty('email');
  });

  test('with the bot token: the bot user', async () => {
    const res = await get(app, '/users/@me', BOT);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: DEMO_APP.clientId, bot: true, global_name: DEMO_APP.name });
  });

  test.each([
    ['no Authorization', undefined],
    ['an unknown Bearer token', 'Bearer nope'],
    ['a wrong bot token', 'Bot nope'],
    ['an unknown scheme', 'Token abc'],
  ])('%s: 401 like Discord', async (_name, authorization) => {
    const res = await get(app, '/users/@me', authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });

  test('the email scope adds the email', async () => {
    const tokenResponse = sandbox.control.issueTokens('cleo', { scope: 'identify guilds email' });
    const res = await get(app, '/users/@me', `Bearer ${tokenResponse.access_token}`);
    expect(res.json()).toMatchObject({ email: 'cleo@demo.tickety.invalid', verified: true });
  });

  test('a token without identify cannot read the user, one without guilds not the guilds', async () => {
    const guildsOnly = sandbox.control.issueTokens('ava', { scope: 'guilds' });
    expect((await get(app, '/users/@me', `Bearer ${guildsOnly.access_token}`)).statusCode).toBe(401);
    expect((await get(app, '/users/@me/guilds', `Bearer ${guildsOnly.access_token}`)).statusCode).toBe(200);
    const identifyOnly = sandbox.control.issueTokens('ava', { scope: 'identify' });
    expect((await get(app, '/users/@me/guilds', `Bearer ${identifyOnly.access_token}`)).statusCode).toBe(401);
  });
});

describe('GET /users/@me/guilds', () => {
  test('partial guilds in Discord\'s shape, sorted by id, matching each user\'s memberships', async () => {
    for (const key of Object.keys(DEMO_USERS) as DemoUserKey[]) {
      const res = await get(app, '/users/@me/guilds', `Bearer ${tokens[key]}`);
      expect(res.statusCode).toBe(200);
      const guilds = res.json<PartialGuild[]>();
      const expected = [...DEMO_USERS[key].memberships].sort((a, b) => (BigInt(a.guildId) < BigInt(b.guildId) ? -1 : 1));
      expect(guilds.map((g) => [g.id, g.owner, g.permissions])).toEqual(expected.map((m) => [m.guildId, m.owner, m.permissions]));
      for (const guild of guilds) {
        expect(Object.keys(guild).sort()).toEqual(['banner', 'features', 'icon', 'id', 'name', 'owner', 'permissions']);
        expect(guild.banner).toBeNull();
        expect(guild.features).toEqual([]);
        expect(typeof guild.permissions).toBe('string');
      }
    }
  });

  test('Ava owns Ava\'s Arcade and Pixel Pals and manages Study Hall and Retro Modders, not Cozy Corner', async () => {
    const guilds = (await get(app, '/users/@me/guilds', `Bearer ${tokens.ava}`)).json<PartialGuild[]>();
    expect(guilds.filter((g) => g.owner).map((g) => g.name)).toEqual(["Ava's Arcade", 'Pixel Pals']);
    expect(guilds.filter(manages).map((g) => g.name)).toEqual(["Ava's Arcade", 'Pixel Pals', 'Study Hall', 'Retro Modders']);
    expect(guilds.find((g) => g.id === DEMO_GUILDS.avasArcade.id)?.icon).toBe(DEMO_GUILDS.avasArcade.icon);
  });

  test('Ben administers Ben\'s Workshop (without the bot) and is a plain member of Ava\'s Arcade', async () => {
    const guilds = (await get(app, '/users/@me/guilds', `Bearer ${tokens.ben}`)).json<PartialGuild[]>();
    const workshop = guilds.find((g) => g.id === DEMO_GUILDS.bensWorkshop.id)!;
    expect(workshop.owner).toBe(false);
    expect(BigInt(workshop.permissions) & 0x8n).toBe(0x8n);
    expect(guilds.filter(manages).map((g) => g.name)).toEqual(["Ben's Workshop"]);
  });

  test('Cleo is in servers but manages none', async () => {
    const guilds = (await get(app, '/users/@me/guilds', `Bearer ${tokens.cleo}`)).json<PartialGuild[]>();
    expect(guilds.length).toBe(2);
    expect(guilds.filter(manages)).toEqual([]);
  });

  test('Sam owns Tickety HQ', async () => {
    const guilds = (await get(app, '/users/@me/guilds', `Bearer ${tokens.sam}`)).json<PartialGuild[]>();
    expect(guilds).toEqual([expect.objectContaining({ id: DEMO_GUILDS.ticketyHq.id, owner: true })]);
  });

  test('with the bot token: the guilds the bot is in', async () => {
    const res = await get(app, '/users/@me/guilds', BOT);
    expect(res.statusCode).toBe(200);
    const ids = res.json<PartialGuild[]>().map((g) => g.id);
    const expected = Object.values(DEMO_GUILDS)
      .filter((g) => g.botInGuild)
      .map((g) => g.id)
      .sort();
    expect(ids).toEqual(expected);
    expect(ids).not.toContain(DEMO_GUILDS.bensWorkshop.id);
    expect(res.json<PartialGuild[]>().every((g) => g.owner === false)).toBe(true);
  });

  test('pages by id with limit, after and before', async () => {
    const all = (await get(app, '/users/@me/guilds', `Bearer ${tokens.ava}`)).json<PartialGuild[]>().map((g) => g.id);
    expect(all).toHaveLength(5);
    const page = async (query: string) => (await get(app, `/users/@me/guilds?${query}`, `Bearer ${tokens.ava}`)).json<PartialGuild[]>().map((g) => g.id);
    expect(await page('limit=2')).toEqual(all.slice(0, 2));
    expect(await page(`limit=2&after=${all[1]}`)).toEqual(all.slice(2, 4));
    expect(await page(`limit=2&after=${all[3]}`)).toEqual(all.slice(4));
    expect(await page(`after=${all[4]}`)).toEqual([]);
    expect(await page(`limit=2&before=${all[4]}`)).toEqual(all.slice(2, 4));
    expect(await page(`before=${all[2]}`)).toEqual(all.slice(0, 2));
    expect(await page(`after=${all[0]}&before=${all[3]}`)).toEqual(all.slice(1, 3));
    // What the API's client does: limit=200, then after= the last id while a page is full.
    expect(await page('limit=200')).toEqual(all);
  });

  test('with_counts adds approximate counts', async () => {
    const guilds = (await get(app, '/users/@me/guilds?with_counts=true', `Bearer ${tokens.sam}`)).json();
    expect(guilds[0].approximate_member_count).toBeGreaterThan(0);
    expect(guilds[0].approximate_presence_count).toBeGreaterThan(0);
  });

  test.each([
    ['limit=0', 'limit', 'NUMBER_TYPE_MIN'],
    ['limit=201', 'limit', 'NUMBER_TYPE_MAX'],
    ['limit=ten', 'limit', 'NUMBER_TYPE_COERCE'],
    ['after=abc', 'after', 'NUMBER_TYPE_COERCE'],
    ['before=1.5', 'before', 'NUMBER_TYPE_COERCE'],
  ])('%s: 400 Invalid Form Body', async (query, field, code) => {
    const res = await get(app, `/users/@me/guilds?${query}`, `Bearer ${tokens.ava}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code }] } } });
  });

  test('without a valid token: 401', async () => {
    const res = await get(app, '/users/@me/guilds', 'Bearer expired-or-unknown');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });
});

describe('GET /guilds/{id} (bot)', () => {
  test('a guild the bot is in', async () => {
    const res = await get(app, `/guilds/${DEMO_GUILDS.avasArcade.id}`, BOT);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: DEMO_GUILDS.avasArcade.id,
      name: "Ava's Arcade",
      icon: DEMO_GUILDS.avasArcade.icon,
      owner_id: DEMO_USERS.ava.id,
      features: [],
    });
    expect(res.json().roles[0]).toMatchObject({ id: DEMO_GUILDS.avasArcade.id, name: '@everyone' });
  });

  test('a guild without the bot, or unknown: 404 Unknown Guild', async () => {
    for (const id of [DEMO_GUILDS.bensWorkshop.id, '1199999999999999999']) {
      const res = await get(app, `/guilds/${id}`, BOT);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown Guild', code: 10004 });
    }
  });

  test('follows the bot joining a guild', async () => {
    sandbox.control.setBotInGuild(DEMO_GUILDS.bensWorkshop.id, true);
    try {
      expect((await get(app, `/guilds/${DEMO_GUILDS.bensWorkshop.id}`, BOT)).statusCode).toBe(200);
      const ids = (await get(app, '/users/@me/guilds', BOT)).json<PartialGuild[]>().map((g) => g.id);
      expect(ids).toContain(DEMO_GUILDS.bensWorkshop.id);
    } finally {
      sandbox.control.setBotInGuild(DEMO_GUILDS.bensWorkshop.id, false);
    }
  });

  test('a user token cannot call it', async () => {
    const res = await get(app, `/guilds/${DEMO_GUILDS.avasArcade.id}`, `Bearer ${tokens.ava}`);
    expect(res.statusCode).toBe(401);
  });
});

describe('unknown routes', () => {
  test('404 in Discord\'s shape', async () => {
    // (The channel routes exist now: see messages.test.ts for their 10003 Unknown Channel.)
    const res = await get(app, '/applications/1/commands', BOT);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: '404: Not Found', code: 0 });
  });
});

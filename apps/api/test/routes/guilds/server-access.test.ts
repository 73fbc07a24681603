import { ApiError, AuthenticatedMe, ERROR_CODES, GuildWithAccess, type ServerConfig, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../../demo/seed';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { SECOND } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

/**
 * Who may do what on a server (docs/api.md#who-may-do-what-on-a-server), route by route, on the demo data (demo/seed.ts): Ava owns
 * Ava's Arcade, Nico administers it, Ben is a plain member there and reads Retro Modders through its
 * "Dashboard Readers" role, Cleo is a plain member of Pixel Pals (no access rules), Sam is staff.
 */
const { ava, ben, cleo, sam, nico } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const MODS = DEMO_GUILDS.modGuild.id;
const MR = DEMO_ROLES.modGuild;

type Call = { name: string; kind: 'read' | 'write'; run: (browser: Browser, server: string, ctx: Ctx) => Promise<LightMyRequestResponse> };
interface Ctx {
  version: number;
  config: ServerConfig;
}

const mutation = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const put = (b: Browser, path: string, body: unknown) => b.request('PUT', path, { headers: mutation, payload: body as object });
const post = (b: Browser, path: string, body?: unknown) => b.request('POST', path, { headers: mutation, ...(body === undefined ? {} : { payload: body as object }) });

/** Every route under /api/guilds/:server, as the dashboard calls it. */
const ROUTES: Call[] = [
  { name: 'GET /:server', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}`) },
  { name: 'GET /config', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/config`) },
  { name: 'GET /config/versions', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/config/versions`) },
  { name: 'GET /config/versions/1', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/config/versions/1`) },
  { name: 'GET /logs', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/logs`) },
  { name: 'GET /logs/actors', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/logs/actors`) },
  { name: 'GET /config/export', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/config/export`) },
  { name: 'GET /resources', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/resources`) },
  { name: 'GET /posts', kind: 'read', run: (b, s) => b.get(`/api/guilds/${s}/posts`) },
  { name: 'PUT /config', kind: 'write', run: (b, s, c) => put(b, `/api/guilds/${s}/config`, { expectedVersion: c.version, config: c.config }) },
  { name: 'POST /config/versions/1/restore', kind: 'write', run: (b, s, c) => post(b, `/api/guilds/${s}/config/versions/1/restore`, { expectedVersion: c.version }) },
  {
    name: 'POST /config/import/preview',
    kind: 'write',
    run: async (b, s) => post(b, `/api/guilds/${s}/config/import/preview`, { file: (await b.get(`/api/guilds/${s}/config/export`)).json() }),
  },
  {
    name: 'POST /config/import',
    kind: 'write',
    run: async (b, s, c) => post(b, `/api/guilds/${s}/config/import`, { file: (await b.get(`/api/guilds/${s}/config/export`)).json(), expectedVersion: c.version }),
  },
  { name: 'POST /posts', kind: 'write', run: (b, s, c) => post(b, `/api/guilds/${s}/posts`, { kind: 'panel', id: c.config.panels[0]?.id ?? 'x', channelId: DEMO_CHANNELS.avasArcade.support }) },
  { name: 'POST /posts/panel/x/update', kind: 'write', run: (b, s, c) => post(b, `/api/guilds/${s}/posts/panel/${c.config.panels[0]?.id ?? 'x'}/update`) },
  {
    name: 'POST /config/reset',
    kind: 'write',
    run: async (b, s, c) => post(b, `/api/guilds/${s}/config/reset`, { expectedVersion: c.version, confirmName: ((await b.get(`/api/guilds/${s}`)).json() as { name?: string }).name ?? 'x' }),
  },
];

describe.each(databases())('server access by role, every guilds route, on $name', (database) => {
  const t = useTestApp(database);
  const browsers = new Map<string, Browser>();

  beforeAll(async () => {
    await seedDemo(t.app, t.sandbox);
  });

  async function as(userId: string): Promise<Browser> {
    let browser = browsers.get(userId);
    if (!browser) {
      browser = new Browser(t.app);
      await signIn(browser, userId);
      browsers.set(userId, browser);
    }
    return browser;
  }

  async function live(server: string): Promise<Ctx> {
    const found = await t.app.serverConfigs.live(server);
    return { version: found.version, config: found.config };
  }

  it('a visitor: 401 on every route, nothing changes', async () => {
    const before = await live(ARCADE);
    for (const route of ROUTES) {
      const res = await route.run(new Browser(t.app), ARCADE, before);
      expect(res.statusCode, route.name).toBe(401);
      expect(res.json(), route.name).toMatchObject({ code: 401, isAuthenticated: false });
    }
    expect((await live(ARCADE)).version).toBe(before.version);
  });

  it('a member without access (Cleo on Pixel Pals, which gives no role access): 403, saying why and who can grant it', async () => {
    const browser = await as(cleo.id);
    const ctx = await live(PIXEL);
    for (const route of ROUTES) {
      const res = await route.run(browser, PIXEL, ctx);
      expect(res.statusCode, route.name).toBe(403);
      const body = ApiError.parse(res.json());
      expect(body, route.name).toMatchObject({ code: ERROR_CODES.NO_SERVER_ACCESS.code, isAuthenticated: true, selector: true });
      expect(body.message).toBe(
        "You are not the owner of Pixel Pals and have neither the Administrator nor the Manage Server permission there, and the server gives no role dashboard access. The server's owner and members with the Administrator or Manage Server permission can give a role access under Panel Menu › Settings and access. If your roles changed recently, refresh your server list.",
      );
    }
    expect((await live(PIXEL)).version).toBe(ctx.version);
  });

  it("a manager of another server (Ben, admin of Ben's Workshop, a plain member of Ava's Arcade): 403 naming the roles that have access", async () => {
    const browser = await as(ben.id);
    const ctx = await live(ARCADE);
    for (const route of ROUTES) {
      const res = await route.run(browser, ARCADE, ctx);
      expect(res.statusCode, route.name).toBe(403);
      expect(ApiError.parse(res.json()).message, route.name).toMatch(
        /^You are not the owner of Ava's Arcade .* none of your roles has dashboard access: the server gives it to “Support Team” and “Moderator”\. The server's owner and members with the Administrator or Manage Server permission can give a role access/,
      );
    }
    expect((await live(ARCADE)).version).toBe(ctx.version);
  });

  it('staff without server access (Sam holds every staff flag): never a write nor the signed export; reads only as staff read from the dashboard (test/routes/staff-server-read.test.ts)', async () => {
    const browser = await as(sam.id);
    const ctx = await live(ARCADE);
    for (const route of ROUTES) {
      const res = await route.run(browser, ARCADE, ctx);
      if (route.kind === 'read' && route.name !== 'GET /config/export') {
        // Staff read is audited, so only the dashboard's own fetch may cause it (these calls are not).
        expect(res.statusCode, route.name).toBe(403);
        expect(res.json(), route.name).toMatchObject({ code: ERROR_CODES.CSRF_REJECTED.code, isAuthenticated: true });
        continue;
      }
      expect(res.statusCode, route.name).toBe(404);
      expect(res.json(), route.name).toMatchObject({ code: ERROR_CODES.SERVER_NOT_FOUND.code, isAuthenticated: true, selector: true });
    }
    expect((await live(ARCADE)).version).toBe(ctx.version);
    expect((await t.db.query(`SELECT 1 FROM staff_audit WHERE staff_id = $1 AND action = 'server.view'`, [sam.id])).rows).toEqual([]);
  });

  it.each([
    ['the owner (Ava)', ava.id],
    ['an administrator (Nico)', nico.id],
  ])("%s: full access on every route of Ava's Arcade", async (_who, userId) => {
    const browser = await as(userId);
    for (const route of ROUTES) {
      const ctx = await live(ARCADE);
      const res = await route.run(browser, ARCADE, ctx);
      expect(res.statusCode, `${route.name}: ${res.body}`).toBe(200);
    }
    const server = GuildWithAccess.parse((await browser.get(`/api/guilds/${ARCADE}`)).json());
    expect(server.access).toEqual({ via: 'full', areas: { panels: 'write', tickets: 'write', statistics: 'write', logs: 'write', configs: 'write', premium: 'write' }, grantedBy: [] });
  });

  it('role-granted read (Ben on Retro Modders): every read answers; every write is 1017 saying what he has and who can grant more', async () => {
    const browser = await as(ben.id);
    const server = GuildWithAccess.parse((await browser.get(`/api/guilds/${MODS}`)).json());
    expect(server).toMatchObject({ id: MODS, canManage: false, roleAccess: true, botInGuild: true });
    expect(server.access).toEqual({ via: 'roles', areas: { panels: 'read', tickets: null, statistics: 'read', logs: 'read', configs: 'read', premium: null }, grantedBy: ['Dashboard Readers'] });

    const ctx = await live(MODS);
    for (const route of ROUTES) {
      const res = await route.run(browser, MODS, ctx);
      if (route.kind === 'read') {
        expect(res.statusCode, `${route.name}: ${res.body}`).toBe(200);
        continue;
      }
      expect(res.statusCode, route.name).toBe(403);
      const body = ApiError.parse(res.json());
      expect(body.code, route.name).toBe(ERROR_CODES.AREA_ACCESS_REQUIRED.code);
      const area = /restore|import|reset/.test(route.name) ? 'Restore Configs' : 'Panel Menu';
      expect(body.message, route.name).toBe(
        `You can see ${area} on Retro Modders but not change it: this needs write access to ${area}. Your role “Dashboard Readers” gives you Panel Menu (read), Statistics (read), Web Logs (read), Restore Configs (read). The server's owner and members with the Administrator or Manage Server permission can give a role access under Panel Menu › Settings and access.`,
      );
    }
    // Nothing was written, nothing was posted.
    expect((await live(MODS)).version).toBe(ctx.version);
    expect(t.sandbox.messages(DEMO_CHANNELS.modGuild.modHelp)).toEqual([]);
  });

  it('a member without access cannot make the bot ask Discord on every write: a refusal rests on roles read within the minute', async () => {
    const browser = await as(ben.id);
    const lookups = () => t.sandbox.requests(`GET /api/v10/guilds/${ARCADE}/members/${ben.id}`).length;
    t.clock.advance(61 * SECOND);
    t.sandbox.clearRequests(); // its log keeps the latest requests only
    for (let i = 0; i < 5; i++) {
      const res = await post(browser, `/api/guilds/${ARCADE}/config/import/preview`, { file: {} });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(lookups()).toBeLessThanOrEqual(1); // five without the rule above
  });

  it('the @me list shows the servers a role opens (roleAccess), from stored data', async () => {
    const me = AuthenticatedMe.parse((await (await as(ben.id)).get('/api/auth/@me')).json());
    expect(me.guilds.map((g) => [g.name, g.canManage, g.roleAccess]).sort()).toEqual([
      ["Ava's Arcade", false, false],
      ["Ben's Workshop", true, false],
      ['Retro Modders', false, true],
    ]);
  });

  it('reads reuse the member for a minute; every write reads it from Discord again', async () => {
    const browser = await as(ben.id);
    const lookups = () => t.sandbox.requests(`GET /api/v10/guilds/${MODS}/members/${ben.id}`).length;
    t.clock.advance(61 * SECOND);
    const before = lookups();
    await browser.get(`/api/guilds/${MODS}/config`);
    await browser.get(`/api/guilds/${MODS}/logs`);
    await browser.get(`/api/guilds/${MODS}/posts`);
    expect(lookups()).toBe(before + 1);
    const ctx = await live(MODS);
    await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config: ctx.config });
    await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config: ctx.config });
    expect(lookups()).toBe(before + 3);
  });

  describe('role-granted write (Ava gives Modder, which Ben also holds, write access to the Panel Menu and Restore Configs)', () => {
    beforeAll(async () => {
      const owner = await as(ava.id);
      const ctx = await live(MODS);
      const config: ServerConfig = { ...ctx.config, access: [...ctx.config.access, { roleId: MR.modder, areas: { panels: 'write', configs: 'write' } }] };
      const res = await put(owner, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('the access the roles give together: write wins, both roles named', async () => {
      const server = GuildWithAccess.parse((await (await as(ben.id)).get(`/api/guilds/${MODS}`)).json());
      expect(server.access).toEqual({ via: 'roles', areas: { panels: 'write', tickets: null, statistics: 'read', logs: 'read', configs: 'write', premium: null }, grantedBy: ['Dashboard Readers', 'Modder'] });
    });

    it('saves panels and general settings, sends and updates a panel; each logged as Ben', async () => {
      const browser = await as(ben.id);
      const ctx = await live(MODS);
      const config: ServerConfig = structuredClone(ctx.config);
      config.panels[0]!.embed.title = 'Mod help, by Ben';
      config.general.claiming = false;
      const saved = await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(ServerConfigAnswer.parse(saved.json())).toMatchObject({ version: ctx.version + 1, savedBy: { id: ben.id } });

      const sent = await post(browser, `/api/guilds/${MODS}/posts`, { kind: 'panel', id: 'mod-help', channelId: DEMO_CHANNELS.modGuild.modHelp });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(t.sandbox.messages(DEMO_CHANNELS.modGuild.modHelp).map((m) => m.embeds[0]?.title)).toEqual(['Mod help, by Ben']);
      const updated = await post(browser, `/api/guilds/${MODS}/posts/panel/mod-help/update`);
      expect(updated.statusCode, updated.body).toBe(200);
      const logs = (await browser.get(`/api/guilds/${MODS}/logs`)).json().entries as Array<{ action: string; actor: { id: string } }>;
      expect(logs.filter((e) => e.actor.id === ben.id).map((e) => e.action).sort()).toEqual(['config.update', 'panel.send', 'panel.update']);
    });

    it('write is still refused on the areas granted read only (Statistics, Web Logs have no writes; Premium none at all)', async () => {
      const server = GuildWithAccess.parse((await (await as(ben.id)).get(`/api/guilds/${MODS}`)).json());
      expect(server.access.areas.logs).toBe('read');
      expect(server.access.areas.premium).toBeNull();
    });

    it('a role trying to change the access rules: 1017, nothing saved (a role cannot give itself, or anyone, more)', async () => {
      const browser = await as(ben.id);
      const ctx = await live(MODS);
      const attempts: ServerConfig['access'][] = [
        ctx.config.access.map((rule) => (rule.roleId === MR.dashboardReaders ? { ...rule, areas: { ...rule.areas, premium: 'write' as const } } : rule)),
        [...ctx.config.access, { roleId: MR.moderator, areas: { logs: 'read' as const } }],
        ctx.config.access.filter((rule) => rule.roleId !== MR.modder),
      ];
      for (const access of attempts) {
        const config: ServerConfig = { ...structuredClone(ctx.config), access };
        config.panels[0]!.embed.title = 'Sneaky';
        const res = await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config });
        expect(res.statusCode).toBe(403);
        expect(ApiError.parse(res.json())).toMatchObject({
          code: ERROR_CODES.AREA_ACCESS_REQUIRED.code,
          message: expect.stringMatching(/^Only the owner of Retro Modders and members with the Administrator or Manage Server permission can change who has dashboard access; your roles \(“Dashboard Readers” and “Modder”\) cannot\./),
        });
      }
      expect(await live(MODS)).toEqual(ctx);
      // The same rules in another key order are no change.
      const reordered: ServerConfig = { ...structuredClone(ctx.config), access: ctx.config.access.map((rule) => ({ areas: Object.fromEntries(Object.entries(rule.areas).reverse()), roleId: rule.roleId })) };
      expect((await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config: reordered })).statusCode).toBe(200);
    });

    it('access rules nested absurdly deep get the schema’s 400 (1001), as anyone would, never a 500', async () => {
      const browser = await as(ben.id);
      const ctx = await live(MODS);
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const body = `{"expectedVersion":${ctx.version},"config":${JSON.stringify({ ...ctx.config, access: '__DEEP__' }).replace('"__DEEP__"', deep)}}`;
      const res = await browser.request('PUT', `/api/guilds/${MODS}/config`, { headers: mutation, payload: body });
      expect(res.statusCode, res.body).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
      expect(await live(MODS)).toEqual(ctx);
    });

    it('a restore that would change the access rules needs full access; one that keeps them is allowed', async () => {
      const browser = await as(ben.id);
      const ctx = await live(MODS);
      // Version 2 is before Modder had a rule.
      const refused = await post(browser, `/api/guilds/${MODS}/config/versions/2/restore`, { expectedVersion: ctx.version });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: ERROR_CODES.AREA_ACCESS_REQUIRED.code, message: expect.stringContaining('can change who has dashboard access') });
      expect((await live(MODS)).version).toBe(ctx.version);
      // Version 3 (Ava's grant) has the same rules as the live one.
      const restored = await post(browser, `/api/guilds/${MODS}/config/versions/3/restore`, { expectedVersion: ctx.version });
      expect(restored.statusCode, restored.body).toBe(200);
      expect((await live(MODS)).version).toBe(ctx.version + 1);
      // A stale version is a conflict, before the rules are compared.
      const stale = await post(browser, `/api/guilds/${MODS}/config/versions/3/restore`, { expectedVersion: ctx.version });
      expect(stale.json()).toMatchObject({ code: ERROR_CODES.CONFIG_CONFLICT.code });
    });

    it('the owner changes the rules back: the next request decides on them at once', async () => {
      const owner = await as(ava.id);
      const ctx = await live(MODS);
      const config: ServerConfig = { ...ctx.config, access: ctx.config.access.filter((rule) => rule.roleId !== MR.modder) };
      expect((await put(owner, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config })).statusCode).toBe(200);
      const browser = await as(ben.id);
      const after = await live(MODS);
      const res = await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: after.version, config: after.config });
      expect(res.json()).toMatchObject({ code: ERROR_CODES.AREA_ACCESS_REQUIRED.code });
    });
  });

  it('a write decides on what Discord says now: Ben left the server, his cached membership still reads for a minute, no write passes', async () => {
    const browser = await as(ben.id);
    await browser.get(`/api/guilds/${MODS}/config`);
    t.sandbox.setMembership(ben.id, MODS, null);
    try {
      expect((await browser.get(`/api/guilds/${MODS}/config`)).statusCode).toBe(200);
      const ctx = await live(MODS);
      const res = await put(browser, `/api/guilds/${MODS}/config`, { expectedVersion: ctx.version, config: ctx.config });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NO_SERVER_ACCESS.code, message: 'Discord says you are not a member of Retro Modders any more. Refresh your server list.' });
      // The stored list forgets the role access at once.
      const me = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(me.guilds.find((g) => g.id === MODS)?.roleAccess).toBe(false);
    } finally {
      t.sandbox.setMembership(ben.id, MODS, { owner: false, permissions: DEMO_USERS.ben.memberships[2]!.permissions });
    }
  });

  it('Discord down while his roles are read: 503 1008 saying so, never a guess', async () => {
    const browser = await as(ben.id);
    t.clock.advance(61 * SECOND);
    t.sandbox.failNext(`GET /api/v10/guilds/${MODS}/members/${ben.id}`, { status: 503, times: 2 });
    const res = await browser.get(`/api/guilds/${MODS}/config`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.DISCORD_UNAVAILABLE.code, message: 'Discord is not answering, so your roles on Retro Modders could not be checked. Try again shortly.' });
    expect(res.headers['retry-after']).toBeDefined();
  });
});

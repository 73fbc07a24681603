import { ApiError, ERROR_CODES, GuildWithAccess, type ServerConfig, type TranscriptV2, WebLogPage } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../demo/seed';
import { STAFF_READ_ROUTES } from '../../src/plugins/app/auth';
import { STAFF_VIEW_AUDIT_WINDOW_MS } from '../../src/services/staff-audit';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

/**
 * Staff read (docs/api.md#who-may-do-what-on-a-server): a staff member holding DASHBOARD_SUPPORT_SEARCH_READ opens a server's
 * dashboard read-only when they have no access of their own (`via: 'staff'`), never writes, and each
 * visit is written to the staff audit (once per few minutes). On the demo data: Ben is a plain member
 * of Ava's Arcade without access and not in Pixel Pals at all; Cleo is no staff; Sam (an owner) owns
 * Tickety HQ.
 */
const { ava, ben, cleo, sam } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const HQ = DEMO_GUILDS.ticketyHq.id;
const UNKNOWN = '1199999999999999999';

const DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const mutation = { 'content-type': 'application/json', ...DASHBOARD };
const EVERY_AREA_READ = { panels: 'read', tickets: 'read', statistics: 'read', logs: 'read', configs: 'read', premium: 'read' };

/** Every read of the server dashboard's pages, as the dashboard calls it. */
const READS = [
  '',
  '/config',
  '/config/versions',
  '/config/versions/1',
  '/logs',
  '/logs/actors',
  '/resources',
  '/posts',
  '/statistics',
  '/statistics/feedback',
  '/premium',
  '/transcripts',
  '/tickets',
];

interface Ctx {
  version: number;
  config: ServerConfig;
}

/** Every change the dashboard can make on a server. */
const WRITES: Array<{ name: string; run: (browser: Browser, server: string, ctx: Ctx) => Promise<LightMyRequestResponse> }> = [
  { name: 'PUT /config', run: (b, s, c) => b.request('PUT', `/api/guilds/${s}/config`, { headers: mutation, payload: { expectedVersion: c.version, config: c.config } }) },
  { name: 'POST restore', run: (b, s, c) => b.request('POST', `/api/guilds/${s}/config/versions/1/restore`, { headers: mutation, payload: { expectedVersion: c.version } }) },
  { name: 'POST import/preview', run: (b, s) => b.request('POST', `/api/guilds/${s}/config/import/preview`, { headers: mutation, payload: { file: {} } }) },
  { name: 'POST reset', run: (b, s, c) => b.request('POST', `/api/guilds/${s}/config/reset`, { headers: mutation, payload: { expectedVersion: c.version, confirmName: 'x' } }) },
  { name: 'POST import', run: (b, s, c) => b.request('POST', `/api/guilds/${s}/config/import`, { headers: mutation, payload: { file: {}, expectedVersion: c.version } }) },
  {
    name: 'POST /posts',
    run: (b, s, c) => b.request('POST', `/api/guilds/${s}/posts`, { headers: mutation, payload: { kind: 'panel', id: c.config.panels[0]?.id ?? 'x', channelId: DEMO_CHANNELS.avasArcade.support } }),
  },
  { name: 'POST /posts/…/update', run: (b, s, c) => b.request('POST', `/api/guilds/${s}/posts/panel/${c.config.panels[0]?.id ?? 'x'}/update`, { headers: mutation }) },
  { name: 'PUT /premium', run: (b, s) => b.request('PUT', `/api/guilds/${s}/premium`, { headers: mutation, payload: { provider: 'paddle', subscriptionId: 'sub_x', slot: 1 } }) },
];

function transcript(serverId: string): TranscriptV2 {
  const at = '2026-03-01T09:00:00.000Z';
  return {
    version: 2,
    server: { id: serverId, name: 'Ava’s Arcade', iconUrl: null },
    channel: { id: '1200000000000009101', name: 'ticket-0031' },
    ticket: { id: 't31', number: 31, panelId: 'support', openerId: cleo.id, openedAt: at, closedAt: at, closedBy: ava.id, reason: 'Solved' },
    users: [{ id: cleo.id, username: 'cleo', displayName: 'Cleo', avatarUrl: null, bot: false, staff: false, colour: null }],
    roles: [],
    channels: [],
    messages: [{ id: '1300000000000009101', authorId: cleo.id, content: 'It broke.', createdAt: at, editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] }],
  };
}

describe.each(databases())('staff read of a server dashboard (via staff) on $name', (database) => {
  const t = useTestApp(database);
  const browsers = new Map<string, Browser>();

  beforeAll(async () => {
    await seedDemo(t.app, t.sandbox);
    // The product knows a server once a member's list named it: Ava's names Pixel Pals and her Arcade.
    await as(ava.id);
  });

  beforeEach(async () => {
    await t.db.query('DELETE FROM staff_audit');
    await t.db.query('DELETE FROM staff_members WHERE user_id = $1', [ben.id]);
    // Each test starts a new window of this instance's audit memory.
    t.clock.advance(STAFF_VIEW_AUDIT_WINDOW_MS + MINUTE);
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

  const grant = (userId: string, permissions: string[]) =>
    t.db.query(
      `INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2::text[]) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`,
      [userId, permissions],
    );
  const audit = async () =>
    (await t.db.query<{ staff_id: string; action: string; target: string }>(`SELECT staff_id, action, target FROM staff_audit ORDER BY id`)).rows;
  const live = async (server: string): Promise<Ctx> => {
    const found = await t.app.serverConfigs.live(server);
    return { version: found.version, config: found.config };
  };
  const read = (b: Browser, server: string, path = '', headers: Record<string, string> = DASHBOARD) => b.get(`/api/guilds/${server}${path}`, { headers });

  it('names only routes that exist, every one a GET', () => {
    for (const url of STAFF_READ_ROUTES) expect(t.app.hasRoute({ method: 'GET', url }), url).toBe(true);
    expect(STAFF_READ_ROUTES.has('/api/guilds/:server/config/export')).toBe(false);
  });

  it('a staff member with DASHBOARD_SUPPORT_SEARCH_READ reads a server they are not in and one they have no access to: via staff, every area read, audited once per visit', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    for (const server of [PIXEL, ARCADE]) {
      const res = await read(browser, server);
      expect(res.statusCode, res.body).toBe(200);
      const answer = GuildWithAccess.parse(res.json());
      expect(answer).toMatchObject({ id: server, owner: false, canManage: false, roleAccess: false, botInGuild: true });
      expect(answer.access).toEqual({ via: 'staff', areas: EVERY_AREA_READ, grantedBy: [] });
      // Every page's reads answer.
      for (const path of READS) {
        const page = await read(browser, server, path);
        expect(page.statusCode, `${path}: ${page.body}`).toBe(200);
      }
    }
    expect(GuildWithAccess.parse((await read(browser, PIXEL)).json()).name).toBe('Pixel Pals');
    // One row per server for the whole visit (two dozen calls).
    expect(await audit()).toEqual([
      { staff_id: ben.id, action: 'server.view', target: `server ${PIXEL}` },
      { staff_id: ben.id, action: 'server.view', target: `server ${ARCADE}` },
    ]);
    // Past the window, the next visit is a new row.
    t.clock.advance(STAFF_VIEW_AUDIT_WINDOW_MS + MINUTE);
    expect((await read(browser, PIXEL, '/config')).statusCode).toBe(200);
    expect((await audit()).filter((r) => r.target === `server ${PIXEL}`)).toHaveLength(2);
  });

  it('concurrent calls of one visit wait for its audit row: when it cannot be written, none of them is answered', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    await t.db.query(`ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_test_refuse CHECK (action <> 'server.view')`);
    try {
      const answers = await Promise.all([read(browser, PIXEL, '/config'), read(browser, PIXEL, '/logs'), read(browser, PIXEL)]);
      expect(answers.map((a) => a.statusCode)).toEqual([500, 500, 500]);
      for (const a of answers) expect(a.body).not.toContain('panels');
    } finally {
      await t.db.query('ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_test_refuse');
    }
    expect(await audit()).toEqual([]);
    // The failed claim is not remembered: the next call writes the view and is answered.
    expect((await read(browser, PIXEL, '/config')).statusCode).toBe(200);
    expect(await audit()).toEqual([{ staff_id: ben.id, action: 'server.view', target: `server ${PIXEL}` }]);
  });

  it('another instance (no memory of the visit) does not audit it again within the window', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    expect((await read(browser, PIXEL)).statusCode).toBe(200);
    // A row written by another instance a minute ago counts here too.
    await t.db.query('DELETE FROM staff_audit');
    await t.db.query(`INSERT INTO staff_audit (at, staff_id, action, target) VALUES ($1, $2, 'server.view', $3)`, [new Date(t.clock.now - MINUTE).toISOString(), ben.id, `server ${ARCADE}`]);
    expect((await read(browser, ARCADE)).statusCode).toBe(200);
    expect(await audit()).toHaveLength(1);
  });

  it('never writes: every change is refused with the existing codes, nothing is written or posted', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    const posted = t.sandbox.messages(DEMO_CHANNELS.avasArcade.support).length;
    for (const [server, code] of [
      [PIXEL, ERROR_CODES.SERVER_NOT_FOUND.code],
      [ARCADE, ERROR_CODES.NO_SERVER_ACCESS.code],
    ] as const) {
      const ctx = await live(server);
      for (const write of WRITES) {
        const res = await write.run(browser, server, ctx);
        expect(ApiError.parse(res.json()).code, `${write.name}: ${res.body}`).toBe(code);
      }
      expect((await live(server)).version, server).toBe(ctx.version);
    }
    expect(t.sandbox.messages(DEMO_CHANNELS.avasArcade.support)).toHaveLength(posted);
    // The signed export is no staff read either.
    expect(ApiError.parse((await read(browser, PIXEL, '/config/export')).json()).code).toBe(ERROR_CODES.SERVER_NOT_FOUND.code);
    expect(await audit()).toEqual([]);
  });

  it('only from the dashboard: another site or a navigation is refused (1005), nothing audited', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    for (const headers of [
      {},
      { origin: FOREIGN_ORIGIN, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { ...DASHBOARD, 'sec-purpose': 'prefetch' },
    ] as Array<Record<string, string>>) {
      const res = await read(browser, PIXEL, '', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.CSRF_REJECTED.code);
    }
    expect(await audit()).toEqual([]);
  });

  it('a staff member without the flag and a plain user get the existing refusal; a server the product never saw is 405', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_READ', 'SPECIAL_TEAM_MANAGER_READ']);
    const ben_ = await as(ben.id);
    expect(ApiError.parse((await read(ben_, PIXEL)).json()).code).toBe(ERROR_CODES.SERVER_NOT_FOUND.code);
    expect(ApiError.parse((await read(ben_, ARCADE)).json()).code).toBe(ERROR_CODES.NO_SERVER_ACCESS.code);
    const cleo_ = await as(cleo.id);
    expect(ApiError.parse((await read(cleo_, ARCADE)).json()).code).toBe(ERROR_CODES.SERVER_NOT_FOUND.code);
    expect(ApiError.parse((await read(cleo_, PIXEL, '/config')).json()).code).toBe(ERROR_CODES.NO_SERVER_ACCESS.code);
    // Sam holds every flag, but the product never saw this server.
    const unknown = await read(await as(sam.id), UNKNOWN);
    expect(unknown.statusCode).toBe(404);
    expect(ApiError.parse(unknown.json())).toMatchObject({ code: ERROR_CODES.SERVER_NOT_FOUND.code, selector: true });
    expect(await audit()).toEqual([]);
  });

  it("a staff member's own access stays theirs: Sam on his own server is full, not staff; nothing audited", async () => {
    const res = await read(await as(sam.id), HQ);
    expect(res.statusCode, res.body).toBe(200);
    expect(GuildWithAccess.parse(res.json()).access.via).toBe('full');
    expect(await audit()).toEqual([]);
  });

  it('the flag revoked: the next request of the same session is refused', async () => {
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const browser = await as(ben.id);
    expect((await read(browser, PIXEL, '/config')).statusCode).toBe(200);
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_READ']);
    const refused = await read(browser, PIXEL, '/config');
    expect(refused.statusCode).toBe(404);
    expect(ApiError.parse(refused.json()).code).toBe(ERROR_CODES.SERVER_NOT_FOUND.code);
    await t.db.query('DELETE FROM staff_members WHERE user_id = $1', [ben.id]);
    expect(ApiError.parse((await read(browser, ARCADE, '/logs')).json()).code).toBe(ERROR_CODES.NO_SERVER_ACCESS.code);
  });

  it("reads a server's transcript as staff: said in the server's Web Logs, audited", async () => {
    await t.app.transcripts.store(t.app.config.discord.clientId, PIXEL, 'stafffile1', transcript(PIXEL));
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const res = await (await as(ben.id)).get(`/api/transcripts/v2/${PIXEL}/stafffile1`, { headers: DASHBOARD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-transcript-access']).toBe('staff');
    expect(res.json().messages[0].content).toBe('It broke.');
    expect(await audit()).toEqual([{ staff_id: ben.id, action: 'server.view', target: `server ${PIXEL}` }]);
    const logs = WebLogPage.parse((await (await as(ava.id)).get(`/api/guilds/${PIXEL}/logs?action=transcript.view`)).json());
    expect(logs.entries.some((e) => e.actor.id === ben.id && /\(staff; stafffile1\)/.test(e.target))).toBe(true);
    // An attachment is loaded as an image (no dashboard header): staff read passes the access check
    // (this transcript has none: 404 "no such attachment", not a refusal).
    const attachment = `/api/transcripts/v2/${PIXEL}/stafffile1/attachments/1300000000000009999`;
    const asBen = await as(ben.id);
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-site', referer: `${DASHBOARD_ORIGIN}/transcripts/x` },
      { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
      { referer: `${DASHBOARD_ORIGIN}/` },
    ]) {
      const media = await asBen.get(attachment, { headers });
      expect(media.statusCode, media.body).toBe(404);
      expect(ApiError.parse(media.json()).message).toBe('This transcript has no such attachment.');
    }
    const audited = await audit();
    // Another site's image, link or prefetch must not write an audited view: refused (1005), nothing written.
    await t.db.query('DELETE FROM staff_audit');
    t.clock.advance(STAFF_VIEW_AUDIT_WINDOW_MS + MINUTE);
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'cross-site', referer: `${FOREIGN_ORIGIN}/` },
      { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-origin', 'sec-purpose': 'prefetch' },
      { referer: `${FOREIGN_ORIGIN}/` },
      {},
    ]) {
      const foreign = await asBen.get(attachment, { headers });
      expect(foreign.statusCode, JSON.stringify(headers)).toBe(403);
      expect(ApiError.parse(foreign.json()).code).toBe(ERROR_CODES.CSRF_REJECTED.code);
    }
    expect(await audit()).toEqual([]);
    // The same request from the viewer now writes the next view.
    expect((await asBen.get(attachment, { headers: { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(404);
    expect(await audit()).toHaveLength(1);
    expect(audited).toEqual([{ staff_id: ben.id, action: 'server.view', target: `server ${PIXEL}` }]);
    // Without the flag: refused, as anyone who is not the opener, a manager or support.
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_READ']);
    const refused = await (await as(ben.id)).get(`/api/transcripts/v2/${PIXEL}/stafffile1`, { headers: DASHBOARD });
    expect(refused.statusCode).toBe(403);
    expect((await (await as(ben.id)).get(attachment)).statusCode).toBe(403);
  });
});

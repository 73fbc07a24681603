import { randomBytes } from 'node:crypto';
import { ApiError, defaultServerConfig, newPanel, STAFF_PERMISSIONS, type StaffPermission, StaffSearchAnswer, StaffServerCard, StaffUserCard } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { STAFF_VIEW_AUDIT_WINDOW_MS } from '../../../src/services/staff-audit';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo, sam } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
/** The dashboard's own fetch (its request client's header and origin). */
const dashboard = { headers: { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN } };

/** People and servers to search among (ids outside the sandbox's). */
const PEOPLE: Array<[id: string, username: string, globalName: string | null]> = [
  ['1500000000000000001', 'zoe', 'Zoë'],
  ['1500000000000000002', 'zoey_99', 'Zoey'],
  ['1500000000000000003', 'anna.k', 'Anna Zoellner'],
  ['1500000000000000004', 'bizoe', null],
  ['1500000000000000005', 'renee_b', 'Renée Dubois'],
  ['1500000000000000006', 'RENEE', null],
  ['1500000000000000007', 'jurgen', 'Jürgen Weiß'],
  ['1500000000000000008', 'percent', '100% Real_Name'],
];
const SERVERS: Array<[id: string, name: string]> = [
  ['1510000000000000001', 'Café Crew'],
  ['1510000000000000002', 'Cafe Society'],
  ['1510000000000000003', 'The Café'],
  ['1510000000000000004', 'CAFÉ'],
  ['1510000000000000005', 'Crew of the Cafeteria'],
  ['1510000000000000006', 'Łódź Gamers'],
];

/** A signed-in browser of a user (a session of its own), and setting a user's staff flags. */
function people(t: ReturnType<typeof useTestApp>) {
  return {
    as: async (userId: string) => {
      const browser = new Browser(t.app);
      await signIn(browser, userId);
      return browser;
    },
    grant: (userId: string, flags: readonly StaffPermission[]) =>
      t.db.query(
        `INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2::text[]) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`,
        [userId, flags],
      ),
  };
}

describe.each(databases())('Staff: support search and cards (/api/staff/search, users, servers) on $name', (database) => {
  const t = useTestApp(database);
  const { as, grant } = people(t);
  const audit = async () =>
    (await t.db.query<{ staff_id: string; action: string; target: string }>(`SELECT staff_id, action, target FROM staff_audit WHERE action LIKE 'support.%' ORDER BY id`)).rows;

  /** Ava signed in, with a Paddle subscription whose slot covers Ava's Arcade (since now: returned). */
  async function avaWithPremium(): Promise<string> {
    await as(ava.id);
    const at = new Date(t.clock()).toISOString();
    await t.db.query(
      `INSERT INTO subscriptions (id, user_id, provider, provider_subscription_id, status, premium, plan_id, billing_interval, slots)
       VALUES ('search-sub', $1, 'paddle', 'sub_search_1', 'active', true, 'premium', 'month', 1) ON CONFLICT DO NOTHING`,
      [ava.id],
    );
    await t.db.query(`INSERT INTO premium_slots (subscription_id, slot, guild_id, assigned_at) VALUES ('search-sub', 1, $1, $2) ON CONFLICT DO NOTHING`, [ARCADE, at]);
    return at;
  }

  async function seedPeople(): Promise<void> {
    const now = new Date(t.clock()).toISOString();
    for (const [id, username, globalName] of PEOPLE) {
      await t.db.query(
        `INSERT INTO users (id, username, global_name, avatar, created_at, updated_at) VALUES ($1, $2, $3, NULL, $4, $4)
         ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, global_name = EXCLUDED.global_name`,
        [id, username, globalName, now],
      );
    }
    for (const [id, name] of SERVERS) {
      await t.db.query(`INSERT INTO guilds (id, name, icon, bot_in_guild, updated_at) VALUES ($1, $2, NULL, true, $3) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`, [
        id,
        name,
        now,
      ]);
    }
  }

  it('only staff holding DASHBOARD_SUPPORT_SEARCH_READ search and open cards: 401 for a visitor, 1004 for a user and every other flag', async () => {
    await t.db.query('DELETE FROM staff_audit');
    const routes = ['/api/staff/search?q=ava', `/api/staff/users/${ava.id}`, `/api/staff/servers/${ARCADE}`];
    await as(ava.id); // Ava and her servers are known
    for (const url of routes) {
      const visitor = await new Browser(t.app).get(url, dashboard);
      expect(visitor.statusCode, url).toBe(401);
      expect(ApiError.parse(visitor.json()).code).toBe(401);
    }
    const cleo_ = await as(cleo.id);
    for (const url of routes) {
      const refused = await cleo_.get(url, dashboard);
      expect(refused.statusCode, url).toBe(403);
      expect(ApiError.parse(refused.json()).code).toBe(1004);
    }
    const ben_ = await as(ben.id);
    for (const flag of STAFF_PERMISSIONS) {
      await grant(ben.id, [flag]);
      for (const url of routes) {
        const res = await ben_.get(url, dashboard);
        if (flag === 'DASHBOARD_SUPPORT_SEARCH_READ') expect(res.statusCode, `${flag} ${url}: ${res.body}`).toBe(200);
        else {
          expect(res.statusCode, `${flag} ${url}`).toBe(403);
          expect(ApiError.parse(res.json()).code).toBe(1004);
        }
      }
    }
    // Only the two card views with the flag were written; the refusals wrote nothing.
    expect(await audit()).toEqual([
      { staff_id: ben.id, action: 'support.user.view', target: `user ${ava.id}` },
      { staff_id: ben.id, action: 'support.server.view', target: `server ${ARCADE}` },
    ]);
    // The flag revoked: the next request of the same session is refused.
    await grant(ben.id, []);
    expect((await ben_.get('/api/staff/search?q=ava')).statusCode).toBe(403);
  });

  it('finds people and servers by a part of the name, whatever the case and accents, best matches first', async () => {
    await seedPeople();
    const sam_ = await as(sam.id);
    const search = async (query: string) => {
      const res = await sam_.get(`/api/staff/search?q=${encodeURIComponent(query)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      return StaffSearchAnswer.parse(res.json());
    };
    // Ranked: the whole name, its start, the start of a word, anywhere, similar.
    const zoe = await search('zoe');
    expect(zoe.users.map((u) => [u.username, u.match])).toEqual([
      ['zoe', 'exact'],
      ['zoey_99', 'prefix'],
      ['anna.k', 'word'],
      ['bizoe', 'contains'],
    ]);
    // Case and accents never matter: the same answer, in the same order.
    for (const q of ['ZOË', 'Zoë', '  zoe  ', 'zoé']) expect((await search(q)).users.map((u) => u.id)).toEqual(zoe.users.map((u) => u.id));
    const renee = await search('Renée');
    expect(renee.users.map((u) => [u.username, u.match])).toEqual([
      ['RENEE', 'exact'],
      ['renee_b', 'prefix'],
    ]);
    expect((await search('jurgen weiss')).users.map((u) => u.username)).toEqual(['jurgen']);
    expect((await search('lodz')).servers.map((s) => s.name)).toEqual(['Łódź Gamers']);
    // Servers: partial, ranked, accent- and case-insensitive.
    const cafe = await search('cafe');
    expect(cafe.servers.map((s) => [s.name, s.match])).toEqual([
      ['CAFÉ', 'exact'],
      ['Café Crew', 'prefix'],
      ['Cafe Society', 'prefix'],
      ['The Café', 'word'],
      ['Crew of the Cafeteria', 'word'],
    ]);
    expect((await search('caf')).servers).toHaveLength(5);
    // Two letters: the start of names only (trigrams need three).
    expect((await search('ca')).servers.map((s) => s.name)).toEqual(['CAFÉ', 'Café Crew', 'Cafe Society']);
    // A typo still finds the name (similar), after nothing better.
    const typo = await search('renne');
    expect(typo.users.length).toBeGreaterThan(0);
    expect(typo.users.every((u) => u.match === 'similar')).toBe(true);
    expect(typo.users.map((u) => u.username)).toContain('RENEE');
    // LIKE's wildcards are taken literally.
    expect((await search('100%')).users.map((u) => u.username)).toEqual(['percent']);
    expect((await search('e%e')).users).toEqual([]);
    expect((await search('e_e')).users).toEqual([]);
    // An id: exactly that user or server, with avatar and icon addresses.
    const byId = await search(PEOPLE[4]![0]);
    expect(byId.users).toEqual([{ id: PEOPLE[4]![0], username: 'renee_b', globalName: 'Renée Dubois', avatarUrl: expect.stringContaining('/embed/avatars/'), match: 'id' }]);
    expect(byId.servers).toEqual([]);
    expect((await search(SERVERS[0]![0])).servers).toEqual([{ id: SERVERS[0]![0], name: 'Café Crew', iconUrl: null, botInGuild: true, match: 'id' }]);
    expect(await search('nobody-by-this-name')).toEqual({ q: 'nobody-by-this-name', users: [], servers: [] });
    // At most 20 of each.
    const now = new Date(t.clock()).toISOString();
    await t.db.query(
      `INSERT INTO users (id, username, global_name, avatar, created_at, updated_at)
       SELECT (1500000000000001000 + i)::text, 'many' || i, NULL, NULL, $1, $1 FROM generate_series(1, 30) AS i ON CONFLICT DO NOTHING`,
      [now],
    );
    const many = await search('many');
    expect(many.users).toHaveLength(20);
    // The shortest names first among equal matches.
    expect(many.users.slice(0, 9).map((u) => u.username)).toEqual(['many1', 'many2', 'many3', 'many4', 'many5', 'many6', 'many7', 'many8', 'many9']);
    // No query, or one too long: 400.
    for (const q of ['', '%20%20', 'x'.repeat(101)]) {
      const bad = await sam_.get(`/api/staff/search?q=${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(ApiError.parse(bad.json()).code).toBe(1001);
    }
    expect((await sam_.get('/api/staff/search')).statusCode).toBe(400);
  });

  it("a user's card: profile, servers they manage, subscriptions, tickets with transcripts; audited, only from the dashboard", async () => {
    await t.db.query('DELETE FROM staff_audit');
    const at = await avaWithPremium();
    // Two tickets of Ava's at the Arcade: one with its transcript stored, one still open.
    for (const [ticket, number, transcript] of [
      ['t-closed', 7, 'file-7'],
      ['t-open', 8, null],
    ] as const) {
      await t.db.query(
        `INSERT INTO tickets (bot_id, guild_id, ticket_id, number, panel_id, opener_id, opened_at, closed_at, transcript_id, updated_at)
         VALUES ($1, $2, $3, $4::int, 'support', $5, $6::timestamptz - ($4::int * interval '1 hour'), CASE WHEN $7::text IS NULL THEN NULL ELSE $6::timestamptz END, $7, $6)`,
        [t.config.discord.clientId, ARCADE, ticket, number, ava.id, at, transcript],
      );
    }
    await t.db.query(
      `INSERT INTO transcripts (guild_id, file_id, bot_id, ticket_id, number, panel_id, opener_id, opener_name, opened_at, closed_at, message_count, search_text, json_bytes, content, created_at)
       VALUES ($1, 'file-7', $2, 't-closed', 7, 'support', $3, 'Ava', $4, $4, 3, '', 10, '\\x00', $4)`,
      [ARCADE, t.config.discord.clientId, ava.id, at],
    );

    const ben_ = await as(ben.id);
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const res = await ben_.get(`/api/staff/users/${ava.id}`, dashboard);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const card = StaffUserCard.parse(res.json());
    expect(card.user).toMatchObject({ id: ava.id, username: 'ava', globalName: 'Ava', avatarUrl: expect.stringContaining(`/avatars/${ava.id}/`) });
    expect(card.user.guildsRefreshedAt).not.toBeNull();
    // Owner of two servers, Administrator of one, Manage Server on Retro Modders; a plain member of Cozy Corner (not listed).
    expect(card.servers.map((s) => [s.name, s.owner])).toEqual([
      ["Ava's Arcade", true],
      ['Pixel Pals', true],
      ['Study Hall', false],
      ['Retro Modders', false],
    ]);
    expect(card.subscriptions).toHaveLength(1);
    expect(card.subscriptions[0]).toMatchObject({ provider: 'paddle', id: 'sub_search_1', premium: true, slots: [expect.objectContaining({ guildId: ARCADE })] });
    expect(card.canViewBilling).toBe(false);
    // What the user pays with is billing's: not for search's flag alone.
    await t.db.query(`UPDATE subscriptions SET payment_method = 'Visa •••• 4242' WHERE id = 'search-sub'`);
    const again = StaffUserCard.parse((await ben_.get(`/api/staff/users/${ava.id}`, dashboard)).json());
    expect(again.subscriptions[0]).toMatchObject({ paymentMethod: null, actions: [] });
    expect(card.tickets.map((k) => [k.ticketId, k.number, k.transcriptId, k.closedAt === null])).toEqual([
      ['t-closed', 7, 'file-7', false],
      ['t-open', 8, null, true],
    ]);
    expect(card.tickets[0]).toMatchObject({ serverId: ARCADE, serverName: "Ava's Arcade", panelId: 'support', openerId: ava.id });

    // The billing link's flag: with DASHBOARD_SUPPORT_SYSTEM_READ too, and for an owner.
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_READ']);
    const withBilling = StaffUserCard.parse((await ben_.get(`/api/staff/users/${ava.id}`, dashboard)).json());
    expect(withBilling.canViewBilling).toBe(true);
    expect(withBilling.subscriptions[0]?.paymentMethod).toBe('Visa •••• 4242');
    const sam_ = await as(sam.id);
    expect(StaffUserCard.parse((await sam_.get(`/api/staff/users/${ava.id}`, dashboard)).json()).canViewBilling).toBe(true);
    // A fetch the browser made for a same-site page of the dashboard (Fetch Metadata) passes too.
    const fetchMetadata = await sam_.get(`/api/staff/users/${ava.id}`, {
      headers: { origin: DASHBOARD_ORIGIN, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    });
    expect(fetchMetadata.statusCode).toBe(200);
    // One row per staff member and card within the view window (Ben's three fetches are one view).
    expect(await audit()).toEqual([
      { staff_id: ben.id, action: 'support.user.view', target: `user ${ava.id}` },
      { staff_id: sam.id, action: 'support.user.view', target: `user ${ava.id}` },
    ]);

    // Not the dashboard's fetch (a link, another site's page, a frame, a prefetch): refused, nothing written.
    for (const headers of [
      {},
      { origin: FOREIGN_ORIGIN, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', referer: `${DASHBOARD_ORIGIN}/` },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN, 'sec-purpose': 'prefetch' },
    ] as Array<Record<string, string>>) {
      const refused = await sam_.get(`/api/staff/users/${ava.id}`, { headers });
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(ApiError.parse(refused.json()).code).toBe(1005);
    }
    expect(await audit()).toHaveLength(2);
    // Past the window, the next fetch is a new view.
    t.clock.advance(STAFF_VIEW_AUDIT_WINDOW_MS + 1000);
    expect(await sam_.get(`/api/staff/users/${ava.id}`, { headers: { 'sec-fetch-site': 'cross-site' } }).then((r) => r.statusCode)).toBe(403);
    expect(await audit()).toHaveLength(2);
    expect((await sam_.get(`/api/staff/users/${ava.id}`, dashboard)).statusCode).toBe(200);
    expect(await audit()).toHaveLength(3);

    // Nobody by that id: 404, nothing written; not an id: 400.
    expect((await sam_.get('/api/staff/users/1999999999999999999', dashboard)).statusCode).toBe(404);
    const bad = await sam_.get('/api/staff/users/not-an-id', dashboard);
    expect(bad.statusCode).toBe(400);
    expect(ApiError.parse(bad.json()).code).toBe(1001);
    expect(await audit()).toHaveLength(3);
  });

  it("a server's card: premium and the subscription covering it, panels, managers, recent Web Logs, tickets and transcripts; audited", async () => {
    await t.db.query('DELETE FROM staff_audit');
    await avaWithPremium();
    const live = await t.app.serverConfigs.live(ARCADE);
    if (live.version === 0) {
      await t.app.serverConfigs.save({
        guildId: ARCADE,
        expectedVersion: 0,
        config: { ...defaultServerConfig(), panels: [newPanel('support', { name: 'Support', title: 'Support', description: 'Ask us', button: 'Open' })] },
        actor: { id: ava.id, name: 'Ava', avatarUrl: null },
      });
    }

    const sam_ = await as(sam.id);
    const res = await sam_.get(`/api/staff/servers/${ARCADE}`, dashboard);
    expect(res.statusCode, res.body).toBe(200);
    const card = StaffServerCard.parse(res.json());
    expect(card.server).toMatchObject({ id: ARCADE, name: "Ava's Arcade", botInGuild: true, iconUrl: expect.stringContaining(`/icons/${ARCADE}/`) });
    expect(card.premium.active).toBe(true);
    expect(card.premium.coveredBy).toMatchObject({ slot: 1, owner: { id: ava.id, name: 'Ava' }, subscription: { provider: 'paddle', id: 'sub_search_1', userId: ava.id } });
    expect(card.canViewBilling).toBe(true);
    expect(card.config).toMatchObject({ version: 1, panels: 1, multiPanels: 0 });
    expect(card.managers).toEqual([{ id: ava.id, name: 'Ava', avatarUrl: expect.any(String), owner: true }]);
    expect(card.webLogs[0]).toMatchObject({ action: 'config.update', actor: { id: ava.id } });
    expect(await audit()).toEqual([{ staff_id: sam.id, action: 'support.server.view', target: `server ${ARCADE}` }]);

    // A server without premium; one nobody who signed in is on: 404.
    const pixel = StaffServerCard.parse((await sam_.get(`/api/staff/servers/${DEMO_GUILDS.pixelPals.id}`, dashboard)).json());
    expect(pixel.premium).toEqual({ active: false, coveredBy: null });
    expect(pixel.config.version).toBe(0);
    expect((await sam_.get('/api/staff/servers/1999999999999999999', dashboard)).statusCode).toBe(404);
    // Not from the dashboard: refused, nothing written.
    expect((await sam_.get(`/api/staff/servers/${ARCADE}`)).statusCode).toBe(403);
    expect(await audit()).toHaveLength(2);
  });
});

describe.each(databases())('Staff: signing a user out everywhere (POST /api/staff/users/:user/sessions/end) on $name', (database) => {
  const t = useTestApp(database);
  const { as, grant } = people(t);
  const end = (browser: Browser, userId: string, headers: Record<string, string> = { 'content-type': 'application/json', ...dashboard.headers }) =>
    browser.request('POST', `/api/staff/users/${userId}/sessions/end`, { headers, payload: {} });
  beforeEach(async () => {
    await t.db.query('DELETE FROM staff_audit');
  });
  const endAudit = async () =>
    (await t.db.query<{ staff_id: string; target: string; after: unknown }>(`SELECT staff_id, target, after FROM staff_audit WHERE action = 'user.sessions.end' ORDER BY id`)).rows;

  it('only DASHBOARD_SUPPORT_SYSTEM_WRITE ends them: every live session of the user at once, audited with the count; the card says how many and whether the viewer may', async () => {
    const avaPhone = await as(ava.id);
    const avaLaptop = await as(ava.id);
    const visitor = new Browser(t.app);
    expect((await end(visitor, ava.id)).statusCode).toBe(401);
    const cleo_ = await as(cleo.id);
    expect(ApiError.parse((await end(cleo_, ava.id)).json()).code).toBe(1004);
    // Every other single flag: 1004, nothing ended.
    const ben_ = await as(ben.id);
    for (const flag of STAFF_PERMISSIONS.filter((f) => f !== 'DASHBOARD_SUPPORT_SYSTEM_WRITE')) {
      await grant(ben.id, [flag]);
      const refused = await end(ben_, ava.id);
      expect(refused.statusCode, flag).toBe(403);
      expect(ApiError.parse(refused.json()).code).toBe(1004);
    }
    expect((await avaPhone.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
    // Search staff see the count, and that they may not end them.
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    expect(StaffUserCard.parse((await ben_.get(`/api/staff/users/${ava.id}`, dashboard)).json()).sessions).toEqual({ active: 2, canEnd: false });
    // Another site's form or a request without the dashboard's headers: 403 1005, nothing ended.
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    const foreign = await end(ben_, ava.id, { 'content-type': 'application/json', origin: FOREIGN_ORIGIN });
    expect(foreign.statusCode).toBe(403);
    expect(ApiError.parse(foreign.json()).code).toBe(1005);
    expect(await endAudit()).toEqual([]);
    expect(StaffUserCard.parse((await ben_.get(`/api/staff/users/${ava.id}`, dashboard)).json()).sessions).toEqual({ active: 2, canEnd: true });

    const ok = await end(ben_, ava.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ended: 2 });
    for (const browser of [avaPhone, avaLaptop]) expect((await browser.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: false });
    expect(await endAudit()).toEqual([{ staff_id: ben.id, target: `user ${ava.id}`, after: { ended: 2 } }]);
    // Nobody left to sign out: 0, still audited; the staff member's own session is untouched.
    expect((await end(ben_, ava.id)).json()).toEqual({ ended: 0 });
    expect((await ben_.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
    // Ava signs in again as usual.
    expect((await (await as(ava.id)).get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
  });

  it('staff do not sign out those above them: an owner only by an owner, a member only by someone holding every flag they hold', async () => {
    const { nico } = DEMO_USERS;
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    await grant(nico.id, ['DASHBOARD_SUPPORT_SYSTEM_READ']);
    const samSession = await as(sam.id);
    await as(nico.id);
    const ben_ = await as(ben.id);
    const owner = await end(ben_, sam.id);
    expect(owner.statusCode).toBe(403);
    expect(ApiError.parse(owner.json())).toMatchObject({ code: 1028, message: expect.stringContaining('Only an owner') });
    const above = await end(ben_, nico.id);
    expect(above.statusCode).toBe(403);
    expect(ApiError.parse(above.json())).toMatchObject({ code: 1026, message: expect.stringContaining('DASHBOARD_SUPPORT_SYSTEM_READ') });
    expect(await endAudit()).toEqual([]);
    expect((await samSession.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
    // The cards say so, and the page offers no button then.
    const cardOf = async (id: string) => StaffUserCard.parse((await ben_.get(`/api/staff/users/${id}`, dashboard)).json()).sessions.canEnd;
    expect(await cardOf(sam.id)).toBe(false);
    expect(await cardOf(nico.id)).toBe(false);
    expect(await cardOf(ava.id)).toBe(true);
    // Holding every flag Nico holds, Ben may; the owner may sign Ben out.
    await grant(ben.id, ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_READ']);
    const live = await t.app.sessions.countLive(nico.id);
    expect(live).toBeGreaterThan(0);
    expect((await end(ben_, nico.id)).json()).toEqual({ ended: live });
    const bens = await t.app.sessions.countLive(ben.id);
    expect((await end(samSession, ben.id)).json()).toEqual({ ended: bens });
    expect((await ben_.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: false });
  });

  it('an unknown user is 404 and a malformed id 400; nothing written', async () => {
    await grant(sam.id, []);
    const sam_ = await as(sam.id);
    expect((await end(sam_, '1999999999999999999')).statusCode).toBe(404);
    const bad = await end(sam_, 'not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(ApiError.parse(bad.json()).code).toBe(1001);
    expect(await endAudit()).toEqual([]);
  });

  it('rolls back when its audit row cannot be written: the sessions stay', async () => {
    const avaBrowser = await as(ava.id);
    const sam_ = await as(sam.id);
    await t.db.query(`ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_test_refuse CHECK (action <> 'user.sessions.end')`);
    try {
      expect((await end(sam_, ava.id)).statusCode).toBe(500);
    } finally {
      await t.db.query('ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_test_refuse');
    }
    expect((await avaBrowser.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
  });
});

describe('Staff: per-session limits on support search, its cards and the audit (STAFF_RATE_LIMIT_MAX)', () => {
  const t = useTestApp(databases()[0]!, { env: { STAFF_RATE_LIMIT_MAX: '3' } });

  it('a staff member past the limit gets 429 code 1003 with Retry-After, however the cookie is spelt and in every session; another member has their own', async () => {
    await t.db.query(`INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2::text[]) ON CONFLICT (user_id) DO NOTHING`, [ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ']]);
    const first = new Browser(t.app);
    await signIn(first, sam.id);
    for (let i = 0; i < 3; i++) expect((await first.get('/api/staff/search?q=ava')).statusCode).toBe(200);
    const refused = await first.get('/api/staff/search?q=ava');
    expect(refused.statusCode).toBe(429);
    expect(ApiError.parse(refused.json()).code).toBe(1003);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another cookie, or the session cookie percent-encoded (the same session), is the same caller.
    expect((await first.get('/api/staff/search?q=ava', { headers: { cookie: `${first.cookieHeader()}; extra=${Date.now()}` } })).statusCode).toBe(429);
    const encoded = first.cookieHeader().replace(/=(.)/, (_m, c: string) => `=%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    expect(encoded).not.toBe(first.cookieHeader());
    expect((await first.get('/api/staff/search?q=ava', { headers: { cookie: encoded } })).statusCode).toBe(429);
    // A second session of the same member shares the count.
    const again = new Browser(t.app);
    await signIn(again, sam.id);
    expect((await again.get('/api/staff/search?q=ava')).statusCode).toBe(429);
    // Each route counts on its own: the audit still answers.
    for (let i = 0; i < 3; i++) expect((await first.get('/api/staff/audit')).statusCode).toBe(200);
    expect((await first.get('/api/staff/audit')).statusCode).toBe(429);
    // Another staff member has their own.
    const ben_ = new Browser(t.app);
    await signIn(ben_, ben.id);
    expect((await ben_.get('/api/staff/search?q=ava')).statusCode).toBe(200);
  });

  it('made-up session tokens count against the address, not a fresh budget each', async () => {
    const visitor = new Browser(t.app);
    const made = () => `tickety_session=${randomBytes(32).toString('base64url')}`;
    for (let i = 0; i < 3; i++) expect((await visitor.get('/api/staff/search?q=ava', { headers: { cookie: made() } })).statusCode).toBe(401);
    const refused = await visitor.get('/api/staff/search?q=ava', { headers: { cookie: made() } });
    expect(refused.statusCode).toBe(429);
  });
});

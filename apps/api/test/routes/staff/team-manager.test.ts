import {
  ApiError,
  ERROR_CODES,
  STAFF_PERMISSIONS,
  StaffAuditAnswer,
  StaffLookupAnswer,
  type StaffPermission,
  StaffTeamAnswer,
  StaffTeamPutAnswer,
} from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STAFF_AUDIT_ACTIONS } from '../../../src/services/staff-audit';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { HOUR, MINUTE } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo, sam, nico } = DEMO_USERS;
/** A Discord user the dashboard never saw (answered by the test's Discord, not the sandbox). */
const STRANGER = { id: '1000000000000000777', username: 'zoe', global_name: 'Zoë', avatar: 'abcabcabcabcabcabcabcabcabcabc77' };
const UNKNOWN = '1000000000000000999';

type Route = { method: 'GET' | 'PUT' | 'DELETE'; url: string; body?: unknown; needs: StaffPermission };

describe.each(databases())('Staff: team manager (/api/staff/team, /api/staff/audit) on $name', (database) => {
  /** The test's Discord for `GET /users/:id` (the bot's lookup): a user object, or an HTTP status. */
  const discordUsers = new Map<string, object | number>();
  /** Every `GET /users/:id` the API sent to Discord. */
  const askedDiscord: string[] = [];
  const t = useTestApp(database, {
    wrapFetch: (inner) => async (url, init) => {
      const match = /\/api\/v10\/users\/(\d{17,20})$/.exec(new URL(url).pathname);
      if (match) askedDiscord.push(match[1]!);
      const answer = match ? discordUsers.get(match[1]!) : undefined;
      if (answer === undefined) return inner(url, init);
      if (typeof answer === 'number') {
        return new Response(JSON.stringify({ message: answer === 404 ? 'Unknown User' : 'Service Unavailable', code: answer === 404 ? 10013 : 0 }), {
          status: answer,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });

  const browsers = new Map<string, Browser>();
  /** A signed-in browser of this user (one session each, kept across tests). */
  const as = async (userId: string) => {
    let browser = browsers.get(userId);
    if (!browser) {
      browser = new Browser(t.app);
      await signIn(browser, userId);
      browsers.set(userId, browser);
    }
    return browser;
  };
  const send = (browser: Browser, method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    browser.request(method, url, {
      headers: method === 'GET' ? headers : { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN, ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
  const call = (browser: Browser, route: Route) => send(browser, route.method, route.url, route.body);

  async function setStaff(userId: string, permissions: readonly StaffPermission[]) {
    await t.db.query(
      `INSERT INTO staff_members (user_id, permissions, created_at, updated_at) VALUES ($1, $2::text[], now(), now())
       ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions, grants = '{}'::jsonb`,
      [userId, [...permissions]],
    );
  }
  const staffRows = async () =>
    (await t.db.query<{ user_id: string; permissions: string[] }>('SELECT user_id, permissions FROM staff_members ORDER BY user_id')).rows;
  const auditRows = async () =>
    (
      await t.db.query<{ staff_id: string; action: string; target: string; before: unknown; after: unknown }>(
        'SELECT staff_id, action, target, before, after FROM staff_audit ORDER BY id',
      )
    ).rows;
  const code = (res: LightMyRequestResponse) => ApiError.parse(res.json()).code;

  beforeAll(async () => {
    // Everyone signs in once (their users rows, names and avatars, exist from then on).
    for (const user of [ava, ben, cleo, sam, nico]) await as(user.id);
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM staff_members');
    await t.db.query('DELETE FROM staff_audit');
    discordUsers.clear();
    askedDiscord.length = 0;
  });

  it('answers each route only to staff holding its flag: visitor 401, ordinary user 1004, each single flag', async () => {
    const routes = (flag: StaffPermission): Route[] => [
      { method: 'GET', url: '/api/staff/team', needs: 'SPECIAL_TEAM_MANAGER_READ' },
      { method: 'GET', url: '/api/staff/audit', needs: 'SPECIAL_TEAM_MANAGER_READ' },
      { method: 'GET', url: `/api/staff/team/lookup/${ava.id}`, needs: 'SPECIAL_TEAM_MANAGER_WRITE' },
      // Grants Ava the very flag the caller holds: only the route's own flag can refuse it.
      { method: 'PUT', url: `/api/staff/team/${ava.id}`, body: { permissions: [flag] }, needs: 'SPECIAL_TEAM_MANAGER_WRITE' },
      { method: 'DELETE', url: `/api/staff/team/${nico.id}`, needs: 'SPECIAL_TEAM_MANAGER_WRITE' },
    ];
    const visitor = new Browser(t.app);
    const cleo_ = await as(cleo.id);
    for (const route of routes('SPECIAL_TEAM_MANAGER_READ')) {
      const res = await call(visitor, route);
      expect(res.statusCode, `${route.method} ${route.url} as a visitor`).toBe(401);
      expect(code(res)).toBe(ERROR_CODES.UNAUTHENTICATED.code);
      const refused = await call(cleo_, route);
      expect(refused.statusCode, `${route.method} ${route.url} as Cleo`).toBe(403);
      expect(code(refused)).toBe(ERROR_CODES.STAFF_PERMISSION_REQUIRED.code);
    }
    expect(await staffRows()).toEqual([]);

    const ben_ = await as(ben.id);
    for (const flag of STAFF_PERMISSIONS) {
      for (const route of routes(flag)) {
        await t.db.query('DELETE FROM staff_members');
        await setStaff(ben.id, [flag]);
        await setStaff(nico.id, [flag]);
        const res = await call(ben_, route);
        if (flag === route.needs && route.method !== 'GET') {
          // Past the route's guard; the change itself touches SPECIAL_TEAM_MANAGER_WRITE (granted to Ava,
          // or held by Nico), which only an owner changes: 1029, nothing written.
          expect(res.statusCode, `${route.method} ${route.url} with ${flag}: ${res.body}`).toBe(403);
          expect(code(res)).toBe(ERROR_CODES.STAFF_MANAGER_OWNER_ONLY.code);
        } else if (flag === route.needs) {
          expect(res.statusCode, `${route.method} ${route.url} with ${flag}: ${res.body}`).toBe(200);
        } else {
          expect(res.statusCode, `${route.method} ${route.url} with ${flag}`).toBe(403);
          expect(code(res)).toBe(ERROR_CODES.STAFF_PERMISSION_REQUIRED.code);
          expect(res.json().message).toContain(route.needs);
          // Refused: nothing changed.
          expect(await staffRows()).toEqual([
            { user_id: ben.id, permissions: [flag] },
            { user_id: nico.id, permissions: [flag] },
          ]);
        }
      }
    }
    expect(await auditRows()).toEqual([]);
  });

  it('only an owner changes who manages the team: granting, revoking or removing SPECIAL_TEAM_MANAGER_WRITE is 1029 for anyone else, nothing written', async () => {
    await setStaff(ben.id, ['SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    await setStaff(nico.id, ['SPECIAL_TEAM_MANAGER_WRITE']);
    const before = await staffRows();
    const ben_ = await as(ben.id);
    for (const [what, pending] of [
      ['grant to a new member', send(ben_, 'PUT', `/api/staff/team/${ava.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_WRITE'] })],
      ['revoke', send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] })],
      ['remove a manager', send(ben_, 'DELETE', `/api/staff/team/${nico.id}`)],
    ] as const) {
      const res = await pending;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      expect(code(res), what).toBe(ERROR_CODES.STAFF_MANAGER_OWNER_ONLY.code);
      expect(res.json().message, what).toMatch(/nothing was changed/);
    }
    expect(await staffRows()).toEqual(before);
    expect(await auditRows()).toEqual([]);
    // A change that leaves the manager flag as it is stays Ben's to make.
    const kept = await send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ'] });
    expect(kept.statusCode, kept.body).toBe(200);
    // The owner grants and revokes it.
    const sam_ = await as(sam.id);
    expect((await send(sam_, 'PUT', `/api/staff/team/${ava.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_WRITE'] })).statusCode).toBe(200);
    expect((await send(sam_, 'DELETE', `/api/staff/team/${nico.id}`)).statusCode).toBe(200);
    expect((await auditRows()).map((r) => [r.staff_id, r.action])).toEqual([
      [ben.id, 'team.update'],
      [sam.id, 'team.add'],
      [sam.id, 'team.remove'],
    ]);
  });

  it('lists every member: owners marked with every flag, the others with who granted each flag and when', async () => {
    const sam_ = await as(sam.id);
    const start = t.clock();
    expect((await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] })).statusCode).toBe(200);
    t.clock.advance(HOUR);
    expect((await send(sam_, 'PUT', `/api/staff/team/${ben.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ'] })).statusCode).toBe(200);
    t.clock.advance(HOUR);
    // Ben grants Nico a flag he holds himself.
    const ben_ = await as(ben.id);
    const granted = await send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ'] });
    expect(granted.statusCode, granted.body).toBe(200);

    const res = await sam_.get('/api/staff/team');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { members } = StaffTeamAnswer.parse(res.json());
    expect(members.map((m) => [m.name, m.owner])).toEqual([
      ['Sam', true],
      ['Ben', false],
      ['Nico', false],
    ]);
    const [samRow, benRow, nicoRow] = members;
    expect(samRow).toMatchObject({ id: sam.id, owner: true, permissions: [...STAFF_PERMISSIONS], addedBy: null });
    expect(samRow!.avatarUrl).toContain(`/avatars/${sam.id}/${sam.avatar}.png`);
    expect(benRow!.avatarUrl).toMatch(/\/embed\/avatars\/\d\.png$/);
    expect(benRow).toMatchObject({ addedBy: { id: sam.id, name: 'Sam' }, addedAt: new Date(start + HOUR).toISOString() });
    expect(nicoRow!.permissions).toEqual(['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ']);
    expect(nicoRow!.grants).toEqual([
      { permission: 'DASHBOARD_SUPPORT_SEARCH_READ', grantedBy: expect.objectContaining({ id: sam.id, name: 'Sam' }), grantedAt: new Date(start).toISOString() },
      { permission: 'SPECIAL_TEAM_MANAGER_READ', grantedBy: expect.objectContaining({ id: ben.id, name: 'Ben' }), grantedAt: new Date(start + 2 * HOUR).toISOString() },
    ]);
  });

  it('refuses a grant or revocation of a flag the editor does not hold, self-edits and owners: clear codes, nothing written', async () => {
    await setStaff(ben.id, ['SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    await setStaff(nico.id, ['DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE']);
    const before = await staffRows();
    const ben_ = await as(ben.id);
    const sam_ = await as(sam.id);
    const refusals: Array<[string, Promise<LightMyRequestResponse>, number, RegExp]> = [
      // Grant without holding it (to a member, and to a new one).
      ['grant', send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SYSTEM_READ'] }), 1026, /DASHBOARD_SUPPORT_SYSTEM_READ/],
      ['grant new', send(ben_, 'PUT', `/api/staff/team/${ava.id}`, { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] }), 1026, /You do not hold DASHBOARD_SUPPORT_SYSTEM_READ/],
      // Revoke without holding it (directly, or by removing the member).
      ['revoke', send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] }), 1026, /DASHBOARD_SUPPORT_SYSTEM_WRITE/],
      ['remove', send(ben_, 'DELETE', `/api/staff/team/${nico.id}`), 1026, /DASHBOARD_SUPPORT_SYSTEM_WRITE/],
      // One's own flags, even only taking one away, even removing oneself.
      ['self', send(ben_, 'PUT', `/api/staff/team/${ben.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE'] }), 1027, /own staff flags/],
      ['self remove', send(ben_, 'DELETE', `/api/staff/team/${ben.id}`), 1027, /own staff flags/],
      // An owner: by a member, by another owner's peer, by the owner themself.
      ['owner', send(ben_, 'PUT', `/api/staff/team/${sam.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] }), 1028, /STAFF_OWNER_IDS/],
      ['owner remove', send(ben_, 'DELETE', `/api/staff/team/${sam.id}`), 1028, /STAFF_OWNER_IDS/],
      ['owner self', send(sam_, 'PUT', `/api/staff/team/${sam.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] }), 1028, /STAFF_OWNER_IDS/],
    ];
    for (const [what, pending, expected, message] of refusals) {
      const res = await pending;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      expect(code(res), what).toBe(expected);
      expect(res.json().message, what).toMatch(message);
      expect(res.json().message, what).toMatch(/nothing was changed/i);
    }
    expect(await staffRows()).toEqual(before);
    expect(await auditRows()).toEqual([]);

    // What Ben holds he may grant and revoke, leaving Nico's system write flag untouched.
    const ok = await send(ben_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'SPECIAL_TEAM_MANAGER_READ'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(StaffTeamPutAnswer.parse(ok.json())).toMatchObject({ added: false, changed: true, member: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'SPECIAL_TEAM_MANAGER_READ'] } });
    // The owner may do what Ben may not.
    expect((await send(sam_, 'DELETE', `/api/staff/team/${nico.id}`)).statusCode).toBe(200);
    expect((await auditRows()).map((r) => [r.staff_id, r.action])).toEqual([
      [ben.id, 'team.update'],
      [sam.id, 'team.remove'],
    ]);
  });

  it('a revoked flag fails on the very next request of every existing session; a granted one passes at once', async () => {
    await setStaff(ben.id, ['SPECIAL_TEAM_MANAGER_READ', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    // Ben has two sessions (two browsers), both already in use.
    const first = await as(ben.id);
    const second = new Browser(t.app);
    await signIn(second, ben.id);
    expect((await first.get('/api/staff/team')).statusCode).toBe(200);
    expect((await second.get('/api/staff/audit')).statusCode).toBe(200);

    const sam_ = await as(sam.id);
    const revoked = await send(sam_, 'PUT', `/api/staff/team/${ben.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const [browser, url] of [
      [first, '/api/staff/team'],
      [second, '/api/staff/audit'],
    ] as const) {
      const res = await browser.get(url);
      expect(res.statusCode).toBe(403);
      expect(code(res)).toBe(ERROR_CODES.STAFF_PERMISSION_REQUIRED.code);
    }
    // The session itself lives on, and @me tells the page what Ben holds now.
    const me = (await first.get('/api/auth/@me')).json();
    expect(me.team).toEqual({ owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] });

    // Removed entirely: no staff flag left.
    expect((await send(sam_, 'DELETE', `/api/staff/team/${ben.id}`)).statusCode).toBe(200);
    expect((await first.get('/api/auth/@me')).json().team).toBeNull();
    // Granted again: the next request passes.
    expect((await send(sam_, 'PUT', `/api/staff/team/${ben.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] })).statusCode).toBe(200);
    expect((await second.get('/api/staff/team')).statusCode).toBe(200);
  });

  it('writes every change with its audit row (who, when, action, target, before, after), read newest first', async () => {
    const sam_ = await as(sam.id);
    const start = t.clock();
    const added = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ'] });
    expect(StaffTeamPutAnswer.parse(added.json())).toMatchObject({ added: true, changed: true });
    t.clock.advance(MINUTE);
    // The same flags again (any order): answered, nothing written.
    const same = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_READ'] });
    expect(StaffTeamPutAnswer.parse(same.json())).toMatchObject({ added: false, changed: false });
    expect(await auditRows()).toHaveLength(1);
    const updated = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] });
    expect(updated.statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await send(sam_, 'DELETE', `/api/staff/team/${nico.id}`)).json()).toEqual({ removed: true });
    // Removed twice: 404, nothing written.
    const again = await send(sam_, 'DELETE', `/api/staff/team/${nico.id}`);
    expect(again.statusCode).toBe(404);
    expect(code(again)).toBe(ERROR_CODES.NOT_FOUND.code);

    expect(await auditRows()).toEqual([
      { staff_id: sam.id, action: 'team.add', target: `user ${nico.id} (Nico)`, before: null, after: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ'] } },
      {
        staff_id: sam.id,
        action: 'team.update',
        target: `user ${nico.id} (Nico)`,
        before: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ'] },
        after: { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] },
      },
      { staff_id: sam.id, action: 'team.remove', target: `user ${nico.id} (Nico)`, before: { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] }, after: null },
    ]);
    const res = await sam_.get('/api/staff/audit');
    expect(res.statusCode).toBe(200);
    const body = StaffAuditAnswer.parse(res.json());
    expect(body.entries.map((e) => [e.action, e.at])).toEqual([
      ['team.remove', new Date(start + 2 * MINUTE).toISOString()],
      ['team.update', new Date(start + MINUTE).toISOString()],
      ['team.add', new Date(start).toISOString()],
    ]);
    expect(body.entries[0]!.staff).toMatchObject({ id: sam.id, name: 'Sam' });
    // The filter's choices: every action the audit records (services/staff-audit.ts), not a scan of the rows.
    expect(body.actions).toEqual([...STAFF_AUDIT_ACTIONS]);
    expect(body.actions).toEqual(expect.arrayContaining(['team.add', 'team.remove', 'team.update', 'server.view', 'webhook.replay']));
    expect(body.nextCursor).toBeNull();
  });

  it('rolls a change back with its audit row when the audit cannot be written', async () => {
    const sam_ = await as(sam.id);
    // The audit refuses every row for a moment: the grant must not stand without it.
    await t.db.query(`ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_test_refuse CHECK (action <> 'team.add')`);
    try {
      const res = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.query('ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_test_refuse');
    }
    expect(await staffRows()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('filters the audit by staff member, action (or its family) and target text, and pages it with a cursor', async () => {
    const base = Date.UTC(2026, 0, 1);
    // 30 entries: Sam's team changes, Nico's billing views and replays; three share one instant.
    for (let i = 0; i < 30; i++) {
      const [staff, action, target] =
        i % 3 === 0
          ? [sam.id, i % 2 === 0 ? 'team.add' : 'team.update', `user 10000000000000${String(i).padStart(5, '0')} (Member ${i})`]
          : i % 3 === 1
            ? [nico.id, 'billing.view', `user ${ava.id}, paddle sub_${i}`]
            : [nico.id, 'webhook.replay', `chargebee event ev_${i} (#${i}) 100%_done`];
      const at = new Date(base + Math.min(i, 27) * MINUTE).toISOString();
      await t.db.query('INSERT INTO staff_audit (at, staff_id, action, target) VALUES ($1, $2, $3, $4)', [at, staff, action, target]);
    }
    const sam_ = await as(sam.id);
    const read = async (query: string) => {
      const res = await sam_.get(`/api/staff/audit?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return StaffAuditAnswer.parse(res.json());
    };
    // Every page, 7 at a time: each entry once, newest first (ties by id), the last page says so.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: StaffAuditAnswer = await read(`limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    const all = (await t.db.query<{ id: string }>('SELECT id::text AS id FROM staff_audit ORDER BY at DESC, id DESC')).rows.map((r) => r.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(30);

    const bySam = await read(`staff=${sam.id}&limit=100`);
    expect(bySam.entries).toHaveLength(10);
    expect(bySam.entries.every((e) => e.staff.id === sam.id)).toBe(true);
    expect((await read('action=team&limit=100')).entries.every((e) => e.action.startsWith('team.'))).toBe(true);
    expect((await read('action=team&limit=100')).entries).toHaveLength(10);
    expect((await read('action=team.add&limit=100')).entries.map((e) => e.action)).toEqual(Array(5).fill('team.add'));
    expect((await read('action=billing.view&limit=100')).entries).toHaveLength(10);
    expect((await read('action=billing&limit=100')).entries).toHaveLength(10);
    // "team" is a family, not a prefix of any word: "tea" finds nothing.
    expect((await read('action=tea')).entries).toEqual([]);
    // Target text: case-insensitive, % and _ taken literally.
    expect((await read('target=MEMBER%2012')).entries.map((e) => e.target)).toEqual(['user 1000000000000000012 (Member 12)']);
    expect((await read('target=100%25_done&limit=100')).entries).toHaveLength(10);
    expect((await read('target=1%25_d')).entries).toEqual([]);
    const combined = await read(`staff=${nico.id}&action=webhook.replay&target=ev_2`);
    expect(combined.entries.map((e) => e.target)).toEqual(['chargebee event ev_29 (#29) 100%_done', 'chargebee event ev_26 (#26) 100%_done', 'chargebee event ev_23 (#23) 100%_done', 'chargebee event ev_20 (#20) 100%_done', 'chargebee event ev_2 (#2) 100%_done']);
    expect(combined.actions).toEqual([...STAFF_AUDIT_ACTIONS]);

    for (const bad of ['cursor=12', 'cursor=2026-01-01T00:00:00Z_1', 'cursor=2026-13-01T00:00:00.000000Z_1', 'cursor=2026-01-01T00:00:00.000000Z_9999999999999999999', 'limit=0', 'limit=101', `staff=12`, 'action=Team!', `target=${'x'.repeat(101)}`, 'target=a%00b']) {
      const res = await sam_.get(`/api/staff/audit?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(code(res)).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
  });

  it('looks a user up before adding them: stored users at once, others from Discord; unknown ids 404', async () => {
    const sam_ = await as(sam.id);
    await setStaff(nico.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    const known = await sam_.get(`/api/staff/team/lookup/${ava.id}`);
    expect(known.statusCode).toBe(200);
    expect(StaffLookupAnswer.parse(known.json())).toMatchObject({ id: ava.id, name: 'Ava', username: 'ava', member: false, owner: false });
    expect(known.json().avatarUrl).toContain(`/avatars/${ava.id}/${ava.avatar}.png`);
    expect(StaffLookupAnswer.parse((await sam_.get(`/api/staff/team/lookup/${nico.id}`)).json())).toMatchObject({ member: true, owner: false });
    expect(StaffLookupAnswer.parse((await sam_.get(`/api/staff/team/lookup/${sam.id}`)).json())).toMatchObject({ member: true, owner: true });
    // Stored users never ask Discord.
    expect(askedDiscord).toEqual([]);

    // Someone the dashboard never saw: Discord (through the bot) says who they are.
    discordUsers.set(STRANGER.id, { ...STRANGER, discriminator: '0' });
    const stranger = await sam_.get(`/api/staff/team/lookup/${STRANGER.id}`);
    expect(stranger.statusCode, stranger.body).toBe(200);
    expect(stranger.json()).toMatchObject({ id: STRANGER.id, name: 'Zoë', username: 'zoe', member: false });
    expect(stranger.json().avatarUrl).toContain(`/avatars/${STRANGER.id}/${STRANGER.avatar}.png`);
    expect(askedDiscord).toEqual([STRANGER.id]);
    // Added: their profile is kept, so the list names them.
    expect((await send(sam_, 'PUT', `/api/staff/team/${STRANGER.id}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] })).statusCode).toBe(200);
    discordUsers.set(STRANGER.id, 503);
    const listed = StaffTeamAnswer.parse((await sam_.get('/api/staff/team')).json()).members.find((m) => m.id === STRANGER.id);
    expect(listed).toMatchObject({ name: 'Zoë', username: 'zoe' });
    expect((await auditRows()).at(-1)).toMatchObject({ action: 'team.add', target: `user ${STRANGER.id} (Zoë)` });

    // Unknown to Discord: 404 in the catalogue, and adding them is refused with nothing written.
    discordUsers.set(UNKNOWN, 404);
    const unknown = await sam_.get(`/api/staff/team/lookup/${UNKNOWN}`);
    expect(unknown.statusCode).toBe(404);
    expect(code(unknown)).toBe(ERROR_CODES.NOT_FOUND.code);
    expect(unknown.json().message).toContain('Discord knows no user');
    expect((await send(sam_, 'PUT', `/api/staff/team/${UNKNOWN}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] })).statusCode).toBe(404);
    // Discord down: 503 (1008), nothing written.
    discordUsers.set(UNKNOWN, 503);
    const down = await sam_.get(`/api/staff/team/lookup/${UNKNOWN}`);
    expect(down.statusCode).toBe(503);
    expect(code(down)).toBe(ERROR_CODES.DISCORD_UNAVAILABLE.code);
    expect((await send(sam_, 'PUT', `/api/staff/team/${UNKNOWN}`, { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] })).statusCode).toBe(503);
    expect((await staffRows()).map((r) => r.user_id)).toEqual([STRANGER.id, nico.id].sort());
    // Not an id at all.
    const bad = await sam_.get('/api/staff/team/lookup/nobody');
    expect(bad.statusCode).toBe(400);
  });

  it('refuses malformed changes and changes from another site, nothing written', async () => {
    const sam_ = await as(sam.id);
    for (const body of [{}, { permissions: [] }, { permissions: ['ROOT'] }, { permissions: ['SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_READ'] }, { permissions: 'SPECIAL_TEAM_MANAGER_READ' }]) {
      const res = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(code(res)).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
    expect((await send(sam_, 'PUT', '/api/staff/team/42', { permissions: ['SPECIAL_TEAM_MANAGER_READ'] })).statusCode).toBe(400);
    const foreign = await send(sam_, 'PUT', `/api/staff/team/${nico.id}`, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(code(foreign)).toBe(ERROR_CODES.CSRF_REJECTED.code);
    await setStaff(nico.id, ['SPECIAL_TEAM_MANAGER_READ']);
    const foreignDelete = await send(sam_, 'DELETE', `/api/staff/team/${nico.id}`, undefined, { origin: 'https://evil.example' });
    expect(code(foreignDelete)).toBe(ERROR_CODES.CSRF_REJECTED.code);
    expect(await staffRows()).toEqual([{ user_id: nico.id, permissions: ['SPECIAL_TEAM_MANAGER_READ'] }]);
    expect(await auditRows()).toEqual([]);
  });
});

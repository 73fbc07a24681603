import { ApiError, STAFF_PERMISSIONS, type StaffPermission } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { HOUR, MINUTE, START } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo, sam } = DEMO_USERS;
const at = (ms: number) => new Date(ms).toISOString();
const mutation = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };

describe.each(databases())('Announcements (/api/staff/announcements, /api/announcements) on $name', (database) => {
  const t = useTestApp(database);
  const as = async (userId: string) => {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  };
  const patch = (browser: Browser, url: string, body: unknown) => browser.request('PATCH', url, { headers: mutation, payload: body });
  const grant = async (userId: string, permissions: StaffPermission[]) => {
    await t.db.query(
      `INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`,
      [userId, permissions],
    );
  };
  const counts = async () => ({
    announcements: Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM announcements')).rows[0]!.n),
    audit: Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM staff_audit WHERE action LIKE 'announcement.%'`)).rows[0]!.n),
  });
  const texts = (res: LightMyRequestResponse) => (res.json() as { announcements: Array<{ text: string }> }).announcements.map((a) => a.text);
  const expectCode = (res: LightMyRequestResponse, status: number, code: number, label = '') => {
    expect(res.statusCode, `${label} ${res.body}`).toBe(status);
    expect(ApiError.parse(res.json()).code).toBe(code);
  };

  beforeEach(async () => {
    t.clock.set(START);
    await t.db.query('DELETE FROM announcements');
    await t.db.query(`DELETE FROM staff_audit WHERE action LIKE 'announcement.%'`);
    await t.db.query('DELETE FROM staff_members WHERE user_id = ANY($1::text[])', [[ben.id, cleo.id, ava.id]]);
  });

  const notice = (over: Record<string, unknown> = {}) => ({ severity: 'maintenance', text: 'Maintenance **tonight**', audience: 'everyone', publish: true, ...over });

  it('each route: a visitor 401, a user 403 (1004), and of the single flags only the right one passes; nothing written on a refusal', async () => {
    const sam_ = await as(sam.id);
    const seeded = (await sam_.post('/api/staff/announcements', notice())).json();
    const visitor = new Browser(t.app);
    const cleo_ = await as(cleo.id);
    const ben_ = await as(ben.id);
    type Route = { name: string; flag: StaffPermission; send: (browser: Browser) => Promise<LightMyRequestResponse> };
    let version = seeded.version as number;
    const routes: Route[] = [
      { name: 'list', flag: 'DASHBOARD_SUPPORT_SYSTEM_READ', send: (b) => b.get('/api/staff/announcements') },
      { name: 'create', flag: 'DASHBOARD_SUPPORT_SYSTEM_WRITE', send: (b) => b.post('/api/staff/announcements', notice({ publish: false })) },
      { name: 'edit', flag: 'DASHBOARD_SUPPORT_SYSTEM_WRITE', send: (b) => patch(b, `/api/staff/announcements/${seeded.id}`, { version, text: 'Maintenance at 22:00' }) },
      { name: 'withdraw', flag: 'DASHBOARD_SUPPORT_SYSTEM_WRITE', send: (b) => b.post(`/api/staff/announcements/${seeded.id}/withdraw`, {}) },
    ];
    for (const route of routes) {
      const before = await counts();
      expectCode(await route.send(visitor), 401, 401);
      expectCode(await route.send(cleo_), 403, 1004);
      for (const flag of STAFF_PERMISSIONS) {
        if (flag === route.flag) continue;
        await grant(ben.id, [flag]);
        const refused = await route.send(ben_);
        expectCode(refused, 403, 1004);
        expect(ApiError.parse(refused.json()).message, route.name).toContain(route.flag);
      }
      expect(await counts(), route.name).toEqual(before);
      await grant(ben.id, [route.flag]);
      const ok = await route.send(ben_);
      expect(ok.statusCode, `${route.name}: ${ok.body}`).toBe(200);
      if (route.name === 'edit') version = ok.json().version;
    }
    // Each change is audited with who did it.
    const audit = await t.db.query<{ staff_id: string; action: string; target: string }>(
      `SELECT staff_id, action, target FROM staff_audit WHERE action LIKE 'announcement.%' ORDER BY id`,
    );
    expect(audit.rows).toEqual([
      { staff_id: sam.id, action: 'announcement.publish', target: `announcement #${seeded.id} (maintenance, everyone)` },
      { staff_id: ben.id, action: 'announcement.create', target: expect.stringMatching(/^announcement #\d+ \(maintenance, everyone\)$/) },
      { staff_id: ben.id, action: 'announcement.edit', target: `announcement #${seeded.id} (maintenance, everyone): text` },
      { staff_id: ben.id, action: 'announcement.withdraw', target: `announcement #${seeded.id} (maintenance, everyone) (was active)` },
    ]);
    // From another site: refused before anything is read, nothing written.
    const before = await counts();
    const foreign = await sam_.post('/api/staff/announcements', notice(), { headers: { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' } });
    expectCode(foreign, 403, 1005);
    expect(await counts()).toEqual(before);
  });

  it('refuses bad fields with the catalogue (400, 1001) and writes nothing', async () => {
    const sam_ = await as(sam.id);
    const created = (await sam_.post('/api/staff/announcements', notice({ publish: false }))).json();
    const before = await counts();
    // An id or a cursor past PostgreSQL's bigint is refused as input (400), never sent to the database.
    expect((await sam_.request('PATCH', '/api/staff/announcements/9999999999999999999', { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: { version: 1 } })).statusCode).toBe(400);
    expect((await sam_.get('/api/staff/announcements?cursor=9999999999999999999', { headers: { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN } })).statusCode).toBe(400);
    const bad: Array<[string, Record<string, unknown>, RegExp]> = [
      ['not a date', notice({ startsAt: 'tomorrow' }), /startsAt.*ISO 8601/],
      ['no zone', notice({ endsAt: '2026-03-03T10:00:00' }), /endsAt.*ISO 8601/],
      ['an impossible date', notice({ endsAt: '2026-02-30T10:00:00Z' }), /endsAt/],
      ['a far year', notice({ endsAt: '3026-03-03T10:00:00Z' }), /endsAt.*2999/],
      ['end before start', notice({ startsAt: at(START + 2 * HOUR), endsAt: at(START + HOUR) }), /endsAt must be after startsAt/],
      ['end equal to start', notice({ startsAt: at(START + HOUR), endsAt: at(START + HOUR) }), /endsAt must be after startsAt/],
      ['published, ended already', notice({ endsAt: at(START - MINUTE) }), /endsAt must be in the future/],
      ['too long', notice({ text: 'x'.repeat(501) }), /text.*at most 500 characters/],
      ['blank', notice({ text: ' \n ' }), /text.*must not be empty/],
      ['unknown audience', notice({ audience: 'admins' }), /audience/],
      ['unknown severity', notice({ severity: 'panic' }), /severity/],
      ['no text', { severity: 'info', audience: 'everyone' }, /text/],
    ];
    for (const [name, body, message] of bad) {
      const res = await sam_.post('/api/staff/announcements', body);
      expectCode(res, 400, 1001);
      expect(ApiError.parse(res.json()).message, name).toMatch(message);
    }
    // 500 characters (an emoji counts as one) is the limit, not over it.
    const limit = await sam_.post('/api/staff/announcements', notice({ publish: false, text: `${'😀'.repeat(10)}${'x'.repeat(490)}` }));
    expect(limit.statusCode, limit.body).toBe(200);
    await t.db.query('DELETE FROM announcements WHERE id = $1', [limit.json().id]);
    await t.db.query(`DELETE FROM staff_audit WHERE target LIKE $1`, [`announcement #${limit.json().id} %`]);
    // The same rules on an edit (the merged values), and bad ids and versions.
    const editBad: Array<[string, string, unknown]> = [
      ['end before the stored start', `/api/staff/announcements/${created.id}`, { version: 1, startsAt: at(START + 2 * HOUR), endsAt: at(START + HOUR) }],
      ['published with an end gone by', `/api/staff/announcements/${created.id}`, { version: 1, endsAt: at(START - HOUR), publish: true }],
      ['unknown audience', `/api/staff/announcements/${created.id}`, { version: 1, audience: 'nobody' }],
      ['too long', `/api/staff/announcements/${created.id}`, { version: 1, text: 'y'.repeat(501) }],
      ['no version', `/api/staff/announcements/${created.id}`, { text: 'z' }],
      ['a bad id', '/api/staff/announcements/abc', { version: 1, text: 'z' }],
    ];
    for (const [name, url, body] of editBad) expectCode(await patch(sam_, url, body), 400, 1001, name);
    expectCode(await sam_.post('/api/staff/announcements/abc/withdraw', {}), 400, 1001);
    for (const q of ['cursor=abc', 'limit=0', 'limit=101']) expectCode(await sam_.get(`/api/staff/announcements?${q}`), 400, 1001);
    expect(await counts()).toEqual(before);
    const stored = await t.db.query('SELECT body, version, state FROM announcements WHERE id = $1', [created.id]);
    expect(stored.rows).toEqual([{ body: 'Maintenance **tonight**', version: 1, state: 'draft' }]);
  });

  it('withdraws a draft that never started (it stays unpublished, its start stays empty, audited)', async () => {
    const sam_ = await as(sam.id);
    const draft = (await sam_.post('/api/staff/announcements', notice({ publish: false, text: 'never shown' }))).json();
    expect(draft).toMatchObject({ status: 'draft', startsAt: null });
    const res = await sam_.post(`/api/staff/announcements/${draft.id}/withdraw`, { version: draft.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'withdrawn', startsAt: null, version: draft.version + 1 });
    const stored = await t.db.query('SELECT state, starts_at FROM announcements WHERE id = $1', [draft.id]);
    expect(stored.rows).toEqual([{ state: 'withdrawn', starts_at: null }]);
    const audit = await t.db.query<{ target: string }>(`SELECT target FROM staff_audit WHERE action = 'announcement.withdraw' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0]?.target).toMatch(/\(was draft\)$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/announcements' })).json().announcements.map((a: { text: string }) => a.text)).not.toContain('never shown');
  });

  it('lists every notice with its status, newest first, a page at a time', async () => {
    const sam_ = await as(sam.id);
    const make = async (over: Record<string, unknown>) => (await sam_.post('/api/staff/announcements', notice(over))).json();
    const draft = await make({ publish: false, text: 'draft' });
    const active = await make({ text: 'active', endsAt: at(START + HOUR) });
    const scheduled = await make({ text: 'scheduled', startsAt: at(START + HOUR), endsAt: at(START + 2 * HOUR) });
    const ended = await make({ text: 'ended', endsAt: at(START + MINUTE) });
    const withdrawn = await make({ text: 'withdrawn' });
    await sam_.post(`/api/staff/announcements/${withdrawn.id}/withdraw`, {});
    t.clock.advance(2 * MINUTE);
    const all = (await sam_.get('/api/staff/announcements')).json();
    expect(all.announcements.map((a: { text: string; status: string }) => [a.text, a.status])).toEqual([
      ['withdrawn', 'withdrawn'],
      ['ended', 'ended'],
      ['scheduled', 'scheduled'],
      ['active', 'active'],
      ['draft', 'draft'],
    ]);
    expect(all.announcements[3]).toMatchObject({
      id: active.id,
      severity: 'maintenance',
      audience: 'everyone',
      startsAt: at(START),
      endsAt: at(START + HOUR),
      publishedAt: at(START),
      createdBy: sam.id,
      updatedBy: sam.id,
      updatedByName: sam.globalName,
      revision: 1,
      version: 1,
    });
    expect(all.announcements[4]).toMatchObject({ id: draft.id, startsAt: null, publishedAt: null });
    expect(scheduled.status).toBe('scheduled');
    expect(ended.status).toBe('active');
    const first = (await sam_.get('/api/staff/announcements?limit=2')).json();
    expect(first.announcements.map((a: { text: string }) => a.text)).toEqual(['withdrawn', 'ended']);
    const second = (await sam_.get(`/api/staff/announcements?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.announcements.map((a: { text: string }) => a.text)).toEqual(['scheduled', 'active']);
    const third = (await sam_.get(`/api/staff/announcements?limit=2&cursor=${second.nextCursor}`)).json();
    expect(third).toMatchObject({ announcements: [{ text: 'draft' }], nextCursor: null });
  });

  it('edits from the version it started from, publishes a draft, bumps the revision only for what readers see; history stays history', async () => {
    const sam_ = await as(sam.id);
    const draft = (await sam_.post('/api/staff/announcements', notice({ publish: false, startsAt: null }))).json();
    expect(draft).toMatchObject({ status: 'draft', version: 1, revision: 1 });
    // Someone else's edit in between: 409, nothing changed.
    const edited = await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 1, text: 'Maintenance at **22:00 UTC**' });
    expect(edited.json()).toMatchObject({ version: 2, revision: 2, status: 'draft' });
    const stale = await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 1, text: 'mine' });
    expectCode(stale, 409, 1013);
    expect(ApiError.parse(stale.json()).message).toMatch(/Someone changed this announcement/);
    // Publishing with no start: from now.
    t.clock.advance(5 * MINUTE);
    const published = (await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 2, publish: true })).json();
    expect(published).toMatchObject({ status: 'active', startsAt: at(START + 5 * MINUTE), publishedAt: at(START + 5 * MINUTE), version: 3, revision: 2 });
    // A new end (a time in another zone, stored in UTC): not what readers see, same revision.
    const extended = (await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 3, endsAt: '2026-03-02T13:00:00+01:00' })).json();
    expect(extended).toMatchObject({ endsAt: '2026-03-02T12:00:00.000Z', version: 4, revision: 2 });
    // The same values again: nothing changes, nothing audited.
    const same = (await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 4, endsAt: '2026-03-02T12:00:00Z', severity: 'maintenance' })).json();
    expect(same.version).toBe(4);
    const severity = (await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 4, severity: 'critical' })).json();
    expect(severity).toMatchObject({ severity: 'critical', revision: 3, version: 5 });
    const actions = await t.db.query<{ action: string; target: string }>(`SELECT action, target FROM staff_audit WHERE action LIKE 'announcement.%' ORDER BY id`);
    expect(actions.rows.map((r) => `${r.action} ${r.target}`)).toEqual([
      `announcement.create announcement #${draft.id} (maintenance, everyone)`,
      `announcement.edit announcement #${draft.id} (maintenance, everyone): text`,
      `announcement.publish announcement #${draft.id} (maintenance, everyone): startsAt`,
      `announcement.edit announcement #${draft.id} (maintenance, everyone): endsAt`,
      `announcement.edit announcement #${draft.id} (critical, everyone): severity`,
    ]);
    // Ended: it cannot be edited or withdrawn (409); withdrawn twice: 409; an unknown id: 404.
    t.clock.set(Date.parse('2026-03-02T12:00:00Z'));
    expectCode(await patch(sam_, `/api/staff/announcements/${draft.id}`, { version: 5, text: 'again' }), 409, 1013);
    expectCode(await sam_.post(`/api/staff/announcements/${draft.id}/withdraw`, {}), 409, 1013);
    const other = (await sam_.post('/api/staff/announcements', notice())).json();
    expectCode(await sam_.post(`/api/staff/announcements/${other.id}/withdraw`, { version: 99 }), 409, 1013);
    expect((await sam_.post(`/api/staff/announcements/${other.id}/withdraw`, { version: 1 })).json()).toMatchObject({ status: 'withdrawn', version: 2 });
    expectCode(await sam_.post(`/api/staff/announcements/${other.id}/withdraw`, {}), 409, 1013);
    expectCode(await patch(sam_, `/api/staff/announcements/${other.id}`, { version: 2, text: 'back' }), 409, 1013);
    expectCode(await patch(sam_, '/api/staff/announcements/999999', { version: 1, text: 'x' }), 404, 1002);
    expectCode(await sam_.post('/api/staff/announcements/999999/withdraw', {}), 404, 1002);
  });

  it('answers each audience its notices: a visitor, a signed-in user, staff (decided on this request’s data)', async () => {
    const sam_ = await as(sam.id);
    for (const audience of ['everyone', 'signedIn', 'staff']) {
      await sam_.post('/api/staff/announcements', notice({ audience, text: `for ${audience}`, severity: 'info' }));
    }
    await sam_.post('/api/staff/announcements', notice({ audience: 'everyone', text: 'for everyone, critical', severity: 'critical' }));
    const visitor = new Browser(t.app);
    expect(texts(await visitor.get('/api/announcements'))).toEqual(['for everyone, critical', 'for everyone']);
    const cleo_ = await as(cleo.id);
    expect(texts(await cleo_.get('/api/announcements'))).toEqual(['for everyone, critical', 'for signedIn', 'for everyone']);
    expect(texts(await sam_.get('/api/announcements'))).toEqual(['for everyone, critical', 'for staff', 'for signedIn', 'for everyone']);
    // Ben with any one flag is staff; the flag revoked, his very next read has no staff notice.
    const ben_ = await as(ben.id);
    await grant(ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
    expect(texts(await ben_.get('/api/announcements'))).toContain('for staff');
    await t.db.query('DELETE FROM staff_members WHERE user_id = $1', [ben.id]);
    expect(texts(await ben_.get('/api/announcements'))).not.toContain('for staff');
    // The banner's answer carries what it needs, nothing of staff's bookkeeping.
    const [first] = (await visitor.get('/api/announcements')).json().announcements;
    expect(Object.keys(first).sort()).toEqual(['endsAt', 'id', 'revision', 'severity', 'text']);
  });

  it('follows the clock: not before the start, gone after the end or a withdrawal', async () => {
    const sam_ = await as(sam.id);
    const visitor = new Browser(t.app);
    const scheduled = (await sam_.post('/api/staff/announcements', notice({ text: 'later', startsAt: at(START + HOUR), endsAt: at(START + 2 * HOUR) }))).json();
    const now = (await sam_.post('/api/staff/announcements', notice({ text: 'now', severity: 'info' }))).json();
    await sam_.post('/api/staff/announcements', notice({ text: 'a draft', publish: false, startsAt: at(START - HOUR) }));
    expect(texts(await visitor.get('/api/announcements'))).toEqual(['now']);
    t.clock.set(START + HOUR - 1);
    expect(texts(await visitor.get('/api/announcements'))).toEqual(['now']);
    t.clock.set(START + HOUR);
    expect(texts(await visitor.get('/api/announcements'))).toEqual(['later', 'now']);
    expect((await visitor.get('/api/announcements')).json().announcements[0]).toEqual({
      id: scheduled.id,
      revision: 1,
      severity: 'maintenance',
      text: 'later',
      endsAt: at(START + 2 * HOUR),
    });
    await sam_.post(`/api/staff/announcements/${now.id}/withdraw`, {});
    expect(texts(await visitor.get('/api/announcements'))).toEqual(['later']);
    t.clock.set(START + 2 * HOUR);
    expect(texts(await visitor.get('/api/announcements'))).toEqual([]);
  });

  it('is served cacheably: 30 s, Vary: Cookie, an ETag answered with 304 until the notices change', async () => {
    const sam_ = await as(sam.id);
    const created = (await sam_.post('/api/staff/announcements', notice())).json();
    const visitor = new Browser(t.app);
    const first = await visitor.get('/api/announcements', { headers: { origin: DASHBOARD_ORIGIN } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    const varyOf = (res: LightMyRequestResponse) => String(res.headers.vary).split(/,\s*/).map((v) => v.toLowerCase());
    expect(varyOf(first)).toEqual(expect.arrayContaining(['origin', 'cookie']));
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await visitor.get('/api/announcements', { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=30');
    // A signed-in caller's answer is theirs: private.
    const mine = await sam_.get('/api/announcements');
    expect(mine.headers['cache-control']).toBe('private, max-age=30');
    expect(varyOf(mine)).toContain('cookie');
    // Withdrawn: the validator changes, the next read has it gone.
    await sam_.post(`/api/staff/announcements/${created.id}/withdraw`, {});
    const after = await visitor.get('/api/announcements', { headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(texts(after)).toEqual([]);
    // Staff's list is never cached.
    expect((await sam_.get('/api/staff/announcements')).headers['cache-control']).toBe('no-store');
  });
});

import { ApiError, ERROR_CODES } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { Announcements } from '../../src/services/announcements';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { HOUR, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

/**
 * Staff sessions (docs/api.md, "Staff sessions"): staff routes and staff reads of a server need a
 * session whose last staff request is under 30 minutes old (STAFF_SESSION_IDLE_SECONDS) and which
 * was signed in under 12 hours ago (STAFF_SESSION_MAX_AGE_SECONDS); past either, 401 code 1030 until
 * the user signs in again, while the rest of the session goes on.
 */
const { ava, ben, sam } = DEMO_USERS;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };

describe.each(databases())('staff sessions: 30 minutes idle, 12 hours at most, on $name', (database) => {
  const t = useTestApp(database, { env: { STAFF_SESSION_IDLE_SECONDS: String(30 * 60), STAFF_SESSION_MAX_AGE_SECONDS: String(12 * 3600) } });
  const as = async (userId: string) => {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  };
  const code = (res: { json(): unknown }) => ApiError.parse(res.json()).code;

  it('a staff page answers while staff activity keeps coming, for up to 12 hours after the sign-in', async () => {
    const sam_ = await as(sam.id);
    for (let i = 0; i < 25; i++) {
      // Every 29 minutes: never idle long enough.
      t.clock.advance(29 * MINUTE);
      const res = await sam_.get('/api/staff/team', { headers: DASHBOARD });
      if (i < 24) expect(res.statusCode, `after ${(i + 1) * 29} minutes`).toBe(200);
      else {
        // 12 h 5 min after the sign-in: past the absolute lifetime.
        expect(res.statusCode).toBe(401);
        expect(code(res)).toBe(ERROR_CODES.STAFF_SIGN_IN_AGAIN.code);
        expect(res.json()).toMatchObject({ isAuthenticated: true, message: expect.stringContaining('more than 12 hours ago') });
      }
    }
    // The rest of the session goes on: it is still signed in, and reads what Sam may read.
    const me = await sam_.get('/api/auth/@me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ isAuthenticated: true });
    // A new sign-in opens the staff pages again.
    expect((await (await as(sam.id)).get('/api/staff/team', { headers: DASHBOARD })).statusCode).toBe(200);
  });

  it('after 30 minutes without staff activity (other requests do not count), staff routes and staff reads are 1030; nothing is audited', async () => {
    await t.db.query('INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2::text[]) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions', [
      ben.id,
      ['DASHBOARD_SUPPORT_SEARCH_READ'],
    ]);
    const ben_ = await as(ben.id);
    expect((await ben_.get('/api/staff/search?q=ava', { headers: DASHBOARD })).statusCode).toBe(200);
    // Ordinary use of the dashboard for 40 minutes keeps the session, not the staff powers.
    for (let i = 0; i < 4; i++) {
      t.clock.advance(10 * MINUTE);
      expect((await ben_.get('/api/auth/@me')).statusCode).toBe(200);
    }
    await t.db.query('DELETE FROM staff_audit');
    for (const res of [await ben_.get('/api/staff/search?q=ava'), await ben_.get(`/api/staff/users/${ava.id}`, { headers: DASHBOARD }), await ben_.get(`/api/guilds/${PIXEL}/config`, { headers: DASHBOARD })]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(code(res)).toBe(ERROR_CODES.STAFF_SIGN_IN_AGAIN.code);
      expect(res.json().message).toContain('30 minutes passed without staff activity');
    }
    expect((await t.db.query('SELECT 1 FROM staff_audit')).rows).toEqual([]);
    // Not staff at all: still the flag's refusal (1004), not a sign-in.
    const ava_ = await as(ava.id);
    t.clock.advance(HOUR);
    const refused = await ava_.get('/api/staff/search?q=ava');
    expect(refused.statusCode).toBe(403);
    expect(code(refused)).toBe(ERROR_CODES.STAFF_PERMISSION_REQUIRED.code);
    // Signed in again: the staff read opens and is audited.
    const again = await as(ben.id);
    expect((await again.get(`/api/guilds/${PIXEL}/config`, { headers: DASHBOARD })).statusCode).toBe(200);
    expect((await t.db.query('SELECT action FROM staff_audit')).rows).toEqual([{ action: 'server.view' }]);
  });

  it("only the dashboard's own requests are staff activity; staff-only notices follow the lifetimes too", async () => {
    const sam_ = await as(sam.id);
    await new Announcements(t.app.db, t.app.clock).create(sam.id, { severity: 'info', text: 'For staff only', audience: 'staff', startsAt: null, endsAt: null, publish: true });
    const notices = async () => ((await sam_.get('/api/announcements')).json() as { announcements: Array<{ text: string }> }).announcements.map((n) => n.text);
    expect(await notices()).toContain('For staff only');
    expect((await sam_.get('/api/staff/team', { headers: DASHBOARD })).statusCode).toBe(200);
    // Another page's image or link every 20 minutes (the Lax cookie goes along): answered while the
    // session is within the window, but it does not keep the window open.
    for (let i = 0; i < 2; i++) {
      t.clock.advance(20 * MINUTE);
      const res = await sam_.get('/api/staff/team', { headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } });
      expect(res.statusCode, `after ${(i + 1) * 20} minutes`).toBe(i === 0 ? 200 : 401);
    }
    // Past the lifetimes, staff-only notices are not shown either (and reading them is no activity).
    expect(await notices()).not.toContain('For staff only');
  });

  it('staff activity is written at most once a minute, and another instance sees it', async () => {
    const sam_ = await as(sam.id);
    expect((await sam_.get('/api/staff/team', { headers: DASHBOARD })).statusCode).toBe(200);
    const seen = async () => (await t.db.query<{ staff_seen_at: unknown }>('SELECT staff_seen_at FROM sessions WHERE user_id = $1 AND staff_seen_at IS NOT NULL ORDER BY created_at DESC LIMIT 1', [sam.id])).rows[0]?.staff_seen_at;
    const first = new Date(String(await seen())).getTime();
    expect(first).toBe(t.clock.now);
    t.clock.advance(20 * 1000);
    expect((await sam_.get('/api/staff/team', { headers: DASHBOARD })).statusCode).toBe(200);
    expect(new Date(String(await seen())).getTime()).toBe(first);
    t.clock.advance(29 * MINUTE);
    expect((await sam_.get('/api/staff/team', { headers: DASHBOARD })).statusCode).toBe(200);
    expect(new Date(String(await seen())).getTime()).toBe(t.clock.now);
  });
});

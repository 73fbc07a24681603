import { ERROR_CODES } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ben, cleo, sam } = DEMO_USERS;

describe.each(databases())('auth guards on $name', (database) => {
  const t = useTestApp(database, {
    extend: (app) => {
      app.get('/api/test/session', { preHandler: app.requireSession }, async (req) => ({ userId: (await req.getSession())!.userId }));
      app.get('/api/test/system', { preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_READ') }, async () => ({ ok: true }));
      app.get('/api/test/guild/:server', { preHandler: app.requireGuildAccess }, async (req) => ({ id: req.guild!.id }));
    },
  });

  it('requireSession: 401 for visitors, the session for signed-in users', async () => {
    const visitor = await new Browser(t.app).get('/api/test/session');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ code: 401, message: ERROR_CODES.UNAUTHENTICATED.message, isAuthenticated: false });
    const browser = new Browser(t.app);
    await signIn(browser, cleo.id);
    expect((await browser.get('/api/test/session')).json()).toEqual({ userId: cleo.id });
  });

  it('requireStaff: 401 for visitors, 1004 naming the flag for others, through for owners and granted staff', async () => {
    expect((await new Browser(t.app).get('/api/test/system')).statusCode).toBe(401);
    const member = new Browser(t.app);
    await signIn(member, cleo.id);
    const refused = await member.get('/api/test/system');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: ERROR_CODES.STAFF_PERMISSION_REQUIRED.code,
      message: 'This needs the staff permission DASHBOARD_SUPPORT_SYSTEM_READ, which your account does not have.',
      isAuthenticated: true,
    });

    const owner = new Browser(t.app);
    await signIn(owner, sam.id);
    expect((await owner.get('/api/test/system')).json()).toEqual({ ok: true });

    const staff = new Browser(t.app);
    await signIn(staff, ben.id);
    await t.db.query('INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2)', [ben.id, ['DASHBOARD_SUPPORT_SEARCH_READ']]);
    expect((await staff.get('/api/test/system')).statusCode).toBe(403);
    await t.db.query('UPDATE staff_members SET permissions = $2 WHERE user_id = $1', [ben.id, ['DASHBOARD_SUPPORT_SYSTEM_READ']]);
    expect((await staff.get('/api/test/system')).statusCode).toBe(200);
  });

  it('requireGuildAccess: on any route with :server', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ben.id);
    expect((await browser.get(`/api/test/guild/${DEMO_GUILDS.bensWorkshop.id}`)).json()).toEqual({ id: DEMO_GUILDS.bensWorkshop.id });
    expect((await browser.get(`/api/test/guild/${DEMO_GUILDS.avasArcade.id}`)).json().code).toBe(403);
    expect((await browser.get(`/api/test/guild/${DEMO_GUILDS.ticketyHq.id}`)).json().code).toBe(405);
    expect((await browser.get('/api/test/guild/server-id')).json().code).toBe(1001);
  });
});

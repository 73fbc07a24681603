import { createHash } from 'node:crypto';
import { AnonymousMe, ApiError, AuthenticatedMe, ERROR_CODES, Guild } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS, PERMISSION_ADMIN, PERMISSION_MEMBER } from '@tickety/sandbox';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type TestApp, useTestApp } from '../helpers/app';
import { Browser, setCookie } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben } = DEMO_USERS;
const SESSION = 'tickety_session';
/** The default windows (docs/operations.md): GUILD_ACCESS_MAX_AGE_SECONDS, GUILD_WRITE_ACCESS_MAX_AGE_SECONDS. */
const READ_WINDOW = 300 * SECOND;
const WRITE_WINDOW = 60 * SECOND;

const read = (browser: Browser, guildId: string) => browser.get(`/api/guilds/${guildId}`);
/** A stand-in for the server mutations later issues add, guarded the way they will be. */
const write = (browser: Browser, guildId: string) => browser.post(`/api/guilds/${guildId}/test-write`, { change: true });

/** Calls the API made to Discord for a user's guild list (Bearer) and for the bot's (Bot), from the sandbox's log. */
function guildListCalls(t: TestApp): { user: number; bot: number } {
  const calls = t.sandbox.requests('GET /api/v10/users/@me/guilds');
  return { user: calls.filter((r) => r.auth === 'bearer').length, bot: calls.filter((r) => r.auth === 'bot').length };
}

async function me(browser: Browser): Promise<AuthenticatedMe> {
  return AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
}

/** Whether the session of a browser's cookie is revoked server-side (read the cookie before it is cleared). */
async function revoked(t: TestApp, cookie: string): Promise<boolean> {
  const hash = createHash('sha256').update(cookie).digest('hex');
  const { rows } = await t.db.query<{ revoked_at: unknown }>('SELECT revoked_at FROM sessions WHERE token_hash = $1', [hash]);
  expect(rows).toHaveLength(1);
  return rows[0]!.revoked_at !== null;
}

describe.each(databases())('server access decides on a fresh guild list, on $name', (database) => {
  const t = useTestApp(database, {
    extend: (app) => {
      app.post('/api/guilds/:server/test-write', { preHandler: app.requireGuildWriteAccess }, async (req) => ({ changed: req.guild!.id }));
    },
  });

  beforeEach(() => {
    // Memberships, faults and the bot back to the demo data; moving past any Retry-After of a previous test.
    t.sandbox.reset();
    t.clock.advance(10 * 60 * SECOND);
  });

  it('a manual refresh and an access check at once, with an access token due for renewal, renew it once: nobody is signed out', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    // Past the read window, with the stored Discord access token due for renewal: both need a new one.
    t.clock.advance(READ_WINDOW + SECOND);
    await t.db.query('UPDATE sessions SET discord_token_expires_at = $1::timestamptz WHERE user_id = $2', [new Date(t.clock()).toISOString(), ava.id]);
    t.sandbox.clearRequests();
    const [refresh, check] = await Promise.all([browser.post('/api/auth/guilds/refresh'), read(browser, DEMO_GUILDS.avasArcade.id)]);
    expect([refresh.statusCode, check.statusCode]).toEqual([200, 200]);
    expect(t.sandbox.requests('POST /api/v10/oauth2/token')).toHaveLength(1);
    expect((await me(browser)).user.id).toBe(ava.id);
  });

  it('reads: within 5 minutes the stored list answers (no Discord call); past them it is fetched again and decides', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    // Ava loses Manage Server in Retro Modders.
    t.sandbox.setMembership(ava.id, DEMO_GUILDS.modGuild.id, { owner: false, permissions: PERMISSION_MEMBER });
    t.sandbox.clearRequests();

    // The documented window: for up to 5 minutes the list from sign-in still decides.
    expect((await read(browser, DEMO_GUILDS.modGuild.id)).statusCode).toBe(200);
    t.clock.advance(READ_WINDOW - SECOND);
    expect((await read(browser, DEMO_GUILDS.modGuild.id)).statusCode).toBe(200);
    expect(guildListCalls(t)).toEqual({ user: 0, bot: 0 });

    t.clock.advance(2 * SECOND);
    const res = await read(browser, DEMO_GUILDS.modGuild.id);
    expect(res.statusCode).toBe(403);
    expect(ApiError.parse(res.json())).toEqual({
      code: 403,
      message: expect.stringMatching(/^You are not the owner of Retro Modders and have neither the Administrator nor the Manage Server permission there, and the server gives no role dashboard access\. The server's owner and members with the Administrator or Manage Server permission can give a role access/),
      isAuthenticated: true,
      selector: true,
    });
    // One call with Ava's token; the bot's list is not fetched (stored bot flags are kept).
    expect(guildListCalls(t)).toEqual({ user: 1, bot: 0 });

    // The new list is stored: /api/auth/@me shows it, and it is fresh for the next checks.
    const body = await me(browser);
    expect(body.guildsRefreshedAt).toBe(new Date(t.clock.now).toISOString());
    expect(body.guilds.find((g) => g.id === DEMO_GUILDS.modGuild.id)).toMatchObject({ canManage: false, botInGuild: true });
    const arcade = await read(browser, DEMO_GUILDS.avasArcade.id);
    expect(Guild.parse(arcade.json())).toMatchObject({ id: DEMO_GUILDS.avasArcade.id, canManage: true, botInGuild: true });
    expect(guildListCalls(t)).toEqual({ user: 1, bot: 0 });
  });

  it('fresh data grants too: a server the user was just made administrator of opens past the window', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    t.sandbox.setMembership('ava', DEMO_GUILDS.bensWorkshop.id, { owner: false, permissions: PERMISSION_ADMIN });
    expect((await read(browser, DEMO_GUILDS.bensWorkshop.id)).statusCode).toBe(404);
    t.clock.advance(READ_WINDOW + SECOND);
    const res = await read(browser, DEMO_GUILDS.bensWorkshop.id);
    expect(res.statusCode).toBe(200);
    expect(Guild.parse(res.json())).toMatchObject({ id: DEMO_GUILDS.bensWorkshop.id, canManage: true, owner: false });
  });

  it('writes: the shorter window (1 minute) applies; reads keep theirs', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    t.sandbox.setMembership(ava.id, DEMO_GUILDS.studyHall.id, { owner: false, permissions: PERMISSION_MEMBER });
    t.sandbox.clearRequests();

    t.clock.advance(WRITE_WINDOW / 2);
    const early = await write(browser, DEMO_GUILDS.studyHall.id);
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json()).toEqual({ changed: DEMO_GUILDS.studyHall.id });
    expect(guildListCalls(t).user).toBe(0);

    t.clock.advance(WRITE_WINDOW / 2 + SECOND);
    // A read still decides on the 61-second-old list (its window is 5 minutes)...
    expect((await read(browser, DEMO_GUILDS.studyHall.id)).statusCode).toBe(200);
    expect(guildListCalls(t).user).toBe(0);
    // ...a write does not: the list is fetched again first.
    const late = await write(browser, DEMO_GUILDS.studyHall.id);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: ERROR_CODES.NO_SERVER_ACCESS.code, isAuthenticated: true, selector: true });
    expect(guildListCalls(t)).toEqual({ user: 1, bot: 0 });
    // The fresh list now decides reads too.
    expect((await read(browser, DEMO_GUILDS.studyHall.id)).statusCode).toBe(403);
    // Servers still managed: the write goes through on the fresh list, without another call.
    expect((await write(browser, DEMO_GUILDS.pixelPals.id)).statusCode).toBe(200);
    expect(guildListCalls(t).user).toBe(1);
  });

  it('leaving the server: 404 (code 405) for reads and writes once the window has passed', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    t.sandbox.setMembership(ava.id, DEMO_GUILDS.avasArcade.id, null);
    t.clock.advance(WRITE_WINDOW + SECOND);
    const denied = await write(browser, DEMO_GUILDS.avasArcade.id);
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toEqual({ code: 405, message: ERROR_CODES.SERVER_NOT_FOUND.message, isAuthenticated: true, selector: true });
    expect((await read(browser, DEMO_GUILDS.avasArcade.id)).json().code).toBe(405);
    expect((await me(browser)).guilds.map((g) => g.id)).not.toContain(DEMO_GUILDS.avasArcade.id);
  });

  it('the grant revoked at Discord: 401, the cookie cleared and the session ended', async () => {
    const reader = new Browser(t.app);
    await signIn(reader, ava.id);
    const readerCookie = reader.jar.get(SESSION)!;
    expect(t.sandbox.revokeUser(ava.id)).toBeGreaterThan(0);
    // Within the window nothing asks Discord, so nothing notices yet.
    expect((await read(reader, DEMO_GUILDS.avasArcade.id)).statusCode).toBe(200);

    t.clock.advance(READ_WINDOW + SECOND);
    const res = await read(reader, DEMO_GUILDS.avasArcade.id);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 401,
      message: 'Your Discord authorization has expired or was revoked: log in again.',
      isAuthenticated: false,
    });
    expect(setCookie(res, SESSION)?.value).toBe('');
    expect(AnonymousMe.parse((await reader.get('/api/auth/@me')).json()).isAuthenticated).toBe(false);
    expect(await revoked(t, readerCookie)).toBe(true);

    // A write past its window notices it the same way.
    const writer = new Browser(t.app);
    await signIn(writer, ava.id);
    const writerCookie = writer.jar.get(SESSION)!;
    t.sandbox.revokeUser('ava');
    t.clock.advance(WRITE_WINDOW + SECOND);
    const refused = await write(writer, DEMO_GUILDS.avasArcade.id);
    expect(refused.statusCode).toBe(401);
    expect(setCookie(refused, SESSION)?.value).toBe('');
    expect(await revoked(t, writerCookie)).toBe(true);
  });

  it('Discord rate-limiting (429) or down (503) for a stale list: 503 (1008) with its Retry-After, never the stale list, no calls until it passes', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ben.id);
    const stored = (await me(browser)).guilds;
    t.clock.advance(READ_WINDOW + SECOND);
    t.sandbox.clearRequests();
    t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 429, retryAfter: 20 });

    const res = await read(browser, DEMO_GUILDS.bensWorkshop.id);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('20');
    expect(ApiError.parse(res.json())).toEqual({
      code: ERROR_CODES.DISCORD_UNAVAILABLE.code,
      message: 'Discord is not answering, so your access to this server could not be confirmed. Try again shortly.',
      isAuthenticated: true,
    });
    expect(guildListCalls(t).user).toBe(1);

    // Discord asked for 20 s: until then nothing is asked, reads and writes answer the time left.
    t.clock.advance(5 * SECOND);
    const again = await read(browser, DEMO_GUILDS.bensWorkshop.id);
    expect([again.statusCode, again.headers['retry-after']]).toEqual([503, '15']);
    const writeRes = await write(browser, DEMO_GUILDS.bensWorkshop.id);
    expect([writeRes.statusCode, writeRes.headers['retry-after']]).toEqual([503, '15']);
    expect(writeRes.json().message).toMatch(/could not be confirmed and nothing was changed/);
    // Nor does a manual refresh (POST /api/auth/guilds/refresh) go past Discord's Retry-After.
    const refresh = await browser.post('/api/auth/guilds/refresh');
    expect([refresh.statusCode, refresh.headers['retry-after']]).toEqual([503, '15']);
    expect(guildListCalls(t).user).toBe(1);
    expect((await me(browser)).guilds).toEqual(stored);

    t.clock.advance(16 * SECOND);
    expect((await read(browser, DEMO_GUILDS.bensWorkshop.id)).statusCode).toBe(200);
    expect(guildListCalls(t).user).toBe(2);

    // Discord down (503) when a write needs a fresh list: refused, even though a read may still use
    // the (2-minute-old, within its window) list.
    t.clock.advance(2 * WRITE_WINDOW);
    t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 7 });
    const down = await write(browser, DEMO_GUILDS.bensWorkshop.id);
    expect([down.statusCode, down.headers['retry-after'], down.json().code]).toEqual([503, '7', ERROR_CODES.DISCORD_UNAVAILABLE.code]);
    expect((await read(browser, DEMO_GUILDS.bensWorkshop.id)).statusCode).toBe(200);
    expect(guildListCalls(t).user).toBe(3);
  });

  it('concurrent checks of one user share one Discord call', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    t.clock.advance(READ_WINDOW + SECOND);
    const before = t.discordCalls.length;
    const answers = await Promise.all([
      read(browser, DEMO_GUILDS.avasArcade.id),
      read(browser, DEMO_GUILDS.pixelPals.id),
      read(browser, DEMO_GUILDS.studyHall.id),
      read(browser, DEMO_GUILDS.modGuild.id),
      read(browser, DEMO_GUILDS.cozyCorner.id),
      write(browser, DEMO_GUILDS.avasArcade.id),
      write(browser, DEMO_GUILDS.cozyCorner.id),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 403, 200, 403]);
    const calls = t.discordCalls.slice(before);
    expect(calls.filter((c) => c.url.includes('/users/@me/guilds'))).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it("another session's ended grant does not sign this one out: it asks again with its own token", async () => {
    const ended = new Browser(t.app);
    const grantsBefore = new Set(t.sandbox.grants().map((g) => g.id));
    await signIn(ended, ava.id);
    const grant = t.sandbox.grants().find((g) => !grantsBefore.has(g.id))!;
    const live = new Browser(t.app);
    await signIn(live, ava.id);
    const [endedCookie, liveCookie] = [ended.jar.get(SESSION)!, live.jar.get(SESSION)!];
    // The first browser's grant ends at Discord (its refresh token revoked, as a sign-out elsewhere would).
    await t.app.discord.revoke(grant.tokens.find((tk) => tk.kind === 'refresh' && tk.active)!.token, 'refresh_token');

    t.clock.advance(READ_WINDOW + SECOND);
    t.sandbox.setLatency(150, 'GET /api/v10/users/@me/guilds');
    const calls = t.discordCalls.length;
    // The ended session leads the fetch; the live one joins it while Discord is still answering.
    const first = read(ended, DEMO_GUILDS.avasArcade.id);
    await vi.waitFor(() => expect(t.discordCalls.slice(calls).some((c) => c.url.includes('/users/@me/guilds'))).toBe(true));
    const second = read(live, DEMO_GUILDS.avasArcade.id);
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(200);
    // One fetch at a time: the live session waited for the ended one's (its 401, its refused token
    // refresh), then asked with its own token.
    expect(t.discordCalls.slice(calls).map((c) => `${c.method} ${new URL(c.url).pathname.replace(/^.*\/api\/v10/, '')}`)).toEqual([
      'GET /users/@me/guilds',
      'POST /oauth2/token',
      'GET /users/@me/guilds',
    ]);
    expect(setCookie(a, SESSION)?.value).toBe('');
    expect(await revoked(t, endedCookie)).toBe(true);
    expect(await revoked(t, liveCookie)).toBe(false);
    expect((await me(live)).isAuthenticated).toBe(true);
  });
});

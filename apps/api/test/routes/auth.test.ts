import { createHash } from 'node:crypto';
import { AnonymousMe, ApiError, AuthenticatedMe, ERROR_CODES, MeResponse, STAFF_PERMISSIONS } from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it, vi } from 'vitest';
import { ANONYMOUS } from '../../src/routes/auth/index';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, PUBLIC_URL, SECOND_DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { insertSubscriptions } from '../helpers/billing';
import { Browser, setCookie, setCookieLines } from '../helpers/browser';
import { DAY, HOUR, MINUTE, SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { approveAs, cancelAt, runPopup, scriptHash, signIn, startLogin } from '../helpers/oauth';

const SESSION = 'tickety_session';
const STATE = 'tickety_oauth';
const { ava, ben, cleo, sam } = DEMO_USERS;

interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  revoked_at: unknown;
  discord_access_token: string | null;
  discord_refresh_token: string | null;
  discord_scope: string | null;
}

async function sessionRows(t: TestApp, userId?: string): Promise<SessionRow[]> {
  const { rows } = await t.db.query<SessionRow>(
    `SELECT id, token_hash, user_id, revoked_at, discord_access_token, discord_refresh_token, discord_scope
       FROM sessions ${userId ? 'WHERE user_id = $1' : ''} ORDER BY created_at, id`,
    userId ? [userId] : [],
  );
  return rows;
}

async function count(t: TestApp, table: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]?.n ?? 0);
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The error page's footer, e.g. "1006 - 400". */
function footer(html: string): string | null {
  return /<small>([^<]*)<\/small>/.exec(html)?.[1] ?? null;
}

async function me(browser: Browser): Promise<MeResponse> {
  const res = await browser.get('/api/auth/@me');
  expect(res.statusCode).toBe(200);
  return MeResponse.parse(res.json());
}

describe.each(databases())('auth routes on $name', (database) => {
  describe('GET /api/auth/login', () => {
    const t = useTestApp(database);

    it("redirects to Discord's authorize page with the OAuth parameters, a state and PKCE S256", async () => {
      const browser = new Browser(t.app);
      const { res, authorize, state } = await startLogin(browser);
      expect(`${authorize.origin}${authorize.pathname}`).toBe(`${PUBLIC_URL}/sandbox/discord/oauth2/authorize`);
      const params = authorize.searchParams;
      expect(params.get('response_type')).toBe('code');
      expect(params.get('scope')).toBe('identify guilds');
      expect(params.get('prompt')).toBe('consent');
      expect(params.get('client_id')).toBe(DEMO_APP.clientId);
      expect(params.get('client_id')).toBe(t.config.discord.clientId);
      expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback`);
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(state).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it('binds the state to the browser with a short-lived HttpOnly SameSite=Lax cookie', async () => {
      const browser = new Browser(t.app);
      const { res, state } = await startLogin(browser);
      const cookie = setCookie(res, STATE);
      expect(cookie).toBeDefined();
      expect(cookie!.httpOnly).toBe(true);
      expect(cookie!.sameSite).toBe('Lax');
      expect(cookie!.path).toBe('/');
      expect(cookie!.maxAge).toBe(600);
      // Plain-http localhost: not Secure (the browser would drop it), and no __Host- prefix.
      expect(cookie!.secure).not.toBe(true);
      const line = setCookieLines(res).find((l) => l.startsWith(`${STATE}=`))!;
      expect(line).not.toMatch(/;\s*Secure/i);
      // The cookie carries the state, signed.
      expect(cookie!.value.startsWith(`${state}.`)).toBe(true);
    });

    it('keeps only a hash of the state and an encrypted PKCE verifier on the server', async () => {
      const browser = new Browser(t.app);
      const { state } = await startLogin(browser);
      const { rows } = await t.db.query<{ state_hash: string; code_verifier: string; return_origin: string }>(
        'SELECT state_hash, code_verifier, return_origin FROM oauth_states WHERE state_hash = $1',
        [sha256(state)],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_verifier).toMatch(/^v2\.[\w-]{8}\./);
      expect(rows[0]!.return_origin).toBe(DASHBOARD_ORIGIN);
      const all = await t.db.query<Record<string, unknown>>('SELECT * FROM oauth_states');
      expect(JSON.stringify(all.rows)).not.toContain(state);
    });

    it('uses a new state and PKCE challenge for every sign-in', async () => {
      const first = await startLogin(new Browser(t.app));
      const second = await startLogin(new Browser(t.app));
      expect(first.state).not.toBe(second.state);
      expect(first.authorize.searchParams.get('code_challenge')).not.toBe(second.authorize.searchParams.get('code_challenge'));
    });
  });

  describe('GET /api/auth/callback', () => {
    const t = useTestApp(database);

    it('creates a session: HttpOnly, SameSite=Lax, not Secure on http localhost; the popup posts {auth:true} to the dashboard', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ava.id);
      expect(`${callback.origin}${callback.pathname}`).toBe(`${PUBLIC_URL}/api/auth/callback`);
      const res = await browser.get(callback.toString());
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // No Cross-Origin-Opener-Policy here: it would sever window.opener and strand the popup.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();

      const cookie = setCookie(res, SESSION)!;
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect(cookie.path).toBe('/');
      expect(cookie.maxAge).toBe(7 * 24 * 3600);
      expect(cookie.domain).toBeUndefined();
      expect(setCookieLines(res).find((l) => l.startsWith(`${SESSION}=`))).not.toMatch(/;\s*Secure/i);
      // The one-time state cookie is cleared.
      expect(browser.jar.has(STATE)).toBe(false);

      const popup = runPopup(res.body);
      expect(popup.posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD_ORIGIN }]);
      expect(popup.closed).toBe(true);
      expect(popup.script).not.toContain('"*"');

      const rows = await sessionRows(t, ava.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(sha256(cookie.value));
      expect((await me(browser)).isAuthenticated).toBe(true);
    });

    it("the popup page's CSP allows only its own inline script", async () => {
      const res = await signIn(new Browser(t.app), ava.id);
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name!, values.join(' ')];
        }),
      );
      expect(directives['default-src']).toBe("'none'");
      expect(directives['script-src']).toBe(scriptHash(runPopup(res.body).script));
      expect(directives['frame-ancestors']).toBe("'none'");
      expect(directives['base-uri']).toBe("'none'");
      expect(csp).not.toMatch(/unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
    });

    it('reports to the dashboard origin that opened the popup, and never to a foreign one', async () => {
      const second = await signIn(new Browser(t.app), ava.id, { referer: `${SECOND_DASHBOARD_ORIGIN}/dashboard` });
      expect(runPopup(second.body).posted).toEqual([{ message: { auth: true }, targetOrigin: SECOND_DASHBOARD_ORIGIN }]);
      const foreign = await signIn(new Browser(t.app), ava.id, { referer: `${FOREIGN_ORIGIN}/phish` });
      expect(runPopup(foreign.body).posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD_ORIGIN }]);
      // Without an opener (opened as a tab), it goes to the dashboard instead.
      expect(runPopup(foreign.body, 'absent').replacedWith).toBe(`${DASHBOARD_ORIGIN}/dashboard`);
    });

    async function expectStateRejected(res: Awaited<ReturnType<Browser['get']>>) {
      expect(res.statusCode).toBe(400);
      expect(footer(res.body)).toBe(`${ERROR_CODES.OAUTH_STATE_INVALID.code} - 400`);
      expect(setCookie(res, SESSION)).toBeUndefined();
      const popup = runPopup(res.body);
      expect(popup.posted).toEqual([
        { message: { auth: false, error: 'invalid_state', code: ERROR_CODES.OAUTH_STATE_INVALID.code }, targetOrigin: DASHBOARD_ORIGIN },
      ]);
    }

    it('rejects a wrong state', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ben.id);
      callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
      const sessionsBefore = await count(t, 'sessions');
      await expectStateRejected(await browser.get(callback.toString()));
      expect(await count(t, 'sessions')).toBe(sessionsBefore);
      expect((await me(browser)).isAuthenticated).toBe(false);
    });

    it('rejects a missing state', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ben.id);
      callback.searchParams.delete('state');
      await expectStateRejected(await browser.get(callback.toString()));
    });

    it('rejects a callback without the state cookie (another browser, or a forged link)', async () => {
      const victim = new Browser(t.app);
      const { authorize } = await startLogin(new Browser(t.app));
      const callback = await approveAs(victim, authorize, ben.id);
      const sessionsBefore = await count(t, 'sessions');
      await expectStateRejected(await victim.get(callback.toString()));
      expect(await count(t, 'sessions')).toBe(sessionsBefore);
    });

    it('rejects a tampered state cookie', async () => {
      for (const tamper of [
        (v: string) => `${v.slice(0, -1)}${v.endsWith('A') ? 'B' : 'A'}`, // bad signature
        (v: string) => `x${v}`, // value changed, signature kept
        (v: string) => v.slice(0, v.lastIndexOf('.')), // signature removed
      ]) {
        const browser = new Browser(t.app);
        const { authorize } = await startLogin(browser);
        const callback = await approveAs(browser, authorize, ben.id);
        browser.jar.set(STATE, tamper(browser.jar.get(STATE)!));
        await expectStateRejected(await browser.get(callback.toString()));
      }
    });

    it('accepts a state only once', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const stateCookie = browser.jar.get(STATE)!;
      const callback = await approveAs(browser, authorize, ben.id);
      expect((await browser.get(callback.toString())).statusCode).toBe(200);
      // Replaying the same callback, even with the state cookie put back, is refused.
      const replay = new Browser(t.app);
      replay.jar.set(STATE, stateCookie);
      await expectStateRejected(await replay.get(callback.toString()));
    });

    it('rejects a state past its 10 minutes', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ben.id);
      t.clock.advance(10 * MINUTE + SECOND);
      await expectStateRejected(await browser.get(callback.toString()));
    });

    it('rejects a replayed authorization code (Discord refuses it; no session)', async () => {
      const first = new Browser(t.app);
      const { authorize } = await startLogin(first);
      const callback = await approveAs(first, authorize, cleo.id);
      expect((await first.get(callback.toString())).statusCode).toBe(200);
      const code = callback.searchParams.get('code')!;

      // An attacker starts their own sign-in and feeds it the stolen, used code.
      const attacker = new Browser(t.app);
      const own = await startLogin(attacker);
      const forged = new URL(`${PUBLIC_URL}/api/auth/callback`);
      forged.search = new URLSearchParams({ code, state: own.state }).toString();
      const sessionsBefore = await count(t, 'sessions');
      const res = await attacker.get(forged.toString());
      expect(res.statusCode).toBe(ERROR_CODES.OAUTH_FAILED.httpStatus);
      expect(footer(res.body)).toBe(`${ERROR_CODES.OAUTH_FAILED.code} - 502`);
      expect(setCookie(res, SESSION)).toBeUndefined();
      expect(await count(t, 'sessions')).toBe(sessionsBefore);
      expect(runPopup(res.body).posted).toEqual([
        { message: { auth: false, error: 'oauth_failed', code: ERROR_CODES.OAUTH_FAILED.code }, targetOrigin: DASHBOARD_ORIGIN },
      ]);
      // Discord (the sandbox) ends the grant the code had issued.
      const grant = t.sandbox.grants().find((g) => g.userId === cleo.id && g.via === 'authorization_code');
      expect(grant?.endReason).toBe('code_replay');
    });

    it('handles Cancel at Discord (access_denied): tells the opener, creates nothing, uses up the state', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await cancelAt(browser, authorize);
      expect(callback.searchParams.get('error')).toBe('access_denied');
      const sessionsBefore = await count(t, 'sessions');
      const res = await browser.get(callback.toString());
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Login cancelled');
      expect(setCookie(res, SESSION)).toBeUndefined();
      expect(await count(t, 'sessions')).toBe(sessionsBefore);
      const popup = runPopup(res.body);
      expect(popup.posted).toEqual([{ message: { auth: false, error: 'access_denied' }, targetOrigin: DASHBOARD_ORIGIN }]);
      expect(popup.closed).toBe(true);
      const left = await t.db.query('SELECT 1 FROM oauth_states WHERE state_hash = $1', [sha256(authorize.searchParams.get('state')!)]);
      expect(left.rows).toHaveLength(0);
    });

    it('asks for a new sign-in when Discord sends no code', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ben.id);
      callback.searchParams.delete('code');
      const res = await browser.get(callback.toString());
      expect(res.statusCode).toBe(400);
      expect(footer(res.body)).toBe(`${ERROR_CODES.VALIDATION_FAILED.code} - 400`);
      expect(setCookie(res, SESSION)).toBeUndefined();
    });

    it('answers 503 (1008) with Retry-After when Discord is down during the exchange', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ben.id);
      t.sandbox.failNext('POST /api/v10/oauth2/token', { status: 503, retryAfter: 7 });
      const res = await browser.get(callback.toString());
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(footer(res.body)).toBe(`${ERROR_CODES.DISCORD_UNAVAILABLE.code} - 503`);
      expect(setCookie(res, SESSION)).toBeUndefined();
    });

    it('refuses malformed callback queries with the state error, never a 5xx', async () => {
      for (const query of ['state=a&state=b&code=c', `code=${'x'.repeat(600)}&state=s`, 'error=x&error=y', '%zz=1']) {
        const res = await new Browser(t.app).get(`/api/auth/callback?${query}`);
        expect(res.statusCode, query).toBeLessThan(500);
        expect(res.statusCode, query).toBeGreaterThanOrEqual(200);
        expect(setCookie(res, SESSION)).toBeUndefined();
      }
    });
  });

  describe('GET /api/auth/@me', () => {
    const t = useTestApp(database);

    it('answers the anonymous shape to a visitor, and to an unknown or malformed cookie', async () => {
      const visitor = new Browser(t.app);
      const res = await visitor.get('/api/auth/@me');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual(ANONYMOUS);
      expect(AnonymousMe.parse(res.json())).toEqual({
        isAuthenticated: false,
        user: null,
        guilds: [],
        team: null,
        sub: null,
        guildsRefreshedAt: null,
      });
      for (const value of ['A'.repeat(43), 'nonsense', '', 'x'.repeat(5000)]) {
        const browser = new Browser(t.app);
        browser.jar.set(SESSION, value);
        expect(await me(browser)).toEqual(ANONYMOUS);
      }
    });

    it("Ava: her servers in Discord's order, with canManage and botInGuild right", async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const body = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(body.user).toEqual({
        id: ava.id,
        username: 'ava',
        globalName: 'Ava',
        avatar: ava.avatar,
        avatarUrl: `${PUBLIC_URL}/sandbox/discord/cdn/avatars/${ava.id}/${ava.avatar}.png`,
      });
      const summary = body.guilds.map((g) => [g.id, g.owner, g.canManage, g.botInGuild]);
      expect(summary).toEqual([
        [DEMO_GUILDS.avasArcade.id, true, true, true],
        [DEMO_GUILDS.pixelPals.id, true, true, true],
        [DEMO_GUILDS.studyHall.id, false, true, false], // ADMINISTRATOR, no bot
        [DEMO_GUILDS.cozyCorner.id, false, false, true], // plain member
        [DEMO_GUILDS.modGuild.id, false, true, true], // MANAGE_GUILD
      ]);
      const arcade = body.guilds[0]!;
      expect(arcade.name).toBe("Ava's Arcade");
      expect(arcade.iconUrl).toBe(`${PUBLIC_URL}/sandbox/discord/cdn/icons/${arcade.id}/${DEMO_GUILDS.avasArcade.icon}.png`);
      expect(body.guilds[2]!.iconUrl).toBeNull();
      expect(body.team).toBeNull();
      expect(body.sub).toBeNull();
      expect(body.guildsRefreshedAt).toBe(new Date(t.clock.now).toISOString());
    });

    it('Ben: admin of a server without the bot, plain member where the bot is, a Dashboard Readers member of Retro Modders', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      const body = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(body.user.avatarUrl).toMatch(/\/embed\/avatars\/[0-5]\.png$/);
      // Retro Modders gives no role access in this suite (its configuration is not saved): no roleAccess.
      expect(body.guilds.map((g) => [g.id, g.canManage, g.botInGuild, g.roleAccess])).toEqual([
        [DEMO_GUILDS.avasArcade.id, false, true, false],
        [DEMO_GUILDS.bensWorkshop.id, true, false, false],
        [DEMO_GUILDS.modGuild.id, false, true, false],
      ]);
    });

    it('Cleo: member of servers, manages none, not staff', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, cleo.id);
      const body = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(body.guilds).toHaveLength(2);
      expect(body.guilds.every((g) => !g.canManage)).toBe(true);
      expect(body.team).toBeNull();
    });

    it("Sam (STAFF_OWNER_IDS in demo mode): the team has every staff flag", async () => {
      const browser = new Browser(t.app);
      await signIn(browser, sam.id);
      const body = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(body.team).toEqual({ permissions: [...STAFF_PERMISSIONS], owner: true });
      expect(body.guilds.map((g) => [g.id, g.canManage])).toEqual([[DEMO_GUILDS.ticketyHq.id, true]]);
    });

    it('staff granted by the team manager get their known flags only; subscriptions fill `sub`', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      await t.db.query(`INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2)`, [
        ben.id,
        ['SPECIAL_TEAM_MANAGER_READ', 'NOT_A_FLAG'],
      ]);
      await insertSubscriptions(t.db, [
        { id: 's1', userId: ben.id, provider: 'paddle', providerId: 'sub_1', status: 'active', premium: true, servers: [DEMO_GUILDS.bensWorkshop.id] },
        { id: 's2', userId: ben.id, provider: 'chargebee', providerId: 'cb_1', status: 'cancelled', premium: false, servers: [DEMO_GUILDS.avasArcade.id] },
      ]);
      const body = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      expect(body.team).toEqual({ permissions: ['SPECIAL_TEAM_MANAGER_READ'], owner: false });
      expect(body.sub).toEqual({ premium: true, servers: [DEMO_GUILDS.bensWorkshop.id] });
    });

    it('never calls Discord', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      t.sandbox.clearRequests();
      const callsBefore = t.discordCalls.length;
      for (let i = 0; i < 5; i++) {
        t.clock.advance(2 * MINUTE);
        expect((await me(browser)).isAuthenticated).toBe(true);
      }
      expect(t.discordCalls.length).toBe(callsBefore);
      expect(t.sandbox.requests()).toEqual([]);
    });
  });

  describe('secrets', () => {
    const t = useTestApp(database);

    it('stores Discord tokens encrypted, answers them to nobody, and never logs them or the session cookie', async () => {
      const browser = new Browser(t.app);
      const { authorize } = await startLogin(browser);
      const callback = await approveAs(browser, authorize, ava.id);
      await browser.get(callback.toString());
      const sessionToken = browser.jar.get(SESSION)!;
      await browser.get('/api/auth/@me');
      t.clock.advance(11 * SECOND);
      expect((await browser.post('/api/auth/guilds/refresh')).statusCode).toBe(200);

      const live = t.sandbox.tokens().filter((tk) => tk.userId === ava.id && tk.active);
      const access = live.find((tk) => tk.kind === 'access')!.token;
      const refresh = live.find((tk) => tk.kind === 'refresh')!.token;
      expect(access.length).toBeGreaterThan(20);

      // At rest: AES-GCM ciphertexts, no plaintext token anywhere in the row; the cookie only as a hash.
      const rows = await sessionRows(t, ava.id);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.discord_access_token).toMatch(/^v2\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(row.discord_refresh_token).toMatch(/^v2\./);
      const all = JSON.stringify((await t.db.query('SELECT * FROM sessions')).rows);
      for (const secret of [access, refresh, sessionToken]) expect(all).not.toContain(secret);
      // ...and they decrypt to the live tokens (the session really holds them).
      const opened = await t.app.sessions.tokens(row.id);
      expect(opened).toMatchObject({ accessToken: access, refreshToken: refresh, scope: 'identify guilds' });

      // Never in an answer to the browser (bodies, headers, cookies).
      const received = browser.everythingReceived();
      for (const secret of [access, refresh, DEMO_APP.clientSecret, DEMO_APP.botToken]) expect(received).not.toContain(secret);

      // Never in the logs: tokens, the session cookie, the code, the state, client secret, bot token.
      const logged = t.logs.text();
      expect(t.logs.messages('signed in')).toHaveLength(1);
      expect(logged).toContain('/api/auth/callback?');
      for (const secret of [
        access,
        refresh,
        sessionToken,
        callback.searchParams.get('code')!,
        callback.searchParams.get('state')!,
        DEMO_APP.clientSecret,
        DEMO_APP.botToken,
      ]) {
        expect(logged).not.toContain(secret);
      }
    });
  });

  describe('session expiry', () => {
    const t = useTestApp(database);

    it('ends a session idle for 24 hours', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      t.clock.advance(24 * HOUR - MINUTE);
      expect((await me(browser)).isAuthenticated).toBe(true);
      // Activity moved the idle window: another 24 h - 1 min later it is still alive...
      t.clock.advance(24 * HOUR - MINUTE);
      expect((await me(browser)).isAuthenticated).toBe(true);
      // ...but 24 h without a request ends it.
      t.clock.advance(24 * HOUR);
      expect(await me(browser)).toEqual(ANONYMOUS);
      const guarded = await browser.get(`/api/guilds/${DEMO_GUILDS.bensWorkshop.id}`);
      expect(guarded.statusCode).toBe(401);
    });

    it('ends an active session after 7 days', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, cleo.id);
      const start = t.clock.now;
      while (t.clock.now + 20 * HOUR < start + 7 * DAY) {
        t.clock.advance(20 * HOUR);
        expect((await me(browser)).isAuthenticated).toBe(true);
      }
      t.clock.set(start + 7 * DAY - SECOND);
      expect((await me(browser)).isAuthenticated).toBe(true);
      t.clock.set(start + 7 * DAY);
      expect(await me(browser)).toEqual(ANONYMOUS);
    });
  });

  describe('GET /api/auth/logout', () => {
    const t = useTestApp(database);

    it('ends the session on the server, clears the cookie and revokes the Discord grant', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const oldCookie = browser.jar.get(SESSION)!;
      const refresh = t.sandbox.tokens().find((tk) => tk.userId === ava.id && tk.kind === 'refresh' && tk.active)!.token;

      const res = await browser.logout();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ isAuthenticated: false });
      expect(res.headers['cache-control']).toBe('no-store');
      const cleared = setCookie(res, SESSION)!;
      expect(cleared.value).toBe('');
      expect(browser.jar.has(SESSION)).toBe(false);

      // The old cookie no longer works (revoked server-side, not just forgotten by the browser).
      const stolen = new Browser(t.app);
      stolen.jar.set(SESSION, oldCookie);
      expect(await me(stolen)).toEqual(ANONYMOUS);
      const row = (await sessionRows(t, ava.id))[0]!;
      expect(row.revoked_at).not.toBeNull();
      expect(row.discord_access_token).toBeNull();
      expect(row.discord_refresh_token).toBeNull();
      await vi.waitFor(() => expect(t.sandbox.isTokenActive(refresh)).toBe(false));
      expect(t.sandbox.grants().find((g) => g.userId === ava.id)?.endReason).toBe('revoked');
    });

    it('a HEAD request (link checker, prefetch) signs nobody out', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, cleo.id);
      const head = await browser.request('HEAD', '/api/auth/logout');
      expect(head.statusCode).toBe(404);
      expect((await me(browser)).isAuthenticated).toBe(true);
      expect((await browser.request('HEAD', '/api/auth/login')).statusCode).toBe(404);
    });

    it('acts only for the dashboard\'s own fetch: links, window.open, forms, subresources and prefetches sign nobody out', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      const navigation = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' };
      const refused: Array<[string, Record<string, string>]> = [
        ['a link or window.open from another site', { 'sec-fetch-site': 'cross-site', ...navigation, referer: 'https://evil.example/page' }],
        ['a GET form from another site', { 'sec-fetch-site': 'cross-site', ...navigation, origin: 'https://evil.example' }],
        ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', origin: 'https://evil.example' }],
        ['typed in the address bar', { 'sec-fetch-site': 'none', ...navigation }],
        ['a same-site navigation', { 'sec-fetch-site': 'same-site', ...navigation, referer: `${DASHBOARD_ORIGIN}/` }],
        ['a same-site image', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image', referer: `${DASHBOARD_ORIGIN}/` }],
        ['a same-origin frame', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }],
        ['a same-site fetch from a host that is not the dashboard', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', origin: 'http://blog.localhost:8080' }],
        ['a prefetch', { 'sec-purpose': 'prefetch', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' }],
        ['a legacy prefetch', { purpose: 'prefetch', origin: DASHBOARD_ORIGIN }],
        ['no fetch metadata, no Origin or Referer', {}],
        ['no fetch metadata, a foreign Referer', { referer: 'https://evil.example/' }],
      ];
      for (const [what, headers] of refused) {
        const res = await browser.get('/api/auth/logout', { headers });
        expect(res.statusCode, what).toBe(403);
        expect(ApiError.parse(res.json()), what).toMatchObject({ code: ERROR_CODES.CSRF_REJECTED.code, isAuthenticated: true });
        expect(setCookie(res, SESSION), what).toBeUndefined();
        expect((await me(browser)).isAuthenticated, what).toBe(true);
      }
      expect(t.sandbox.grants().find((g) => g.userId === ben.id && g.endedAt === null)).toBeDefined();

      // The dashboard's own requests: a same-origin fetch (all-in-one), and a client without fetch metadata from a dashboard origin.
      const sameOrigin = await browser.get('/api/auth/logout', { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } });
      expect(sameOrigin.json()).toEqual({ isAuthenticated: false });
      expect((await me(browser)).isAuthenticated).toBe(false);
      await signIn(browser, ben.id);
      const legacy = await browser.get('/api/auth/logout', { headers: { origin: SECOND_DASHBOARD_ORIGIN } });
      expect(legacy.json()).toEqual({ isAuthenticated: false });
      expect((await me(browser)).isAuthenticated).toBe(false);
      // An old browser on the all-in-one origin: a same-origin GET with neither Origin, Referer nor
      // Fetch Metadata; the request client's own header proves it.
      await signIn(browser, ben.id);
      const bare = await browser.get('/api/auth/logout', { headers: { 'x-requested-with': 'tickety' } });
      expect(bare.json()).toEqual({ isAuthenticated: false });
      expect((await me(browser)).isAuthenticated).toBe(false);
    });

    it('answers {isAuthenticated:false} without a session too', async () => {
      const res = await new Browser(t.app).logout();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ isAuthenticated: false });
    });
  });

  describe('signing in again', () => {
    const t = useTestApp(database);

    it('replaces the previous session with a new token', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const first = browser.jar.get(SESSION)!;
      await signIn(browser, ava.id);
      const second = browser.jar.get(SESSION)!;
      expect(second).not.toBe(first);
      const old = new Browser(t.app);
      old.jar.set(SESSION, first);
      expect(await me(old)).toEqual(ANONYMOUS);
      const rows = await sessionRows(t, ava.id);
      expect(rows.filter((r) => r.revoked_at === null)).toHaveLength(1);
      expect(rows.find((r) => r.revoked_at === null)!.token_hash).toBe(sha256(second));

      // Signing in as someone else in the same browser replaces it too.
      await signIn(browser, ben.id);
      const body = await me(browser);
      expect(body.isAuthenticated && body.user.id).toBe(ben.id);
      expect((await sessionRows(t, ava.id)).every((r) => r.revoked_at !== null)).toBe(true);
    });

    it('keeps sessions of other browsers', async () => {
      const laptop = new Browser(t.app);
      const phone = new Browser(t.app);
      await signIn(laptop, cleo.id);
      await signIn(phone, cleo.id);
      expect((await me(laptop)).isAuthenticated).toBe(true);
      expect((await me(phone)).isAuthenticated).toBe(true);
    });
  });

  describe('POST /api/auth/guilds/refresh', () => {
    const t = useTestApp(database);

    it('needs a session (401, isAuthenticated false)', async () => {
      const res = await new Browser(t.app).post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, message: ERROR_CODES.UNAUTHENTICATED.message, isAuthenticated: false });
    });

    it("fetches the user's guilds again, at most once per 10 s per user (429 1003 with Retry-After)", async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      t.clock.advance(SECOND);
      // The bot was just invited to Study Hall: a refresh shows it at once, although the API's cached
      // copy of the bot's guild list (one minute) does not have it yet: it checks the user's servers.
      t.sandbox.setBotInGuild(DEMO_GUILDS.studyHall.id, true);
      const res = await browser.post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(200);
      const body = AuthenticatedMe.parse(res.json());
      expect(body.guilds.find((g) => g.id === DEMO_GUILDS.studyHall.id)?.botInGuild).toBe(true);
      expect(body.guildsRefreshedAt).toBe(new Date(t.clock.now).toISOString());

      t.clock.advance(4 * SECOND);
      const calls = t.discordCalls.length;
      const limited = await browser.post('/api/auth/guilds/refresh');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('6');
      expect(limited.json()).toMatchObject({ code: ERROR_CODES.RATE_LIMITED.code, isAuthenticated: true });
      expect(t.discordCalls.length).toBe(calls);

      // Per user, not per browser.
      const other = new Browser(t.app);
      await signIn(other, ava.id);
      t.clock.advance(SECOND);
      expect((await other.post('/api/auth/guilds/refresh')).statusCode).toBe(429);

      t.clock.advance(10 * SECOND);
      expect((await other.post('/api/auth/guilds/refresh')).statusCode).toBe(200);
    });

    it('refreshes an expiring Discord access token first and stores the new pair encrypted', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      const start = t.clock.now;
      const live = () => t.sandbox.tokens().filter((tk) => tk.userId === ben.id && tk.active);
      const oldAccess = live().find((tk) => tk.kind === 'access')!.token;
      const oldRefresh = live().find((tk) => tk.kind === 'refresh')!.token;
      // Stay active until the access token (7 days) is within a minute of expiring.
      while (t.clock.now + 20 * HOUR < start + 7 * DAY) {
        t.clock.advance(20 * HOUR);
        await me(browser);
      }
      t.clock.set(start + 7 * DAY - 30 * SECOND);
      t.sandbox.clearRequests();
      const res = await browser.post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(200);
      // The refresh token was used (and rotated); the session now holds the new pair, encrypted.
      expect(t.sandbox.isTokenActive(oldRefresh)).toBe(false);
      const row = (await sessionRows(t, ben.id)).find((r) => r.revoked_at === null)!;
      const opened = (await t.app.sessions.tokens(row.id))!;
      expect(opened.accessToken).not.toBe(oldAccess);
      expect(opened.refreshToken).not.toBe(oldRefresh);
      expect(t.sandbox.isTokenActive(opened.accessToken)).toBe(true);
      expect(t.sandbox.isTokenActive(opened.refreshToken)).toBe(true);
      expect(JSON.stringify(row)).not.toContain(opened.accessToken);
      expect(t.sandbox.requests('GET /api/v10/users/@me/guilds').filter((r) => r.auth === 'bearer')).toHaveLength(1);
      expect(t.sandbox.requests('POST /api/v10/oauth2/token').at(-1)?.status).toBe(200);
    });

    it('retries once with a refreshed token when Discord answers 401', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, cleo.id);
      t.clock.advance(11 * SECOND);
      t.sandbox.clearRequests();
      t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 401 });
      const res = await browser.post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(200);
      expect(t.sandbox.requests('/api/v10/oauth2/token')).toHaveLength(1);
      expect(t.sandbox.requests('GET /api/v10/users/@me/guilds').filter((r) => r.auth === 'bearer')).toHaveLength(2);
    });

    it('keeps the stored list and answers 503 (1008) with Retry-After when Discord is down', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      t.clock.advance(11 * SECOND);
      const stored = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
      t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 7 });
      const res = await browser.post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toMatchObject({ code: ERROR_CODES.DISCORD_UNAVAILABLE.code, isAuthenticated: true });
      expect(AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json()).guilds).toEqual(stored.guilds);
    });

    it('ends the session when the Discord grant was revoked (401, cookie cleared)', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, sam.id);
      t.clock.advance(11 * SECOND);
      expect(t.sandbox.revokeUser(sam.id)).toBeGreaterThan(0);
      const res = await browser.post('/api/auth/guilds/refresh');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 401, isAuthenticated: false });
      expect(setCookie(res, SESSION)?.value).toBe('');
      expect(await me(browser)).toEqual(ANONYMOUS);
      expect((await sessionRows(t, sam.id)).every((r) => r.revoked_at !== null)).toBe(true);
    });
  });
});

describe.each(databases())('auth routes over https on $name', (database) => {
  const t = useTestApp(database, {
    env: { PUBLIC_URL: 'https://api.tickety.test', DASHBOARD_ORIGINS: 'https://tickety.test' },
  });

  it('uses Secure __Host- cookies and reports to the https dashboard', async () => {
    const browser = new Browser(t.app);
    const { res: login, authorize } = await startLogin(browser);
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://api.tickety.test/api/auth/callback');
    const state = setCookie(login, '__Host-tickety_oauth')!;
    expect(state).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(state.domain).toBeUndefined();
    expect(login.headers['strict-transport-security']).toMatch(/max-age=\d+/);

    const callback = await approveAs(browser, authorize, ava.id);
    const res = await browser.get(callback.toString());
    expect(res.statusCode).toBe(200);
    const session = setCookie(res, '__Host-tickety_session')!;
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session.domain).toBeUndefined();
    expect(setCookie(res, 'tickety_session')).toBeUndefined();
    expect(runPopup(res.body).posted).toEqual([{ message: { auth: true }, targetOrigin: 'https://tickety.test' }]);

    const body = MeResponse.parse((await browser.get('https://api.tickety.test/api/auth/@me')).json());
    expect(body.isAuthenticated).toBe(true);
    // The plain name is not honoured when cookies are Secure.
    const plain = new Browser(t.app);
    plain.jar.set('tickety_session', browser.jar.get('__Host-tickety_session')!);
    expect(MeResponse.parse((await plain.get('/api/auth/@me')).json()).isAuthenticated).toBe(false);
  });
});

describe.each(databases())('auth routes when Discord misbehaves on $name', (database) => {
  let narrowScope = false;
  const t = useTestApp(database, {
    // Discord granting fewer scopes than asked (a user editing the consent URL, say).
    wrapFetch: (inner) => async (url, init) => {
      const res = await inner(url, init);
      if (!narrowScope || !url.endsWith('/oauth2/token') || !res.ok) return res;
      const body = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, scope: 'identify' }), { status: res.status, headers: res.headers });
    },
  });

  it('refuses a sign-in without the guilds scope, and gives the grant back', async () => {
    const browser = new Browser(t.app);
    const { authorize } = await startLogin(browser);
    const callback = await approveAs(browser, authorize, cleo.id);
    narrowScope = true;
    const res = await browser.get(callback.toString());
    narrowScope = false;
    expect(res.statusCode).toBe(502);
    expect(footer(res.body)).toBe(`${ERROR_CODES.OAUTH_FAILED.code} - 502`);
    expect(res.body).toContain('Discord did not grant access to your server list');
    expect(setCookie(res, SESSION)).toBeUndefined();
    expect(await sessionRows(t, cleo.id)).toEqual([]);
    await vi.waitFor(() => expect(t.sandbox.grants().find((g) => g.userId === cleo.id)?.endReason).toBe('revoked'));
  });

  it('still signs out when revoking at Discord fails (logged, not shown)', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ben.id);
    t.sandbox.failNext('POST /api/v10/oauth2/token/revoke', { status: 503 });
    const res = await browser.logout();
    expect(res.json()).toEqual({ isAuthenticated: false });
    expect(await me(browser)).toEqual(ANONYMOUS);
    await vi.waitFor(() => expect(t.logs.messages('background task failed')).toHaveLength(1));
  });
});

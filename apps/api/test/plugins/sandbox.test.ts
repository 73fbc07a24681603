import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { FOREIGN_ORIGIN, PUBLIC_URL, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn, startLogin } from '../helpers/oauth';

const CONTROL = '/sandbox/discord/_control';
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const EVIL = `${FOREIGN_ORIGIN}/`;

/** The API's own authorize URL (from /api/auth/login), pointed elsewhere and approved at once with login_hint. */
async function hijacked(browser: Browser, changes: Record<string, string>): Promise<URL> {
  const { authorize } = await startLogin(browser);
  authorize.searchParams.set('login_hint', DEMO_USERS.sam.id);
  for (const [name, value] of Object.entries(changes)) authorize.searchParams.set(name, value);
  return authorize;
}

describe.each(databases())('the Discord sandbox in demo mode on $name', (database) => {
  describe('development and tests', () => {
    const t = useTestApp(database);

    it('is mounted at /sandbox/discord and is what the API calls Discord', async () => {
      const browser = new Browser(t.app);
      const page = await browser.get(`/sandbox/discord/oauth2/authorize?response_type=code&client_id=${t.config.discord.clientId}&scope=identify%20guilds&redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/api/auth/callback`)}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Sam');
      await signIn(browser, DEMO_USERS.sam.id);
      expect(t.discordCalls.map((c) => new URL(c.url).pathname)).toEqual(
        expect.arrayContaining(['/sandbox/discord/api/v10/oauth2/token', '/sandbox/discord/api/v10/users/@me', '/sandbox/discord/api/v10/users/@me/guilds']),
      );
      expect(t.discordCalls.every((c) => c.url.startsWith(`${PUBLIC_URL}/sandbox/discord/api/v10/`))).toBe(true);
    });

    it('keeps its test controls off unless SANDBOX_CONTROL enables them', async () => {
      const res = await new Browser(t.app).request('POST', `${CONTROL}/state`, { headers: json, payload: '{}' });
      expect(res.statusCode).toBe(404);
      const fault = await new Browser(t.app).request('POST', `${CONTROL}/fail`, { headers: json, payload: JSON.stringify({ match: '*', status: 500, times: 'always' }) });
      expect(fault.statusCode).toBe(404);
      expect(t.sandbox.pendingFaults()).toEqual([]);
    });

    it('is no open redirect: a foreign redirect_uri with login_hint is a 400 page, not a 302 with a code', async () => {
      const browser = new Browser(t.app);
      const before = t.sandbox.requests('/oauth2/authorize').length;
      const res = await browser.get((await hijacked(browser, { redirect_uri: EVIL })).toString());
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('is not registered');
      expect(res.body).not.toMatch(/[?&]code=/);
      expect(t.sandbox.requests('/oauth2/authorize').slice(before)).toEqual([expect.objectContaining({ method: 'GET', status: 400 })]);
      // Look-alikes of the callback are refused too: only the exact URL is registered.
      for (const uri of [`${PUBLIC_URL}/api/auth/callback/`, `${PUBLIC_URL}/api/auth/callback?next=${EVIL}`, 'http://localhost:3001/api/auth/callback', `${PUBLIC_URL}/`]) {
        const other = await browser.get((await hijacked(browser, { redirect_uri: uri })).toString());
        expect(other.statusCode, uri).toBe(400);
        expect(other.headers.location).toBeUndefined();
      }
    });

    it('refuses the consent form posted with a foreign redirect_uri (sign in and Cancel)', async () => {
      const browser = new Browser(t.app);
      const authorize = await hijacked(browser, { redirect_uri: EVIL });
      const fields = new URLSearchParams(authorize.searchParams);
      fields.delete('login_hint');
      for (const decision of [{ user_id: DEMO_USERS.sam.id }, { decision: 'cancel' }]) {
        const body = new URLSearchParams(fields);
        for (const [k, v] of Object.entries(decision)) body.set(k, v);
        const res = await browser.request('POST', `${authorize.origin}${authorize.pathname}`, { headers: form, payload: body.toString() });
        expect(res.statusCode).toBe(400);
        expect(res.headers.location).toBeUndefined();
      }
    });

    it("holds the bot invite's optional redirect_uri to the same allow-list", async () => {
      const browser = new Browser(t.app);
      expect((await browser.get(t.config.inviteUrl)).statusCode).toBe(200);
      for (const uri of [EVIL, `${PUBLIC_URL}/elsewhere`]) {
        const foreign = await browser.get(`${t.config.inviteUrl}&redirect_uri=${encodeURIComponent(uri)}&state=s`);
        expect(foreign.statusCode, uri).toBe(400);
        expect(foreign.body).toContain('is not registered');
      }
      const add = new URL(t.config.inviteUrl);
      const body = new URLSearchParams(add.searchParams);
      body.set('redirect_uri', EVIL);
      body.set('add_guild_id', DEMO_GUILDS.studyHall.id);
      const posted = await browser.request('POST', `${add.origin}${add.pathname}`, { headers: form, payload: body.toString() });
      expect(posted.statusCode).toBe(400);
      expect(posted.headers.location).toBeUndefined();
      expect(t.sandbox.botGuildIds()).not.toContain(DEMO_GUILDS.studyHall.id);
      const own = await browser.get(`${t.config.inviteUrl}&redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/api/auth/callback`)}`);
      expect(own.statusCode).toBe(200);
    });

    it('refuses over-long parameters with a 400 page', async () => {
      const browser = new Browser(t.app);
      for (const [name, value] of [
        ['state', 'x'.repeat(513)],
        ['redirect_uri', `${PUBLIC_URL}/api/auth/callback?${'x'.repeat(2048)}`],
        ['login_hint', 'x'.repeat(65)],
        ['padding', 'x'.repeat(9000)],
      ] as const) {
        const res = await browser.get((await hijacked(browser, { [name]: value })).toString());
        expect(res.statusCode, name).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toContain('Request too long');
      }
      const token = await browser.request('POST', '/sandbox/discord/api/v10/oauth2/token', {
        headers: form,
        payload: new URLSearchParams({ grant_type: 'authorization_code', code: 'x'.repeat(4097) }).toString(),
      });
      expect(token.statusCode).toBe(400);
      expect(token.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('"code" is too long') });
    });
  });

  describe('production (npm start in demo mode)', () => {
    const t = useTestApp(database, { env: { NODE_ENV: 'production' } });

    it('keeps the test controls off, so visitors of a public demo cannot break it for others', async () => {
      const res = await new Browser(t.app).request('POST', `${CONTROL}/state`, { headers: json, payload: '{}' });
      expect(res.statusCode).toBe(404);
      expect((await new Browser(t.app).get('/sandbox/discord/cdn/embed/avatars/0.png')).statusCode).toBe(200);
    });
  });

  describe('production with SANDBOX_CONTROL=1 (end-to-end runs)', () => {
    const t = useTestApp(database, { env: { NODE_ENV: 'production', SANDBOX_CONTROL: '1' } });
    const control = (action: string, body: unknown = {}) =>
      new Browser(t.app).request('POST', `${CONTROL}/${action}`, { headers: json, payload: JSON.stringify(body) });

    it('offers the controls when asked', async () => {
      expect((await control('state')).statusCode).toBe(200);
    });

    it('stores no code for a refused redirect, and one for the API callback', async () => {
      const browser = new Browser(t.app);
      const codes = async () => (await control('state')).json().stored.codes as number;
      const before = await codes();
      const refused = await browser.get((await hijacked(browser, { redirect_uri: EVIL })).toString());
      expect(refused.statusCode).toBe(400);
      const tooLong = await browser.get((await hijacked(browser, { state: 'x'.repeat(513) })).toString());
      expect(tooLong.statusCode).toBe(400);
      expect(await codes()).toBe(before);
      const approved = await browser.get((await hijacked(browser, {})).toString());
      expect(approved.statusCode).toBe(302);
      expect(String(approved.headers.location).startsWith(`${PUBLIC_URL}/api/auth/callback?code=`)).toBe(true);
      expect(await codes()).toBe(before + 1);
    });

    it('compiles no regular expression from a request: "pattern" is a 400 and arms nothing', async () => {
      const res = await control('fail', { pattern: '^(a+)+$', status: 500, times: 'always' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('"pattern"') });
      expect(t.sandbox.pendingFaults()).toEqual([]);
      // The string form still works.
      expect((await control('fail', { match: 'GET /cdn/*', status: 503 })).statusCode).toBe(200);
      expect((await new Browser(t.app).get('/sandbox/discord/cdn/embed/avatars/0.png')).statusCode).toBe(503);
    });
  });
});

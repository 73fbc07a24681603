import { DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const CONTROL = '/sandbox/discord/_control/state';
const json = { 'content-type': 'application/json' };

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

    it('offers its test controls over HTTP', async () => {
      const res = await new Browser(t.app).request('POST', CONTROL, { headers: json, payload: '{}' });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('production (npm start in demo mode)', () => {
    const t = useTestApp(database, { env: { NODE_ENV: 'production' } });

    it('keeps the test controls off, so visitors of a public demo cannot break it for others', async () => {
      const res = await new Browser(t.app).request('POST', CONTROL, { headers: json, payload: '{}' });
      expect(res.statusCode).toBe(404);
      expect((await new Browser(t.app).get('/sandbox/discord/cdn/embed/avatars/0.png')).statusCode).toBe(200);
    });
  });

  describe('production with SANDBOX_CONTROL=1 (end-to-end runs)', () => {
    const t = useTestApp(database, { env: { NODE_ENV: 'production', SANDBOX_CONTROL: '1' } });

    it('offers the controls when asked', async () => {
      expect((await new Browser(t.app).request('POST', CONTROL, { headers: json, payload: '{}' })).statusCode).toBe(200);
    });
  });
});

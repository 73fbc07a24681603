import { randomBytes } from 'node:crypto';
import { RuntimeConfig } from '@tickety/api-contract';
import { DEMO_APP } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, PUBLIC_URL, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';

const KEY = randomBytes(32).toString('base64');

describe.each(databases())('GET /config.json on $name', (database) => {
  describe('demo mode', () => {
    const t = useTestApp(database, { env: { TOKEN_ENCRYPTION_KEY: KEY, PADDLE_CLIENT_TOKEN: 'live_public_abc', PRODUCT_NAME: 'Ticketo' } });

    it('tells the shell where everything is, and holds no secret', async () => {
      const res = await new Browser(t.app).get('/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = RuntimeConfig.parse(res.json());
      expect(body).toEqual({
        productName: 'Ticketo',
        apiOrigin: PUBLIC_URL,
        remotes: {
          marketing: `${PUBLIC_URL}/remotes/marketing/mf-manifest.json`,
          billing: `${PUBLIC_URL}/remotes/billing/mf-manifest.json`,
          dashboard: `${PUBLIC_URL}/remotes/dashboard/mf-manifest.json`,
          staff: `${PUBLIC_URL}/remotes/staff/mf-manifest.json`,
        },
        docsUrl: 'https://docs.tickety.gg',
        supportUrl: 'https://discord.gg/tickety',
        inviteUrl: expect.stringContaining(`${PUBLIC_URL}/sandbox/discord/oauth2/authorize?client_id=${DEMO_APP.clientId}&scope=bot`),
        discordClientId: DEMO_APP.clientId,
        discordOrigin: `${PUBLIC_URL}/sandbox/discord`,
        paddleToken: 'live_public_abc',
        analyticsToken: null,
        demo: true,
      });
      for (const secret of [DEMO_APP.clientSecret, DEMO_APP.botToken, KEY]) expect(res.body).not.toContain(secret);
    });

    it('is readable cross-origin by the dashboard only', async () => {
      const ok = await new Browser(t.app).get('/config.json', { headers: { origin: DASHBOARD_ORIGIN } });
      expect(ok.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
      const foreign = await new Browser(t.app).get('/config.json', { headers: { origin: FOREIGN_ORIGIN } });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('split deployment with a real Discord application', () => {
    const secret = 'real-client-secret-0123456789';
    const bot = 'real-bot-token.abcdef.0123456789';
    const t = useTestApp(database, {
      env: {
        DISCORD_CLIENT_ID: '987654321098765432',
        DISCORD_CLIENT_SECRET: secret,
        DISCORD_BOT_TOKEN: bot,
        TOKEN_ENCRYPTION_KEY: KEY,
        PUBLIC_URL: 'https://api.tickety.test',
        DASHBOARD_ORIGINS: 'https://tickety.test',
        REMOTE_BILLING_URL: 'https://cdn.tickety.test/billing/v42/mf-manifest.json',
        ANALYTICS_TOKEN: 'pk_analytics',
      },
    });

    it('points at the remotes it is given (roll a remote back without rebuilding the shell)', async () => {
      const res = await new Browser(t.app).get('https://api.tickety.test/config.json');
      const body = RuntimeConfig.parse(res.json());
      expect(body.demo).toBe(false);
      expect(body.discordClientId).toBe('987654321098765432');
      expect(body.discordOrigin).toBe('https://discord.com');
      expect(body.remotes.billing).toBe('https://cdn.tickety.test/billing/v42/mf-manifest.json');
      expect(body.remotes.marketing).toBe('https://api.tickety.test/remotes/marketing/mf-manifest.json');
      expect(body.analyticsToken).toBe('pk_analytics');
      for (const s of [secret, bot, KEY]) expect(res.body).not.toContain(s);
    });

    it('mounts no sandbox in production shape', async () => {
      const res = await new Browser(t.app).get('/sandbox/discord/oauth2/authorize');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(1002);
    });
  });
});

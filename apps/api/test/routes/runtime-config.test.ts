import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuntimeConfig } from '@tickety/api-contract';
import { DEMO_APP } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { runtimeConfig } from '../../src/lib/runtime-config';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, PUBLIC_URL, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { entry, replaceFile, TABLES, writeSite } from '../helpers/site';

const KEY = randomBytes(32).toString('base64');
const html = { accept: 'text/html' };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function siteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickety-config-site-'));
  dirs.push(dir);
  return dir;
}

/** A remote's dev server (or CDN) on loopback: serves mf-manifest.json and routes.json, counts requests. */
interface RemoteServer {
  url: string;
  requests: string[];
  /** What /routes.json answers: a table, an HTTP status, or 'hang' (never answers). */
  routes: unknown;
  close(): Promise<void>;
}

async function remoteServer(routes: unknown): Promise<RemoteServer> {
  const state: RemoteServer = { url: '', requests: [], routes, close: async () => {} };
  const server: Server = createServer((req, res) => {
    state.requests.push(req.url ?? '');
    if (req.url === '/mf-manifest.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"remote"}');
    } else if (req.url === '/routes.json') {
      if (state.routes === 'hang') return; // never answers
      if (typeof state.routes === 'number') res.writeHead(state.routes).end('no');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.routes));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return state;
}

describe('runtimeConfig: the analytics script', () => {
  const REAL = { DISCORD_CLIENT_ID: '987654321098765432', DISCORD_CLIENT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: KEY, DATA_DIR: 'memory://' };
  const site = { remotes: {}, shell: null };

  it('is null, with its token, when no token is configured', () => {
    const body = runtimeConfig(loadConfig(REAL), site);
    expect(RuntimeConfig.parse(body)).toEqual(body);
    expect(body).toMatchObject({ analyticsToken: null, analyticsScriptUrl: null });
    // A script URL alone starts nothing.
    expect(runtimeConfig(loadConfig({ ...REAL, ANALYTICS_SCRIPT_URL: 'https://cdn.example.test/pw.js' }), site)).toMatchObject({ analyticsToken: null, analyticsScriptUrl: null });
  });

  it("is ProfitWell's with a token, or the one configured", () => {
    expect(runtimeConfig(loadConfig({ ...REAL, ANALYTICS_TOKEN: 'pk_live' }), site)).toMatchObject({
      analyticsToken: 'pk_live',
      analyticsScriptUrl: 'https://public.profitwell.com/js/profitwell.js',
    });
    expect(runtimeConfig(loadConfig({ ...REAL, ANALYTICS_TOKEN: 'pk_live', ANALYTICS_SCRIPT_URL: 'https://cdn.example.test/pw.js' }), site).analyticsScriptUrl).toBe('https://cdn.example.test/pw.js');
  });

  it("a static host's config.json without the field (written before it existed) still passes: no analytics", () => {
    const { analyticsScriptUrl: _, ...older } = runtimeConfig(loadConfig({ ...REAL, ANALYTICS_TOKEN: 'pk_live' }), site);
    expect(RuntimeConfig.safeParse(older).success).toBe(true);
  });
});

describe.each(databases())('GET /config.json on $name', (database) => {
  describe('demo mode, API only, no site', () => {
    const t = useTestApp(database, { env: { TOKEN_ENCRYPTION_KEY: KEY, PADDLE_CLIENT_TOKEN: 'live_public_abc', PRODUCT_NAME: 'Ticketo' } });

    it('tells the shell where everything is, and holds no secret', async () => {
      const res = await new Browser(t.app).get('/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = RuntimeConfig.parse(res.json());
      expect(res.json()).toEqual(body);
      expect(body).toEqual({
        productName: 'Ticketo',
        apiOrigin: PUBLIC_URL,
        remotes: {},
        docsUrl: 'https://docs.tickety.gg',
        supportUrl: 'https://discord.gg/tickety',
        inviteUrl: expect.stringContaining(`${PUBLIC_URL}/sandbox/discord/oauth2/authorize?client_id=${DEMO_APP.clientId}&scope=bot`),
        discordClientId: DEMO_APP.clientId,
        discordOrigin: `${PUBLIC_URL}/sandbox/discord`,
        paddleToken: 'live_public_abc',
        // Demo mode: Paddle.js is the sandbox's stand-in.
        paddleScriptUrl: `${PUBLIC_URL}/sandbox/paddle/paddle.js`,
        // Demo mode: the analytics script is the sandbox's stand-in, with its demo token.
        analyticsToken: 'demo_analytics',
        analyticsScriptUrl: `${PUBLIC_URL}/sandbox/analytics/profitwell.js`,
        demo: true,
      });
      for (const secret of [DEMO_APP.clientSecret, DEMO_APP.botToken, KEY]) expect(res.body).not.toContain(secret);
      // Without all-in-one, a missing site is normal (the static host serves its own config.json).
      expect(t.logs.messages(/config\.json/)).toHaveLength(0);
    });

    it('mounts the analytics stand-in where the config points: its script for the token, the starts it records', async () => {
      const script = await new Browser(t.app).get('/sandbox/analytics/profitwell.js?auth=demo_analytics');
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toContain('application/javascript');
      expect((await new Browser(t.app).get('/sandbox/analytics/profitwell.js?auth=other')).statusCode).toBe(403);
      // What the script posts (text/plain, no cookie, no CSRF header): the stand-in takes it.
      const start = await new Browser(t.app).request('POST', '/sandbox/analytics/starts', {
        headers: { 'content-type': 'text/plain', origin: PUBLIC_URL },
        payload: JSON.stringify({ token: 'demo_analytics', user_id: '1000000000000000001', user_email: null, page: '/billing' }),
      });
      expect(start.statusCode).toBe(204);
      const page = await new Browser(t.app).get('/sandbox/analytics/', { headers: html });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('1000000000000000001');
      // Same origin as the pages: nothing added to their CSP.
      expect(String(page.headers['content-security-policy'])).not.toContain('profitwell');
    });

    it('is readable cross-origin by the dashboard only', async () => {
      const ok = await new Browser(t.app).get('/config.json', { headers: { origin: DASHBOARD_ORIGIN } });
      expect(ok.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
      const foreign = await new Browser(t.app).get('/config.json', { headers: { origin: FOREIGN_ORIGIN } });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('all-in-one: the site composition', () => {
    const root = siteDir();
    writeSite(root, {
      shell: 'eeeeeeeeeee1',
      remotes: { marketing: entry('marketing', 'aaaaaaaaaaa1'), dashboard: entry('dashboard', 'ddddddddddd1') },
      // A split deployment's runtime settings in the file: the API answers its own.
      extra: { productName: 'Not the API', apiOrigin: 'https://elsewhere.test' },
    });
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: root, PRODUCT_NAME: 'Ticketo' } });

    it('answers the API settings with the remotes and shell version of the site config.json', async () => {
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(RuntimeConfig.parse(body)).toEqual(body);
      expect(body.productName).toBe('Ticketo');
      expect(body.apiOrigin).toBe(PUBLIC_URL);
      expect(body.shell).toEqual({ version: 'eeeeeeeeeee1' });
      expect(body.remotes).toEqual({ marketing: entry('marketing', 'aaaaaaaaaaa1'), dashboard: entry('dashboard', 'ddddddddddd1') });
    });

    it('re-reads the file when it changes: a deploy or a rollback takes effect at once, pages follow', async () => {
      expect((await new Browser(t.app).get('/billing', { headers: html })).statusCode).toBe(404);
      replaceFile(
        join(root, 'config.json'),
        JSON.stringify({ shell: { version: 'eeeeeeeeeee2' }, remotes: { marketing: entry('marketing', 'aaaaaaaaaaa2'), billing: entry('billing', 'bbbbbbbbbbb1') } }),
      );
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(body.shell).toEqual({ version: 'eeeeeeeeeee2' });
      expect(Object.keys(body.remotes)).toEqual(['marketing', 'billing']);
      expect(body.remotes.marketing.version).toBe('aaaaaaaaaaa2');
      expect((await new Browser(t.app).get('/billing', { headers: html })).statusCode).toBe(200);
      expect((await new Browser(t.app).get('/dashboard/1100000000000000001/configs', { headers: html })).statusCode).toBe(404);
    });

    it('answers no remotes while the file is unreadable, says so once, and recovers when it is fixed', async () => {
      replaceFile(join(root, 'config.json'), '{ "remotes": ');
      for (let i = 0; i < 3; i++) expect((await new Browser(t.app).get('/config.json')).json().remotes).toEqual({});
      expect(t.logs.messages(/cannot be read as JSON/)).toHaveLength(1);
      expect((await new Browser(t.app).get('/premium', { headers: html })).statusCode).toBe(404);
      // An entry of the wrong shape is left out, the others kept.
      replaceFile(join(root, 'config.json'), JSON.stringify({ remotes: { marketing: entry('marketing', 'aaaaaaaaaaa3'), billing: { manifest: 42 }, extra: {} } }));
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(Object.keys(body.remotes)).toEqual(['marketing']);
      expect(body.shell).toBeUndefined();
      expect(t.logs.messages(/no valid entry for billing/)).toHaveLength(1);
      expect(t.logs.messages(/unknown remote "extra"/)).toHaveLength(1);
      expect((await new Browser(t.app).get('/premium', { headers: html })).statusCode).toBe(200);
    });

    it('answers no remotes when the file is gone, with a warning', async () => {
      rmSync(join(root, 'config.json'));
      expect((await new Browser(t.app).get('/config.json')).json().remotes).toEqual({});
      expect(t.logs.messages(/the site has no config.json/)).toHaveLength(1);
    });
  });

  describe('REMOTE_<NAME>_URL overrides (a remote on its dev server)', () => {
    const root = siteDir();
    writeSite(root, { remotes: { marketing: entry('marketing', 'aaaaaaaaaaa1'), billing: entry('billing', 'bbbbbbbbbbb1') } });
    let billing: RemoteServer;
    let dashboard: RemoteServer;
    let staff: RemoteServer;
    beforeAll(async () => {
      billing = await remoteServer({ ...TABLES.billing, mounts: ['/billing', '/invoices'], routes: [...TABLES.billing.routes, { path: '/invoices', layout: 'subscription', page: 'Invoices' }] });
      dashboard = await remoteServer(500);
      staff = await remoteServer('hang');
    });
    afterAll(async () => {
      await Promise.all([billing?.close(), dashboard?.close(), staff?.close()]);
    });
    const t = useTestApp(database, {
      env: {
        ALL_IN_ONE: '1',
        STATIC_ROOT: root,
        get REMOTE_BILLING_URL() {
          return `${billing.url}/mf-manifest.json`;
        },
        get REMOTE_DASHBOARD_URL() {
          return `${dashboard.url}/mf-manifest.json`;
        },
        get REMOTE_STAFF_URL() {
          return `${staff.url}/mf-manifest.json`;
        },
      } as Record<string, string>,
    });

    it('takes the manifest URL from the environment and the route table from routes.json beside it', async () => {
      billing.requests.length = 0;
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(body.remotes.billing).toEqual({ manifest: `${billing.url}/mf-manifest.json`, version: null, routes: billing.routes });
      // The others come from the site.
      expect(body.remotes.marketing).toEqual(entry('marketing', 'aaaaaaaaaaa1'));
      // Pages follow the fetched table; the page may load the remote's origin.
      const page = await new Browser(t.app).get('/invoices', { headers: html });
      expect(page.statusCode).toBe(200);
      expect(String(page.headers['content-security-policy'])).toContain(`script-src 'self' ${billing.url}`);
      // Fetched once for both requests (cached a few seconds).
      expect(billing.requests.filter((u) => u === '/routes.json').length).toBeLessThanOrEqual(1);
    });

    it('leaves a remote out, with a warning, when its routes.json fails or does not answer within 2 s', async () => {
      const started = Date.now();
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(Object.keys(body.remotes)).toEqual(['marketing', 'billing']);
      expect(t.logs.messages(/REMOTE_DASHBOARD_URL: its routes.json could not be read/)[0]).toMatchObject({ reason: 'HTTP 500' });
      expect(t.logs.messages(/REMOTE_STAFF_URL: its routes.json could not be read/)[0]).toMatchObject({ reason: 'no answer within 2000 ms' });
      // Its addresses are not pages then.
      expect((await new Browser(t.app).get('/dashboard/1100000000000000001/configs', { headers: html })).statusCode).toBe(404);
    });

    it('tries a failed remote again after a moment', async () => {
      dashboard.routes = TABLES.dashboard;
      await new Promise((ok) => setTimeout(ok, 2_100));
      const body = (await new Browser(t.app).get('/config.json')).json();
      expect(body.remotes.dashboard).toEqual({ manifest: `${dashboard.url}/mf-manifest.json`, version: null, routes: TABLES.dashboard });
      expect((await new Browser(t.app).get('/dashboard/1100000000000000001/configs', { headers: html })).statusCode).toBe(200);
    });
  });

  describe('split deployment with a real Discord application', () => {
    // The static host forwards /config.json to the API, which reads the site deployed beside it.
    const root = siteDir();
    writeSite(root, { shell: 'eeeeeeeeeee1', remotes: { billing: entry('billing', 'bbbbbbbbbbb1', TABLES.billing, 'https://cdn.tickety.test') } });
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
        ANALYTICS_TOKEN: 'pk_analytics',
        STATIC_ROOT: root,
      },
    });

    it('answers its own settings with the remotes of the site it is given', async () => {
      const res = await new Browser(t.app).get('https://api.tickety.test/config.json');
      const body = RuntimeConfig.parse(res.json());
      expect(body.demo).toBe(false);
      expect(body.discordClientId).toBe('987654321098765432');
      expect(body.discordOrigin).toBe('https://discord.com');
      expect(body.apiOrigin).toBe('https://api.tickety.test');
      expect(body.remotes).toEqual({ billing: entry('billing', 'bbbbbbbbbbb1', TABLES.billing, 'https://cdn.tickety.test') });
      expect(body.shell).toEqual({ version: 'eeeeeeeeeee1' });
      expect(body.analyticsToken).toBe('pk_analytics');
      expect(body.analyticsScriptUrl).toBe('https://public.profitwell.com/js/profitwell.js');
      for (const s of [secret, bot, KEY]) expect(res.body).not.toContain(s);
    });

    it('mounts no sandbox in production shape', async () => {
      const res = await new Browser(t.app).get('/sandbox/discord/oauth2/authorize');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(1002);
      expect((await new Browser(t.app).get('/sandbox/analytics/profitwell.js?auth=pk_analytics')).statusCode).toBe(404);
    });
  });
});

import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import * as sandbox from '..';
import { DEMO_APP, DEMO_USERS } from './demo-data';
import { discordSandbox } from './plugin';
import { authorizeQuery, basicAuth, get, harness, PREFIX, pkcePair, REDIRECT_URI, signIn, type Tokens } from './test-helpers';

describe('registration', () => {
  test('the package exports the plugin, the control and the demo data', () => {
    expect(typeof sandbox.discordSandbox).toBe('function');
    expect(typeof sandbox.createSandboxControl).toBe('function');
    expect(sandbox.DEMO_APP).toBe(DEMO_APP);
    expect(Object.keys(sandbox.DEMO_USERS)).toEqual(['ava', 'ben', 'cleo', 'sam', 'nico']);
    // Not wrapped in fastify-plugin: it stays encapsulated.
    expect((discordSandbox as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')]).toBeUndefined();
  });

  test('stays encapsulated: its form parser, 404 and error handlers do not leak into the host', async () => {
    const app = Fastify();
    app.post('/api/thing', async (req) => ({ got: req.body }));
    await app.register(discordSandbox, { prefix: PREFIX });
    await app.ready();
    try {
      const form = await app.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'a=1',
      });
      expect(form.statusCode).toBe(415);
      const json = await app.inject({ method: 'POST', url: '/api/thing', payload: { a: 1 } });
      expect(json.json()).toEqual({ got: { a: 1 } });
      const hostMissing = await app.inject({ method: 'GET', url: '/nope' });
      expect(hostMissing.statusCode).toBe(404);
      expect(hostMissing.json()).not.toEqual({ message: '404: Not Found', code: 0 });
      // The prefix applies: nothing at the root, everything under it.
      expect((await app.inject({ method: 'GET', url: '/api/v10/users/@me' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `${PREFIX}/api/v10/users/@me` })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  test('defaults to the demo application when no credentials are given', async () => {
    const app = Fastify();
    await app.register(discordSandbox, { prefix: PREFIX });
    try {
      const tokens = await signIn(app, DEMO_USERS.ava.id);
      expect(tokens.scope).toBe('identify guilds');
      expect((await get(app, '/users/@me/guilds', `Bot ${DEMO_APP.botToken}`)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('safe by default: no HTTP controls, and redirects to loopback addresses only', async () => {
    const app = Fastify();
    await app.register(discordSandbox, { prefix: PREFIX });
    await app.ready();
    try {
      expect((await app.inject({ method: 'POST', url: `${PREFIX}/_control/state`, payload: {} })).statusCode).toBe(404);
      const authorizeTo = (redirectUri: string) => {
        const params = authorizeQuery({ redirect_uri: redirectUri });
        params.set('login_hint', DEMO_USERS.ava.id);
        return app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${params}` });
      };
      for (const allowed of [REDIRECT_URI, 'http://127.0.0.1:8080/cb', 'http://[::1]:9/x?y=1', 'https://localhost/cb', 'http://localhost/']) {
        const res = await authorizeTo(allowed);
        expect(res.statusCode, allowed).toBe(302);
        expect(String(res.headers.location).startsWith(allowed.split('?')[0]!)).toBe(true);
      }
      for (const refused of ['https://evil.example/', 'http://localhost.evil.example/cb', 'http://127.0.0.2/cb', 'http://10.0.0.1:3000/api/auth/callback']) {
        const res = await authorizeTo(refused);
        expect(res.statusCode, refused).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toContain('is not registered');
      }
    } finally {
      await app.close();
    }
  });

  test('two registrations share no codes or tokens', async () => {
    const app = Fastify();
    await app.register(discordSandbox, { prefix: '/one' });
    await app.register(discordSandbox, { prefix: '/two' });
    await app.ready();
    try {
      const { verifier, challenge } = pkcePair();
      const params = authorizeQuery({}, challenge);
      params.set('login_hint', DEMO_USERS.ava.id);
      const redirect = await app.inject({ method: 'GET', url: `/one/oauth2/authorize?${params}` });
      const code = new URL(String(redirect.headers.location)).searchParams.get('code')!;
      const exchange = (prefix: string) =>
        app.inject({
          method: 'POST',
          url: `${prefix}/api/v10/oauth2/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth() },
          payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
        });
      expect((await exchange('/two')).json().error).toBe('invalid_grant');
      const tokens = (await exchange('/one')).json<Tokens>();
      const me = (prefix: string) => app.inject({ method: 'GET', url: `${prefix}/api/v10/users/@me`, headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect((await me('/one')).statusCode).toBe(200);
      expect((await me('/two')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  test('refuses bad options', async () => {
    for (const options of [
      { baseUrl: 'not a url' },
      { tokenTtlSeconds: 0 },
      { rateLimit: { limit: -1 } },
      { redirectUris: ['javascript:alert(1)'] },
      { redirectUris: ['/api/auth/callback'] },
      { redirectUris: [`${REDIRECT_URI}#x`] },
      { maxCodes: 0 },
      { maxGrants: 1.5 },
    ]) {
      const app = Fastify();
      const loading = (async () => {
        await app.register(discordSandbox, { prefix: PREFIX, ...options });
        await app.ready();
      })();
      await expect(loading).rejects.toThrow(RangeError);
      await app.close();
    }
  });
});

describe('over real HTTP', () => {
  test('the chooser, a sign-in and the REST calls work over a socket like through inject', async () => {
    const sandbox = await harness({ clock: Date.now, controlRoutes: true });
    try {
      const address = await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `${address}${PREFIX}`;

      const chooser = await fetch(`${base}/oauth2/authorize?${authorizeQuery()}`);
      expect(chooser.status).toBe(200);
      expect(await chooser.text()).toContain('aria-label="Sign in as Sam"');

      // The browser posts the consent form; fetch does not follow the redirect.
      const { verifier, challenge } = pkcePair();
      const form = authorizeQuery({}, challenge);
      form.set('user_id', DEMO_USERS.sam.id);
      const approved = await fetch(`${base}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
      expect(approved.status).toBe(302);
      const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;

      const token = await fetch(`${base}/api/v10/oauth2/token`, {
        method: 'POST',
        headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
      });
      expect(token.status).toBe(200);
      expect(token.headers.get('x-ratelimit-limit')).toBe('100');
      const tokens = (await token.json()) as Tokens;

      const me = await fetch(`${base}/api/v10/users/@me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(((await me.json()) as { id: string }).id).toBe(DEMO_USERS.sam.id);
      const guilds = await fetch(`${base}/api/v10/users/@me/guilds?limit=200`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(((await guilds.json()) as unknown[]).length).toBe(1);

      const fault = await fetch(`${base}/_control/fail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: 'GET /api/v10/users/@me', status: 503 }),
      });
      expect(fault.status).toBe(200);
      const failed = await fetch(`${base}/api/v10/users/@me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(failed.status).toBe(503);

      const icon = await fetch(`${base}/cdn/embed/avatars/3.png?size=32`);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await icon.text()).toContain('width="32"');
    } finally {
      await sandbox.app.close();
    }
  });
});

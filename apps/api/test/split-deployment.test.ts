import { randomBytes } from 'node:crypto';
import { AuthenticatedMe, MeResponse } from '@tickety/api-contract';
import { createSandboxControl, DEMO_APP, DEMO_USERS, discordSandbox } from '@tickety/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../src/lib/discord';
import { injectFetch } from '../src/lib/inject-fetch';
import { createTestApp, type TestApp } from './helpers/app';
import { Browser } from './helpers/browser';
import { SECOND, testClock } from './helpers/clock';
import { databases, openSuiteDb } from './helpers/db';
import { runPopup, startLogin } from './helpers/oauth';

const API = 'https://api.tickety.test';
const DASHBOARD = 'https://tickety.test';
const DISCORD = 'https://discord.test/discord';
const SESSION = '__Host-tickety_session';

/**
 * The production shape: N stateless API instances behind a load balancer, on one PostgreSQL (or
 * PGlite here), with a real Discord application. "Discord" is the sandbox on a server of its own.
 */
describe.each(databases())('split deployment: two API instances on $name', (database) => {
  const clock = testClock();
  const key = randomBytes(32).toString('base64');
  let discord: FastifyInstance;
  let instances: TestApp[] = [];
  let drop: () => Promise<void>;
  let turn = 0;
  const sandbox = createSandboxControl();

  beforeAll(async () => {
    discord = Fastify({ logger: false });
    await discord.register(discordSandbox, {
      prefix: '/discord',
      baseUrl: DISCORD,
      clock,
      control: sandbox,
      controlRoutes: false,
      redirectUris: [`${API}/api/auth/callback`],
    });
    await discord.ready();
    const opened = await openSuiteDb(database);
    drop = opened.drop;
    const toDiscord: FetchLike = injectFetch(discord);
    const env = {
      NODE_ENV: 'production',
      PUBLIC_URL: API,
      DASHBOARD_ORIGINS: DASHBOARD,
      DISCORD_CLIENT_ID: DEMO_APP.clientId,
      DISCORD_CLIENT_SECRET: DEMO_APP.clientSecret,
      DISCORD_BOT_TOKEN: DEMO_APP.botToken,
      DISCORD_ORIGIN: DISCORD,
      TOKEN_ENCRYPTION_KEY: key,
      STAFF_OWNER_IDS: DEMO_USERS.sam.id,
    };
    for (let i = 0; i < 2; i++) {
      instances.push(await createTestApp(opened.db, { env, wrapFetch: () => toDiscord }));
    }
    for (const instance of instances) instance.clock.set(clock.now);
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    instances = [];
    await discord.close();
    await drop();
  });

  /** A load balancer: API requests alternate between the instances; Discord's go to Discord. */
  function browser(): Browser {
    return new Browser((host) => {
      if (host === 'discord.test') return discord;
      turn++;
      return instances[turn % instances.length]!.app;
    });
  }

  function advance(ms: number) {
    clock.advance(ms);
    for (const instance of instances) instance.clock.advance(ms);
  }

  it('runs without the sandbox, sending the browser to the configured Discord', async () => {
    const visitor = browser();
    const { authorize } = await startLogin(visitor);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${DISCORD}/oauth2/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${API}/api/auth/callback`);
    for (const instance of instances) {
      expect((await instance.app.inject({ method: 'GET', url: '/sandbox/discord/oauth2/authorize' })).statusCode).toBe(404);
    }
  });

  it('signs in across instances, shares sessions, the refresh limit and logout', async () => {
    const visitor = browser();
    // Login on one instance, callback on the other: the signed state cookie and the stored state are shared.
    const { authorize } = await startLogin(visitor);
    authorize.searchParams.set('login_hint', DEMO_USERS.ava.id);
    const approved = await visitor.get(authorize.toString());
    expect(approved.statusCode).toBe(302);
    const callback = await visitor.get(String(approved.headers.location));
    expect(callback.statusCode).toBe(200);
    expect(runPopup(callback.body).posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD }]);
    expect(visitor.jar.has(SESSION)).toBe(true);

    for (let i = 0; i < 4; i++) {
      const me = AuthenticatedMe.parse((await visitor.get(`${API}/api/auth/@me`)).json());
      expect(me.user.id).toBe(DEMO_USERS.ava.id);
    }

    advance(11 * SECOND);
    const headers = { origin: DASHBOARD };
    expect((await visitor.post(`${API}/api/auth/guilds/refresh`, undefined, { headers })).statusCode).toBe(200);
    const second = await visitor.post(`${API}/api/auth/guilds/refresh`, undefined, { headers });
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe(1003);

    const fetchHeaders = { origin: DASHBOARD, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };
    expect((await visitor.get(`${API}/api/auth/logout`, { headers: fetchHeaders })).json()).toEqual({ isAuthenticated: false });
    const stolen = new Browser((host) => (host === 'discord.test' ? discord : instances[0]!.app));
    stolen.jar.set(SESSION, callback.cookies.find((c) => c.name === SESSION)!.value);
    const me = MeResponse.parse((await stolen.get(`${API}/api/auth/@me`)).json());
    expect(me.isAuthenticated).toBe(false);
  });
});

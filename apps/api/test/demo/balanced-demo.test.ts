import { randomBytes } from 'node:crypto';
import { AuthenticatedMe } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DASHBOARD_ORIGIN, PUBLIC_URL, type TestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { DAY, SECOND } from '../helpers/clock';
import { databases, openSuiteDb } from '../helpers/db';
import { runPopup, startLogin } from '../helpers/oauth';

/**
 * The sign-in's hops whose instance the balancer chooses: every combination of the two instances is
 * tried. The code exchange and Discord's @me happen inside the callback's instance (the API calls its
 * own sandbox in process); a later guild refresh calls Discord with the tokens on either instance.
 */
const HOPS = ['login', 'authorize page', 'approve', 'callback'] as const;

/** Every way of spreading the hops over two instances: 0 and 1 per hop, 2^HOPS.length patterns. */
function hopPatterns(): number[][] {
  return Array.from({ length: 2 ** HOPS.length }, (_, pattern) => HOPS.map((_hop, i) => (pattern >> (HOPS.length - 1 - i)) & 1));
}

/**
 * Demo mode behind a round-robin balancer without sticky sessions: two all-in-one compositions (the API
 * with its own sandbox mounted at /sandbox, as apps/api/demo/all-in-one.ts builds it) on one database
 * and one TOKEN_ENCRYPTION_KEY. A sign-in must work whichever instance each hop lands on.
 */
describe.each(databases())('demo behind a balancer: two all-in-one instances on $name', (database) => {
  const key = randomBytes(32).toString('base64');
  let instances: TestApp[] = [];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openSuiteDb(database);
    drop = opened.drop;
    for (let i = 0; i < 2; i++) {
      // Sessions outlive the Discord access token (7 days) so a test can make the API spend its refresh token.
      const env = { TOKEN_ENCRYPTION_KEY: key, SESSION_IDLE_SECONDS: String(30 * 86_400), SESSION_MAX_AGE_SECONDS: String(30 * 86_400) };
      instances.push(await createTestApp(opened.db, { env }));
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    instances = [];
    await drop();
  });

  function advance(ms: number) {
    for (const instance of instances) instance.clock.advance(ms);
  }

  /** A browser whose next request goes to the instance `route()` names (the test plays the balancer). */
  function routedBrowser() {
    let next = 0;
    const browser = new Browser(() => instances[next]!.app);
    return {
      browser,
      on(instance: number) {
        next = instance;
        return browser;
      },
    };
  }

  /** Signs Ava in with each hop on the instance the pattern gives; returns the callback's answer. */
  async function signInAlong(pattern: number[]) {
    const routed = routedBrowser();
    const { authorize } = await startLogin(routed.on(pattern[0]!));
    const page = await routed.on(pattern[1]!).get(authorize.toString());
    expect(page.statusCode, page.body).toBe(200);
    const form = new URLSearchParams(authorize.searchParams);
    form.set('user_id', DEMO_USERS.ava.id);
    const approved = await routed.on(pattern[2]!).request('POST', `${authorize.origin}${authorize.pathname}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(approved.statusCode, approved.body).toBe(302);
    const callback = await routed.on(pattern[3]!).get(String(approved.headers.location));
    return { routed, callback };
  }

  it.each(hopPatterns().map((pattern) => ({ pattern, hops: pattern.join('') })))(
    'signs in with login, authorize page, approve and callback on instances $hops; @me and the guild refresh work on both',
    async ({ pattern }) => {
      const { routed, callback } = await signInAlong(pattern);
      expect(callback.statusCode, callback.body).toBe(200);
      expect(runPopup(callback.body).posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD_ORIGIN }]);
      for (const instance of [0, 1, 0, 1]) {
        const me = AuthenticatedMe.parse((await routed.on(instance).get(`${PUBLIC_URL}/api/auth/@me`)).json());
        expect(me.user.id).toBe(DEMO_USERS.ava.id);
      }
      // The Discord access token the callback's instance was given, used by the other instance's sandbox.
      advance(11 * SECOND);
      const refreshed = await routed.on(1 - pattern[3]!).post(`${PUBLIC_URL}/api/auth/guilds/refresh`);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
    },
  );

  it('refreshes an expired Discord token on the instance that did not issue it', async () => {
    const { routed, callback } = await signInAlong([0, 0, 0, 0]);
    expect(callback.statusCode, callback.body).toBe(200);
    // Past the access token's 7 days: the API spends the refresh token, at instance 1's sandbox.
    advance(8 * DAY);
    const refreshed = await routed.on(1).post(`${PUBLIC_URL}/api/auth/guilds/refresh`);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    advance(11 * SECOND);
    // And the rotated pair instance 1 issued works at instance 0.
    expect((await routed.on(0).post(`${PUBLIC_URL}/api/auth/guilds/refresh`)).statusCode).toBe(200);
  });
});

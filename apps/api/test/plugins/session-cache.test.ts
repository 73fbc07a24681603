import { type AnonymousMe, AuthenticatedMe, MeResponse, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases, openSuiteDb, type SuiteDb } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { canRunRedisServer, OwnRedis } from '../helpers/redis-server';

const SESSION = 'tickety_session';
const { ava, ben, sam } = DEMO_USERS;
/** The cache's TTL in these suites (SESSION_CACHE_SECONDS' default). */
const TTL = 15 * SECOND;

async function me(browser: Browser): Promise<MeResponse> {
  const res = await browser.get('/api/auth/@me');
  expect(res.statusCode).toBe(200);
  return MeResponse.parse(res.json());
}

/** The same cookie in a browser that talks to another instance. */
function sameSessionOn(instance: TestApp, browser: Browser): Browser {
  const other = new Browser(instance.app);
  other.jar.set(SESSION, browser.jar.get(SESSION)!);
  return other;
}

/** Polls `ok` every 10 ms for at most `ms`; the time it took, or null when it never held. */
async function within(ms: number, ok: () => Promise<boolean>): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await ok()) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
  return null;
}

/** A database that counts the queries (transactions included) the app sends it. */
function counted(db: SuiteDb): { db: SuiteDb; readonly queries: number } {
  let queries = 0;
  const wrapped: SuiteDb = {
    ...db,
    query: (sql, params) => {
      queries++;
      return db.query(sql, params);
    },
    transaction: (fn) => {
      queries++;
      return db.transaction(fn);
    },
  };
  return {
    db: wrapped,
    get queries() {
      return queries;
    },
  };
}

describe.each(databases())('session cache on $name', (database) => {
  describe('one instance', () => {
    let t: TestApp;
    let counter: ReturnType<typeof counted>;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      const opened = await openSuiteDb(database);
      drop = opened.drop;
      counter = counted(opened.db);
      t = await createTestApp(counter.db);
    });
    afterAll(async () => {
      await t.close();
      await drop();
    });

    it('answers a warm @me without the database, and a server read with one query', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      expect((await me(browser)).isAuthenticated).toBe(true);
      const before = counter.queries;
      for (let i = 0; i < 5; i++) expect(AuthenticatedMe.parse(await me(browser)).user.id).toBe(ava.id);
      expect(counter.queries - before).toBe(0);

      // A server's page: its header and its configuration; access decided on the cached state.
      const server = DEMO_GUILDS.avasArcade.id;
      expect((await browser.get(`/api/guilds/${server}/config`)).statusCode).toBe(200);
      const warm = counter.queries;
      expect((await browser.get(`/api/guilds/${server}/config`)).statusCode).toBe(200);
      expect(counter.queries - warm).toBeLessThanOrEqual(1);
    });

    it("asks the database at most once for a warm read of a server's pages (statistics and premium excepted)", async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      await me(browser);
      const server = DEMO_GUILDS.avasArcade.id;
      const asked: Record<string, number> = {};
      const pages = ['', '/config', '/config/versions', '/logs', '/logs/actors', '/resources', '/posts', '/transcripts'];
      for (const url of [...pages.map((path) => `/api/guilds/${server}${path}`), '/api/billing/subscriptions', '/api/billing/providers']) {
        expect((await browser.get(url)).statusCode, url).toBe(200);
        const before = counter.queries;
        expect((await browser.get(url)).statusCode, url).toBe(200);
        asked[url] = counter.queries - before;
      }
      expect(Object.entries(asked).filter(([, n]) => n > 1)).toEqual([]);
      // Statistics runs its seven aggregates side by side (one round trip's wait, seven statements: the
      // seventh counts tag uses) after the server's limits and time zone; premium reads the server's
      // cover, then the user's slots.
      for (const [path, most] of [['/statistics', 10], ['/premium', 2]] as const) {
        await browser.get(`/api/guilds/${server}${path}`);
        const before = counter.queries;
        expect((await browser.get(`/api/guilds/${server}${path}`)).statusCode).toBe(200);
        expect(counter.queries - before, path).toBeLessThanOrEqual(most);
      }
    });

    it('answers a warm @me in the encoding the compression plugin would choose, from bytes encoded once', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const plain = await browser.get('/api/auth/@me', { headers: { 'accept-encoding': 'identity', origin: DASHBOARD_ORIGIN } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const json = AuthenticatedMe.parse(plain.json());
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['x-gzip;q=0.5, identity;q=0.1', 'gzip', gunzipSync],
      ] as const) {
        const first = await browser.get('/api/auth/@me', { headers: { 'accept-encoding': accept, origin: DASHBOARD_ORIGIN } });
        const again = await browser.get('/api/auth/@me', { headers: { 'accept-encoding': accept, origin: DASHBOARD_ORIGIN } });
        expect(first.headers['content-encoding'], accept).toBe(encoding);
        expect(String(first.headers.vary).split(', ').sort()).toEqual(['Origin', 'accept-encoding']);
        expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(decode(first.rawPayload).toString())).toEqual(json);
        expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      }
      // A new state (here: her refreshed guild list) is encoded anew.
      t.clock.advance(11 * SECOND);
      const refreshed = AuthenticatedMe.parse((await browser.post('/api/auth/guilds/refresh')).json());
      const after = await browser.get('/api/auth/@me', { headers: { 'accept-encoding': 'br' } });
      expect(JSON.parse(brotliDecompressSync(after.rawPayload).toString()).guildsRefreshedAt).toBe(refreshed.guildsRefreshedAt);
    });

    it('reads the database again once the TTL has passed, and a logout ends the session at once', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ben.id);
      await me(browser);
      t.clock.advance(TTL);
      const before = counter.queries;
      expect((await me(browser)).isAuthenticated).toBe(true);
      expect(counter.queries - before).toBeGreaterThan(0);

      const copy = sameSessionOn(t, browser);
      expect((await browser.logout()).statusCode).toBe(200);
      expect((await me(copy)).isAuthenticated).toBe(false);
    });
  });

  /**
   * Two instances on one database, the session's cookie used on both (a round-robin balancer). A
   * change on the first reaches the second's cache over Redis within a second; with Redis gone, the
   * second keeps what it had for at most the TTL.
   */
  describe.skipIf(!canRunRedisServer)('two instances with Redis', () => {
    let redis: OwnRedis;
    let first: TestApp;
    let second: TestApp;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      redis = await OwnRedis.start();
      const opened = await openSuiteDb(database);
      drop = opened.drop;
      const env = { REDIS_URL: redis.url };
      first = await createTestApp(opened.db, { env });
      second = await createTestApp(opened.db, { env });
    });
    afterAll(async () => {
      await first.close();
      await second.close();
      await drop();
      await redis.kill();
    });

    /** Signs `userId` in on the first instance; the same session warm on the second. */
    async function signedInOnBoth(userId: string): Promise<{ onFirst: Browser; onSecond: Browser }> {
      const onFirst = new Browser(first.app);
      await signIn(onFirst, userId);
      const onSecond = sameSessionOn(second, onFirst);
      expect((await me(onSecond)).isAuthenticated).toBe(true);
      expect((await me(onSecond)).isAuthenticated).toBe(true);
      return { onFirst, onSecond };
    }

    it('a logout on one instance ends the session on the other within a second', async () => {
      const { onFirst, onSecond } = await signedInOnBoth(ava.id);
      expect((await onFirst.logout()).statusCode).toBe(200);
      const took = await within(1_000, async () => !(await me(onSecond)).isAuthenticated);
      expect(took, 'the second instance still answered the revoked session after 1 s').not.toBeNull();
      expect(((await me(onSecond)) as AnonymousMe).user).toBeNull();
    });

    it('signing a user out everywhere ends their sessions on every instance within a second', async () => {
      const { onSecond } = await signedInOnBoth(ben.id);
      await first.app.db.transaction((tx) => first.app.sessions.revokeAllOf(tx, ben.id));
      expect(await within(1_000, async () => !(await me(onSecond)).isAuthenticated)).not.toBeNull();
    });

    it("a staff flag change and a guild refresh show in the other instance's @me within a second", async () => {
      const { onFirst, onSecond } = await signedInOnBoth(ava.id);
      expect(AuthenticatedMe.parse(await me(onSecond)).team).toBeNull();
      await first.app.staffTeam.set(sam.id, ava.id, ['DASHBOARD_SUPPORT_SEARCH_READ']);
      const staffSeen = await within(1_000, async () => AuthenticatedMe.parse(await me(onSecond)).team?.permissions.includes('DASHBOARD_SUPPORT_SEARCH_READ') === true);
      expect(staffSeen).not.toBeNull();
      await first.app.staffTeam.remove(sam.id, ava.id);
      expect(await within(1_000, async () => AuthenticatedMe.parse(await me(onSecond)).team === null)).not.toBeNull();

      // The bot joins a server of hers; she refreshes her list on the first instance.
      const server = DEMO_GUILDS.studyHall.id;
      expect(AuthenticatedMe.parse(await me(onSecond)).guilds.find((g) => g.id === server)?.botInGuild).toBe(false);
      first.sandbox.setBotInGuild(server, true);
      first.clock.advance(11 * SECOND);
      second.clock.advance(11 * SECOND);
      expect((await onFirst.post('/api/auth/guilds/refresh')).statusCode).toBe(200);
      const refreshSeen = await within(1_000, async () => AuthenticatedMe.parse(await me(onSecond)).guilds.find((g) => g.id === server)?.botInGuild === true);
      expect(refreshSeen).not.toBeNull();
      first.sandbox.setBotInGuild(server, false);
    });

    it("a configuration save shows in the other instance's configuration read within a second", async () => {
      const { onFirst, onSecond } = await signedInOnBoth(ava.id);
      const path = `/api/guilds/${DEMO_GUILDS.avasArcade.id}/config`;
      const before = ServerConfigAnswer.parse((await onSecond.get(path)).json());
      expect(ServerConfigAnswer.parse((await onSecond.get(path)).json()).version).toBe(before.version);
      const saved = await onFirst.request('PUT', path, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
        payload: { expectedVersion: before.version, config: { ...(before.config as object), panels: (before.config as { panels: unknown[] }).panels.slice(0, 1) } },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const seen = await within(1_000, async () => ServerConfigAnswer.parse((await onSecond.get(path)).json()).version === before.version + 1);
      expect(seen).not.toBeNull();
    });

    it('with Redis stopped, a revoked session outlives its logout on the other instance by at most the TTL', async () => {
      const { onFirst, onSecond } = await signedInOnBoth(ben.id);
      await redis.kill();
      try {
        expect((await onFirst.logout()).statusCode).toBe(200);
        // Nothing carried the logout: the second instance's copy stands for reads until its TTL...
        await new Promise((r) => setTimeout(r, 300));
        expect((await me(onSecond)).isAuthenticated).toBe(true);
        // ...never for a write, which reads the stored session.
        second.clock.advance(11 * SECOND);
        expect((await onSecond.post('/api/auth/guilds/refresh')).statusCode).toBe(401);
        second.clock.advance(TTL - 12 * SECOND);
        expect((await me(onSecond)).isAuthenticated).toBe(true);
        // ...and not a moment beyond.
        second.clock.advance(SECOND);
        expect((await me(onSecond)).isAuthenticated).toBe(false);
      } finally {
        await redis.start();
      }
      // Redis back: once its subscriber reconnects, the second instance drops everything it holds
      // (what was said meanwhile is lost), and a logout's news arrives again.
      const again = await signedInOnBoth(ava.id);
      expect((await again.onFirst.logout()).statusCode).toBe(200);
      expect(await within(5_000, async () => !(await me(again.onSecond)).isAuthenticated)).not.toBeNull();
    });
  });
});

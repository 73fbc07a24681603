import { ApiError, ERROR_CODES, StaffSystemAnswer, StatusResponse } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { runPopup, signIn } from '../helpers/oauth';
import { canRunRedisServer, OwnRedis } from '../helpers/redis-server';

/** Every limit's size in these suites: small, so a few requests reach each. */
const LIMITS = { RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_MAX: '2', BOT_KEY_FAILURES_MAX: '2', STAFF_RATE_LIMIT_MAX: '2', REDIS_TIMEOUT_MS: '100' };
const dashboard = { headers: { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN } };
const WARN = 40;
const INFO = 30;

let run = 0;
/** Client addresses of their own per call (the counters of a restarted Redis are empty, an old run's are not). */
function addresses(): { next(): string } {
  run += 1;
  let count = 0;
  const base = `10.${(process.pid % 250) + 1}.${run % 250}`;
  return { next: () => `${base}.${++count}` };
}

const switchedDown = (t: TestApp) => t.logs.messages(/^redis unreachable/);
const switchedUp = (t: TestApp) => t.logs.messages(/^redis reachable again/);

let statusCalls = 0;
async function status(t: TestApp): Promise<StatusResponse> {
  // An address of its own each time: /api/status counts against the per-address limit too.
  statusCalls += 1;
  const res = await new Browser(t.app, { ip: `172.16.${Math.floor(statusCalls / 250) % 250}.${(statusCalls % 250) + 1}` }).get('/api/status');
  expect(res.statusCode).toBe(200);
  return StatusResponse.parse(res.json());
}

async function plans(t: TestApp, ip: string, times: number): Promise<number[]> {
  const browser = new Browser(t.app, { ip });
  const statuses = [];
  for (let i = 0; i < times; i++) statuses.push((await browser.get('/api/plans')).statusCode);
  return statuses;
}

/** Waits (up to `ms`) for `ok`; false when it never came. */
async function eventually(ok: () => boolean | Promise<boolean>, ms = 8_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return ok();
}

/** Every kind of limit in the API answers 429 past its size: per address, sign-in, refused bot keys, per staff member. */
async function expectEveryLimitHolds(t: TestApp, ips: { next(): string }) {
  // The per-address limit on /api: 429 with the catalogue's body and Retry-After.
  const ip = ips.next();
  expect(await plans(t, ip, 3)).toEqual([200, 200, 200]);
  const limited = await new Browser(t.app, { ip }).get('/api/plans');
  expect(limited.statusCode).toBe(429);
  expect(ApiError.parse(limited.json())).toEqual({ code: ERROR_CODES.RATE_LIMITED.code, message: ERROR_CODES.RATE_LIMITED.message, isAuthenticated: false });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

  // The sign-in routes' own limit: the popup's page.
  const popup = new Browser(t.app, { ip: ips.next() });
  const logins = [];
  for (let i = 0; i < 3; i++) logins.push(await popup.get('/api/auth/login'));
  expect(logins.map((r) => r.statusCode)).toEqual([302, 302, 429]);
  expect(runPopup(logins[2]!.body).posted).toEqual([{ message: { auth: false, error: 'rate_limited', code: ERROR_CODES.RATE_LIMITED.code }, targetOrigin: DASHBOARD_ORIGIN }]);

  // Refused bot keys per address (createRateLimit).
  const guesser = new Browser(t.app, { ip: ips.next() });
  const bots = [];
  for (let i = 0; i < 3; i++) bots.push(await guesser.get('/api/bot/v1/me', { headers: { authorization: `Bearer tk_bot_guess${i}${run}_${'g'.repeat(43)}` } }));
  expect(bots.map((r) => r.statusCode)).toEqual([401, 401, 429]);
  expect(ApiError.parse(bots[2]!.json()).code).toBe(ERROR_CODES.RATE_LIMITED.code);

  // A route's per-user limit (support search, per staff member).
  const sam = new Browser(t.app, { ip: ips.next() });
  await signIn(sam, DEMO_USERS.sam.id);
  const searches = [];
  for (let i = 0; i < 3; i++) searches.push((await sam.get(`/api/staff/search?q=ava${run}`, dashboard)).statusCode);
  expect(searches).toEqual([200, 200, 429]);
}

describe('rate limits with a Redis that is never reachable (nothing listens at REDIS_URL)', () => {
  const t = useTestApp(databases()[0]!, { env: { ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' } });

  it('every limit counts per instance instead of letting requests through; one warning in the log, not one per request', async () => {
    await expectEveryLimitHolds(t, addresses());
    expect(switchedDown(t)).toHaveLength(1);
    expect(switchedDown(t)[0]!.level).toBe(WARN);
    expect(switchedUp(t)).toHaveLength(0);
  });

  it('/api/status shows Redis down, and the whole as degraded', async () => {
    const body = await status(t);
    expect(body.services.find((s) => s.name === 'redis')).toEqual({
      name: 'redis',
      status: 'down',
      latencyMs: null,
      reason: 'redis_down',
      detail: 'Redis is not answering: rate limits are counted on each API instance until it is back.',
    });
    expect(body.status).toBe('degraded');
  });
});

describe.skipIf(!canRunRedisServer)('rate limits when a Redis of our own really fails (TEST_REDIS_URL set, redis-server installed)', () => {
  let redis: OwnRedis;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    redis = await OwnRedis.start();
    env = { ...LIMITS, REDIS_URL: redis.url };
  });
  afterAll(async () => {
    await redis?.kill();
  });
  const first = useTestApp(databases()[0]!, {
    get env() {
      return env;
    },
  });
  const second = useTestApp(databases()[0]!, {
    get env() {
      return env;
    },
  });
  const ips = addresses();

  it('killed: every limit still applies, per instance, from the counts this instance saw; status says down; one warning each', async () => {
    // Shared: two instances count one client together.
    const client = ips.next();
    expect([...(await plans(first, client, 1)), ...(await plans(second, client, 1)), ...(await plans(first, client, 1)), ...(await plans(second, client, 1))]).toEqual([200, 200, 200, 429]);
    expect(switchedDown(first)).toHaveLength(0);

    await redis.kill();
    // The client spent 2 requests on instance a and 2 on b in this window: each has 1 left (3 - 2), no more.
    expect(await plans(first, client, 2)).toEqual([200, 429]);
    expect(await plans(second, client, 2)).toEqual([200, 429]);
    // A new client gets the limit on each instance: at most N times it across N instances.
    const fresh = ips.next();
    expect(await plans(first, fresh, 4)).toEqual([200, 200, 200, 429]);
    expect(await plans(second, fresh, 4)).toEqual([200, 200, 200, 429]);
    await expectEveryLimitHolds(first, ips);

    const body = await status(first);
    expect(body.services.map((s) => s.name)).toEqual(['api', 'database', 'redis']);
    expect(body.services[2]).toMatchObject({ name: 'redis', status: 'down', latencyMs: null });
    expect(body.status).toBe('degraded');
    for (const t of [first, second]) {
      expect(switchedDown(t)).toHaveLength(1);
      expect(switchedDown(t)[0]!.level).toBe(WARN);
    }
  });

  it('back: limited all along (no moment without a limit), then shared again; one info line each', async () => {
    // One client keeps asking instance a while Redis starts again and the client reconnects.
    const client = ips.next();
    const statuses: number[] = [];
    const ask = async () => statuses.push((await new Browser(first.app, { ip: client }).get('/api/plans')).statusCode);
    for (let i = 0; i < 5; i++) await ask();
    await redis.start();
    const back = await eventually(async () => {
      await ask();
      return switchedUp(first).length > 0;
    });
    expect(back).toBe(true);
    for (let i = 0; i < 5; i++) await ask();
    // At most one window in memory (before) and one in the restarted, empty Redis (after): never unlimited.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 429, 429]);
    expect(statuses.at(-1)).toBe(429);

    expect(await eventually(() => switchedUp(second).length > 0)).toBe(true);
    for (const t of [first, second]) {
      expect(switchedUp(t)).toHaveLength(1);
      expect(switchedUp(t)[0]!.level).toBe(INFO);
      expect(switchedDown(t)).toHaveLength(1);
    }
    expect((await status(first)).services.find((s) => s.name === 'redis')).toMatchObject({ status: 'operational', latencyMs: expect.any(Number) });
    // Shared again.
    const fresh = ips.next();
    expect([...(await plans(first, fresh, 1)), ...(await plans(second, fresh, 1)), ...(await plans(first, fresh, 1)), ...(await plans(second, fresh, 1))]).toEqual([200, 200, 200, 429]);
  });

  it('the System page reads Redis reachable, then unreachable since the failure with its error', async () => {
    const sam = new Browser(first.app, { ip: ips.next() });
    await signIn(sam, DEMO_USERS.sam.id);
    let res = await sam.get('/api/staff/system', dashboard);
    expect(res.statusCode, res.body).toBe(200);
    let body = StaffSystemAnswer.parse(res.json());
    expect(body.redis).toMatchObject({ reachable: true, error: null });
    expect(body.redis!.latencyMs).toBeGreaterThanOrEqual(0);

    await redis.kill();
    res = await sam.get('/api/staff/system', dashboard);
    body = StaffSystemAnswer.parse(res.json());
    expect(body.redis).toMatchObject({ reachable: false, latencyMs: null, since: new Date(first.clock.now).toISOString() });
    expect(body.redis!.error).toEqual(expect.any(String));
    await redis.start();
    expect(await eventually(async () => (await status(first)).services.find((s) => s.name === 'redis')?.status === 'operational')).toBe(true);
  });

  it('hung (it accepts, never answers): requests do not wait on it, the limits apply per instance, and it is used again once it answers', async () => {
    const before = { down: switchedDown(first).length, up: switchedUp(first).length };
    redis.freeze();
    try {
      const client = ips.next();
      // Without a bound on its calls, the first request would wait for ever.
      const answered = await Promise.race([plans(first, client, 4), new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
      expect(answered).toEqual([200, 200, 200, 429]);
      expect(switchedDown(first)).toHaveLength(before.down + 1);
      expect(switchedDown(first).at(-1)!.err).toMatch(/timed out/i);
      expect((await status(first)).services.find((s) => s.name === 'redis')).toMatchObject({ status: 'down' });
    } finally {
      redis.thaw();
    }
    expect(await eventually(() => switchedUp(first).length === before.up + 1)).toBe(true);
    expect((await status(first)).services.find((s) => s.name === 'redis')).toMatchObject({ status: 'operational' });
    const fresh = ips.next();
    expect([...(await plans(first, fresh, 1)), ...(await plans(second, fresh, 1)), ...(await plans(first, fresh, 1)), ...(await plans(second, fresh, 1))]).toEqual([200, 200, 200, 429]);
  });

  it('answering PING but refusing to count (out of memory): per instance, without switching back and forth in the log', async () => {
    const before = { down: switchedDown(first).length, up: switchedUp(first).length };
    await redis.configSet('maxmemory', '1');
    try {
      const client = ips.next();
      expect(await plans(first, client, 4)).toEqual([200, 200, 200, 429]);
      expect(switchedDown(first)).toHaveLength(before.down + 1);
      expect(switchedDown(first).at(-1)!.err).toMatch(/OOM/);
      // The checks every second keep failing: no "reachable again" in between, no second warning.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await plans(first, client, 1)).toEqual([429]);
      expect(switchedUp(first)).toHaveLength(before.up);
      expect(switchedDown(first)).toHaveLength(before.down + 1);
      expect((await status(first)).services.find((s) => s.name === 'redis')).toMatchObject({ status: 'down' });
    } finally {
      await redis.configSet('maxmemory', '0');
    }
    expect(await eventually(() => switchedUp(first).length === before.up + 1)).toBe(true);
    expect(switchedDown(first)).toHaveLength(before.down + 1);
  });
});

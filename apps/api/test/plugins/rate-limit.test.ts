import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, ERROR_CODES } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { runPopup, signIn } from '../helpers/oauth';

describe.each(databases())('per-IP rate limits on $name', (database) => {
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_MAX: '2' } });

  it('limits /api per IP: 429, code 1003, Retry-After and the limit headers', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.1' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await browser.get('/api/plans'));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('3');
    expect(answers[2]!.headers['x-ratelimit-remaining']).toBe('0');
    const limited = answers[3]!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(ApiError.parse(limited.json())).toEqual({ code: ERROR_CODES.RATE_LIMITED.code, message: ERROR_CODES.RATE_LIMITED.message, isAuthenticated: false });
    // Another address is not affected; a spoofed X-Forwarded-For does not escape (TRUST_PROXY is off).
    expect((await new Browser(t.app, { ip: '203.0.113.2' }).get('/api/plans')).statusCode).toBe(200);
    expect((await browser.get('/api/plans', { headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(429);
  });

  it('does not count static files, /config.json or health checks', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.3' });
    for (let i = 0; i < 5; i++) {
      expect((await browser.get('/config.json')).statusCode).toBe(200);
      expect((await browser.get('/api/health')).statusCode).toBe(200);
    }
    expect((await browser.get('/api/plans')).statusCode).toBe(200);
  });

  it('decides on the route the router matched: percent-encoded paths count like the plain ones', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.5' });
    const statuses = [];
    for (const path of ['/%61pi/plans', '/%61%70%69/plans', '/api/pl%61ns', '/%61pi/plans']) statuses.push((await browser.get(path)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // From an address already limited, the encoded forms are refused too, with the catalogue body.
    const encoded = await browser.get('/%61pi/status');
    expect(encoded.statusCode).toBe(429);
    expect(ApiError.parse(encoded.json()).code).toBe(ERROR_CODES.RATE_LIMITED.code);
  });

  it('counts requests no route matched (the not-found handler reads the session)', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.6' });
    const statuses = [];
    for (const path of ['/api/nothing-here', '/%61pi/nothing', '/api/guilds/1/2/3', '/api/nothing-here']) statuses.push((await browser.get(path)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });

  it('the sign-in limit applies to the percent-encoded sign-in routes too', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.7' });
    const statuses = [];
    for (const path of ['/%61pi/auth/login', '/api/auth/log%69n', '/%61pi/auth/login']) statuses.push((await browser.get(path)).statusCode);
    // The callback has its own counter of the same size.
    for (let i = 0; i < 3; i++) statuses.push((await browser.get('/%61pi/auth/c%61llback?code=x&state=y')).statusCode);
    expect(statuses).toEqual([302, 302, 429, 400, 400, 429]);
  });

  it('limits sign-in attempts more tightly; the popup shows a page that tells the opener', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.4' });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await browser.get('/api/auth/login'));
    expect(answers.map((r) => r.statusCode)).toEqual([302, 302, 429]);
    const limited = answers[2]!;
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(runPopup(limited.body).posted).toEqual([
      { message: { auth: false, error: 'rate_limited', code: ERROR_CODES.RATE_LIMITED.code }, targetOrigin: DASHBOARD_ORIGIN },
    ]);
  });
});

describe.each(databases())('the sandbox\'s own per-IP limit on $name', (database) => {
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '100', SANDBOX_RATE_LIMIT_MAX: '3' } });

  it('limits /sandbox per IP, on its own counter; the API\'s own calls to it are not counted', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.11' });
    // A whole sign-in: the browser visits the sandbox once, the API calls it four times in process.
    await signIn(browser, DEMO_USERS.ava.id);
    expect(t.sandbox.requests().length).toBeGreaterThanOrEqual(5);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await browser.get('/sandbox/discord/cdn/embed/avatars/0.png')).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await browser.get('/s%61ndbox/discord/oauth2/authorize?client_id=1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // /api has its own counter; another address is not limited.
    expect((await browser.get('/api/plans')).statusCode).toBe(200);
    expect((await new Browser(t.app, { ip: '203.0.113.12' }).get('/sandbox/discord/cdn/embed/avatars/0.png')).statusCode).toBe(200);
    // A header copied from nowhere does not exempt a visitor.
    const spoof = await browser.get('/sandbox/discord/cdn/embed/avatars/1.png', { headers: { 'x-tickety-in-process': 'guess' } });
    expect(spoof.statusCode).toBe(429);
  });
});

describe.each(databases())('rate limits in the all-in-one shape (static site) on $name', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'tickety-rl-static-'));
  // A site with only the shell deployed: its own addresses (/manage-servers) are pages.
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Tickety</title>');
  writeFileSync(join(root, 'main.js'), 'console.log(1)');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '3', ALL_IN_ONE: '1', STATIC_ROOT: root } });

  it('counts /api requests answered through the static wildcard, not pages or files', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.21' });
    for (let i = 0; i < 5; i++) {
      expect((await browser.get('/manage-servers', { headers: { accept: 'text/html' } })).statusCode).toBe(200);
      expect((await browser.get('/main.js')).statusCode).toBe(200);
    }
    const statuses = [];
    for (const path of ['/api/nothing', '/%61pi/nothing', '/%61pi/plans', '/api/plans']) statuses.push((await browser.get(path)).statusCode);
    expect(statuses).toEqual([404, 404, 200, 429]);
  });
});

describe.each(databases())('rate limits behind a trusted proxy on $name', (database) => {
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' } });

  it('counts each client address from X-Forwarded-For', async () => {
    const proxy = new Browser(t.app, { ip: '10.0.0.2' });
    const as = (client: string) => proxy.get('/api/plans', { headers: { 'x-forwarded-for': client } });
    const statuses = [];
    for (const client of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2']) statuses.push((await as(client)).statusCode);
    expect(statuses).toEqual([200, 200, 429, 200]);
  });
});

// An unreachable or failing Redis: test/plugins/redis-fallback.test.ts.

/** Shared limits need a Redis: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run these. */
const redisUrls = process.env.TEST_REDIS_URL ? [process.env.TEST_REDIS_URL] : [];

describe.each(databases().flatMap((db) => redisUrls.map((url) => ({ ...db, redis: url }))))(
  'rate limits shared through Redis on $name',
  (database) => {
    // A client address of its own per run: the counters live in the shared Redis beyond one run (a
    // run moments earlier must not have used it).
    const octet = () => Math.floor(Math.random() * 254) + 1;
    const namespace = `10.${octet()}.${octet()}.${octet()}`;
    const env = { RATE_LIMIT_MAX: '3', REDIS_URL: database.redis };
    const first = useTestApp(database, { env });
    const second = useTestApp(database, { env });

    it('two instances count the same client together', async () => {
      const statuses = [];
      for (const instance of [first, second, first, second]) statuses.push((await new Browser(instance.app, { ip: namespace }).get('/api/plans')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  },
);

describe.each(databases())('refused requests cost no database work on $name', (database) => {
  let sessionLookups = 0;
  const t = useTestApp(database, {
    env: { RATE_LIMIT_MAX: '3' },
    wrapDb: (db) => ({
      ...db,
      query: (sql, params) => {
        if (/FROM sessions WHERE token_hash/.test(sql)) sessionLookups++;
        return db.query(sql, params);
      },
    }),
  });

  it('a rate-limited answer and an unknown address use the session cookie, not a session lookup', async () => {
    const browser = new Browser(t.app, { ip: '203.0.113.31' });
    await signIn(browser, DEMO_USERS.ava.id);
    for (let i = 0; i < 3; i++) await browser.get('/api/plans');
    sessionLookups = 0;
    for (let i = 0; i < 5; i++) {
      const limited = await browser.get('/api/auth/@me');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: ERROR_CODES.RATE_LIMITED.code, isAuthenticated: true });
    }
    const anon = await new Browser(t.app, { ip: '203.0.113.31' }).get('/api/auth/@me');
    expect(anon.json()).toMatchObject({ code: ERROR_CODES.RATE_LIMITED.code, isAuthenticated: false });
    const other = new Browser(t.app, { ip: '203.0.113.32' });
    other.jar.set('tickety_session', browser.jar.get('tickety_session')!);
    expect((await other.get('/api/nothing')).json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND.code, isAuthenticated: true });
    expect(sessionLookups).toBe(0);
  });
});

describe.each(databases())('IPv6 clients on $name', (database) => {
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '3' } });

  it('are counted per /64: rotating addresses in one network does not bring a fresh quota', async () => {
    const statuses = [];
    for (let i = 1; i <= 5; i++) statuses.push((await new Browser(t.app, { ip: `2001:db8:1:2::${i}` }).get('/api/plans')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await new Browser(t.app, { ip: '2001:db8:1:3::1' }).get('/api/plans')).statusCode).toBe(200);
  });
});

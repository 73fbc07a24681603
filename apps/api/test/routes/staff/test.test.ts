import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, ERROR_CODES, PLAYGROUND_LIMITS, PlaygroundHeldAnswer, PlaygroundIndex, PlaygroundSlowAnswer, STAFF_PERMISSIONS } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ben, cleo, sam } = DEMO_USERS;

/** Each route with a query that answers quickly when allowed (the network route answers nothing). */
const ROUTES = [
  '/api/staff/playground',
  '/api/staff/playground/slow?ms=0',
  '/api/staff/playground/error/1002?until=0',
  '/api/staff/playground/timeout?ms=1000',
  '/api/staff/playground/network',
] as const;

describe.each(databases())('Staff: the test playground (/api/staff/playground) on $name', (database) => {
  const t = useTestApp(database);
  let origin = '';
  const as = async (userId: string, ip?: string) => {
    const browser = new Browser(t.app, ip ? { ip } : {});
    await signIn(browser, userId);
    return browser;
  };
  const flags = (userId: string, permissions: readonly string[]) =>
    t.db.query(`INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`, [userId, permissions]);

  beforeAll(async () => {
    // A real HTTP server on a free port: the network failure and the held answers are seen by a real client.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('answers only staff holding SPECIAL_TEAM_MANAGER_READ: a visitor 401, a user 403 1004, each other single flag 403 1004', async () => {
    // From an address of its own: the routes' rate limits count per address.
    const ip = '10.0.0.1';
    const visitor = new Browser(t.app, { ip });
    const cleo_ = await as(cleo.id, ip);
    const ben_ = await as(ben.id, ip);
    for (const route of ROUTES) {
      const anonymous = await visitor.get(route);
      expect(anonymous.statusCode, route).toBe(401);
      expect(ApiError.parse(anonymous.json())).toMatchObject({ code: 401, isAuthenticated: false });
      const user = await cleo_.get(route);
      expect(user.statusCode, route).toBe(403);
      expect(ApiError.parse(user.json())).toMatchObject({ code: 1004, isAuthenticated: true });
    }
    for (const flag of STAFF_PERMISSIONS) {
      await flags(ben.id, [flag]);
      for (const route of ROUTES) {
        if (flag === 'SPECIAL_TEAM_MANAGER_READ') {
          if (route.endsWith('/network')) {
            // Allowed: the connection is dropped without an answer.
            await expect(ben_.get(route), route).rejects.toThrow();
            continue;
          }
          const res = await ben_.get(route);
          expect(res.statusCode, `${flag} ${route}: ${res.body}`).toBe(200);
        } else {
          const res = await ben_.get(route);
          expect(res.statusCode, `${flag} ${route}`).toBe(403);
          expect(ApiError.parse(res.json()).code).toBe(1004);
          expect(res.json().message).toContain('SPECIAL_TEAM_MANAGER_READ');
        }
      }
    }
    // A revoked flag fails on the very next request of the same session.
    await flags(ben.id, []);
    expect((await ben_.get('/api/staff/playground')).statusCode).toBe(403);
  });

  it('lists the whole catalogue and the bounds of the other routes', async () => {
    const res = await (await as(sam.id)).get('/api/staff/playground');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const index = PlaygroundIndex.parse(res.json());
    expect(index.codes.map((c) => c.code)).toEqual(Object.values(ERROR_CODES).map((e) => e.code));
    expect(index.codes.find((c) => c.code === 405)).toMatchObject({ name: 'SERVER_NOT_FOUND', httpStatus: 404, selector: true, retryAfter: null });
    expect(index.codes.find((c) => c.code === 1003)).toMatchObject({ httpStatus: 429, selector: false, retryAfter: 5 });
    expect(index).toMatchObject({ slowMaxMs: 15_000, holdMaxMs: 65_000, holdsPerUser: PLAYGROUND_LIMITS.holdsPerUser });
  });

  it('answers exactly each catalogue error: its status, body, Retry-After and selector', async () => {
    const sam_ = await as(sam.id);
    for (const [name, entry] of Object.entries(ERROR_CODES)) {
      const res = await sam_.get(`/api/staff/playground/error/${entry.code}`);
      expect(res.statusCode, name).toBe(entry.httpStatus);
      expect(res.headers['content-type'], name).toMatch(/^application\/json/);
      const selector = ['NO_SERVER_ACCESS', 'SERVER_NOT_FOUND', 'AREA_ACCESS_REQUIRED'].includes(name);
      expect(res.json(), name).toEqual({
        code: entry.code,
        message: entry.message,
        // Login required (401) says signed out, as the overlay's "Login Required" needs; every other one says signed in.
        isAuthenticated: entry.code !== 401,
        ...(selector ? { selector: true } : {}),
      });
      const retryAfter = ['RATE_LIMITED', 'DISCORD_UNAVAILABLE', 'DATABASE_UNAVAILABLE', 'STORAGE_UNAVAILABLE', 'OVERLOADED'].includes(name) ? '5' : undefined;
      expect(res.headers['retry-after'], name).toBe(retryAfter);
    }
    // The selector can be turned on or off.
    expect((await sam_.get('/api/staff/playground/error/1500?selector=true')).json()).toMatchObject({ code: 1500, selector: true });
    expect((await sam_.get('/api/staff/playground/error/405?selector=false')).json()).toMatchObject({ code: 405, selector: false });
    // Nothing was written: no audit, no session ended (the 401 is only an answer).
    expect((await t.db.query(`SELECT 1 FROM staff_audit WHERE staff_id = $1`, [sam.id])).rows).toEqual([]);
    expect((await sam_.get('/api/staff/playground')).statusCode).toBe(200);
  });

  it('recovers once `until` has passed (so Retry can succeed), and refuses codes outside the catalogue and bad queries', async () => {
    const sam_ = await as(sam.id);
    const until = t.clock.now + 10_000;
    expect((await sam_.get(`/api/staff/playground/error/1009?until=${until}`)).statusCode).toBe(503);
    t.clock.advance(10_000);
    const recovered = await sam_.get(`/api/staff/playground/error/1009?until=${until}`);
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json()).toMatchObject({ ok: true, recovered: true, code: 1009 });
    for (const url of [
      '/api/staff/playground/error/42',
      '/api/staff/playground/error/abc',
      '/api/staff/playground/error/404',
      `/api/staff/playground/error/1001?until=${t.clock.now + PLAYGROUND_LIMITS.recoverMaxMs + 1}`,
      '/api/staff/playground/error/1001?selector=maybe',
      '/api/staff/playground/slow?ms=-1',
      `/api/staff/playground/slow?ms=${PLAYGROUND_LIMITS.slowMaxMs + 1}`,
      '/api/staff/playground/timeout?ms=999',
      `/api/staff/playground/timeout?ms=${PLAYGROUND_LIMITS.holdMaxMs + 1}`,
    ]) {
      const res = await sam_.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(ApiError.parse(res.json()).code, url).toBe(1001);
    }
    expect((await sam_.get('/api/staff/playground/error/42')).json().message).toMatch(/catalogue/);
  });

  it('answers a slow success after the wait it was asked for', async () => {
    const sam_ = await as(sam.id);
    const started = Date.now();
    const res = await sam_.get('/api/staff/playground/slow?ms=400');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(res.statusCode).toBe(200);
    expect(PlaygroundSlowAnswer.parse(res.json())).toMatchObject({ ok: true, waitedMs: 400 });
  });

  it('holds an answer (headers and blanks first, the JSON at the end), ended early when the client gives up, at most 3 at once per member', async () => {
    const sam_ = await as(sam.id, '10.0.0.2');
    // To the end: valid JSON with its leading blank.
    const held = await sam_.get('/api/staff/playground/timeout?ms=1000');
    expect(held.statusCode).toBe(200);
    expect(held.body.startsWith(' ')).toBe(true);
    expect(PlaygroundHeldAnswer.parse(JSON.parse(held.body)).heldMs).toBeGreaterThanOrEqual(990);

    // Over real HTTP, as the client sees it: the headers come at once, the body only at the end; the
    // client gives up (its timeout) and closes the connection.
    const cookie = sam_.cookieHeader();
    const first = await open(`${origin}/api/staff/playground/timeout?ms=30000`, cookie);
    expect(first.res.statusCode).toBe(200);
    expect(first.res.headers['content-type']).toMatch(/^application\/json/);
    expect(first.res.headers['content-encoding']).toBeUndefined();
    expect(await first.firstChunk).toBe(' ');
    first.abort();

    // Three held at once; a fourth is refused (429, Retry-After) until one ends.
    const three = [
      await open(`${origin}/api/staff/playground/timeout?ms=30000`, cookie),
      await open(`${origin}/api/staff/playground/timeout?ms=30000`, cookie),
      await open(`${origin}/api/staff/playground/timeout?ms=30000`, cookie),
    ];
    await waitFor(async () => {
      const fourth = await open(`${origin}/api/staff/playground/timeout?ms=30000`, cookie);
      expect(fourth.res.statusCode).toBe(429);
      expect(fourth.res.headers['retry-after']).toBe('5');
      expect((JSON.parse(await fourth.text()) as ApiError).message).toMatch(/3 playground requests waiting/);
    });
    // A slow success shares the cap.
    expect((await sam_.get('/api/staff/playground/slow?ms=0')).statusCode).toBe(429);
    for (const h of three) h.abort();
    // The server notices the closed connections and lets the next ones through.
    await waitFor(async () => expect((await sam_.get('/api/staff/playground/slow?ms=0')).statusCode).toBe(200));
  });

  it('destroys the connection: a real HTTP client sees a network error, not an answer', async () => {
    const sam_ = await as(sam.id);
    const failure = await fetch(`${origin}/api/staff/playground/network`, { headers: { cookie: sam_.cookieHeader() } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as TypeError).cause)).toMatch(/other side closed|socket|ECONNRESET/i);
    // The server keeps answering.
    const after = await fetch(`${origin}/api/staff/playground`, { headers: { cookie: sam_.cookieHeader() } });
    expect(after.status).toBe(200);
  });

  it('limits each route per address and minute (the catalogue’s 429 with Retry-After)', async () => {
    const sam_ = await as(sam.id, '10.9.8.7');
    for (let i = 0; i < PLAYGROUND_LIMITS.rate.network; i++) await expect(sam_.get('/api/staff/playground/network')).rejects.toThrow();
    const limited = await sam_.get('/api/staff/playground/network');
    expect(limited.statusCode).toBe(429);
    expect(ApiError.parse(limited.json()).code).toBe(1003);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another route keeps its own count.
    expect((await sam_.get('/api/staff/playground')).statusCode).toBe(200);
  });
});

describe.each(databases())('Staff: the test playground at shutdown on $name', (database) => {
  const t = useTestApp(database);

  it('ends every held answer at once when the server shuts down (its JSON is sent, nothing waits 65 s)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const browser = new Browser(t.app);
    await signIn(browser, sam.id);
    const held = await open(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/staff/playground/timeout?ms=65000`, browser.cookieHeader());
    expect(held.res.statusCode).toBe(200);
    const started = Date.now();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(PlaygroundHeldAnswer.parse(JSON.parse(await held.text())).heldMs).toBeLessThan(5_000);
  });
});

/**
 * A GET over a real connection of its own (node:http, no keep-alive pool), resolved when the headers
 * arrive: the first body chunk, the whole body, and abort (the client closes the connection).
 */
function open(url: string, cookie: string): Promise<{ res: IncomingMessage; firstChunk: Promise<string>; text: () => Promise<string>; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, headers: { cookie } }, (res) => {
      res.setEncoding('utf8');
      let body = '';
      let gotFirst: (chunk: string) => void = () => {};
      const firstChunk = new Promise<string>((r) => {
        gotFirst = r;
      });
      const ended = new Promise<string>((resolve, reject) => {
        res.on('data', (chunk: string) => {
          if (body === '') gotFirst(chunk);
          body += chunk;
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      ended.catch(() => {});
      resolve({ res, firstChunk, text: () => ended, abort: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Retries an assertion until it passes (2 s at most). */
async function waitFor(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

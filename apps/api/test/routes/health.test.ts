import { ApiError, ERROR_CODES, HealthResponse, ReadyResponse } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { type FaultyDb, faultyDb } from '../helpers/faulty-db';
import { signIn } from '../helpers/oauth';

describe.each(databases())('GET /api/health on $name', (database) => {
  // A tight per-IP limit: health checks must not be counted against it.
  const t = useTestApp(database, { env: { RATE_LIMIT_MAX: '2' } });

  it('answers liveness without touching dependencies', async () => {
    const res = await new Browser(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = HealthResponse.parse(res.json());
    expect(body.status).toBe('ok');
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('is not rate limited (load balancers poll it)', async () => {
    const browser = new Browser(t.app, { ip: '10.0.0.9' });
    for (let i = 0; i < 10; i++) {
      expect((await browser.get('/api/health')).statusCode).toBe(200);
      expect((await browser.get('/api/health/ready')).statusCode).toBe(200);
    }
    // ...while other API routes are.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await browser.get('/api/plans')).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('answers readiness with the database round trip', async () => {
    const res = await new Browser(t.app).get('/api/health/ready');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = ReadyResponse.parse(res.json());
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
  });
});

describe.each(databases())('readiness and a failing database on $name', (database) => {
  let faulty: FaultyDb;
  // Short statement timeout: a black-holed PostgreSQL fails a query after 0.6 + 2 s.
  const t = useTestApp(database, {
    env: { DATABASE_STATEMENT_TIMEOUT_MS: '600' },
    wrapDb: async (db) => {
      faulty = await faultyDb(db, database, { statementTimeoutMs: 600 });
      return faulty;
    },
  });
  afterAll(async () => {
    await faulty.dispose();
  });

  it('fails readiness while the database is down (liveness stays up), and recovers by itself', async () => {
    const browser = new Browser(t.app);
    faulty.down();
    const res = await browser.get('/api/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.DATABASE_UNAVAILABLE.code);
    expect((await browser.get('/api/health')).statusCode).toBe(200);
    faulty.up();
    expect((await browser.get('/api/health/ready')).statusCode).toBe(200);
  });

  it('a database that stops answering (black-holed) fails readiness within its deadline and requests with 503, not a hang', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    faulty.blackhole();
    const started = Date.now();
    const ready = await browser.get('/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(4_000);
    const me = await browser.get('/api/auth/@me');
    expect(me.statusCode).toBe(503);
    expect(ApiError.parse(me.json())).toMatchObject({ code: ERROR_CODES.DATABASE_UNAVAILABLE.code, isAuthenticated: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    faulty.up();
    await expect.poll(async () => (await browser.get('/api/health/ready')).statusCode, { timeout: 10_000, interval: 200 }).toBe(200);
    expect((await browser.get('/api/auth/@me')).json()).toMatchObject({ isAuthenticated: true });
  });
});

describe.each(databases())('the bounded database queue on $name', (database) => {
  const t = useTestApp(database, { env: { DATABASE_QUEUE_MAX: '2' } });

  it('fails fast with 503 (1009) past DATABASE_QUEUE_MAX calls in flight instead of piling requests up', async () => {
    // Two transactions hold the database (PGlite: its one connection; PostgreSQL: two pool clients).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = [t.app.db.transaction(() => gate), t.app.db.transaction(() => gate)];
    const browser = new Browser(t.app);
    const res = await browser.get('/api/health/ready');
    expect(res.statusCode).toBe(503);
    expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.DATABASE_UNAVAILABLE.code);
    release();
    await Promise.all(held);
    expect((await browser.get('/api/health/ready')).statusCode).toBe(200);
  });
});

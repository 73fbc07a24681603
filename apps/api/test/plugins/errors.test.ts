import { ApiError, ERROR_CODES } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { type FaultyDb, faultyDb } from '../helpers/faulty-db';
import { signIn } from '../helpers/oauth';

const TABLES = ['users', 'guilds', 'user_guilds', 'sessions', 'oauth_states', 'staff_members', 'subscriptions', 'bot_shards'];

async function snapshot(t: TestApp): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const { rows } = await t.db.query(`SELECT * FROM ${table} ORDER BY 1`);
    parts.push(`${table}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

/** No stack frame, file path, driver or SQL detail in an answer. */
function expectNoLeak(res: LightMyRequestResponse, context: string) {
  expect(res.body, context).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\bError:|SELECT|relation "|FST_/);
}

function expectApiError(res: LightMyRequestResponse, context: string): ApiError {
  expect(res.statusCode, context).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, context).toBeLessThan(500);
  expect(res.headers['content-type'], context).toMatch(/^application\/json/);
  const parsed = ApiError.safeParse(res.json());
  expect(parsed.success, `${context}: ${res.body.slice(0, 300)}`).toBe(true);
  const body = parsed.data!;
  expect(body.message.length, context).toBeGreaterThan(5);
  expectNoLeak(res, context);
  return body;
}

describe.each(databases())('error answers on $name', (database) => {
  describe('bad input', () => {
    const t = useTestApp(database);
    let browser: Browser;

    beforeAll(async () => {
      browser = new Browser(t.app);
      await signIn(browser, DEMO_USERS.ava.id);
      t.clock.advance(11 * SECOND);
    });

    it('unknown API routes: 404, code 1002, with the caller\'s auth state', async () => {
      const res = await browser.get('/api/nope?x=1');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: ERROR_CODES.NOT_FOUND.code, message: 'Nothing at GET /api/nope.', isAuthenticated: true });
      const anon = await new Browser(t.app).get('/api/nope');
      expect(anon.json()).toMatchObject({ code: 1002, isAuthenticated: false });
    });

    it('URLs the router refuses (a path parameter too long or badly encoded) get the API error body', async () => {
      const long = await browser.get(`/api/guilds/${'9'.repeat(500)}`);
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual({ code: 1001, message: 'A part of the address is too long.', isAuthenticated: true });
      expect(long.headers['x-content-type-options']).toBe('nosniff');
      const bad = await new Browser(t.app).get('/api/guilds/%E0%A4%A');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ code: 1001, message: 'The address is not valid.', isAuthenticated: false });
    });

    it('malformed JSON, a huge body or a poisoned prototype: 4xx JSON, nothing written', async () => {
      const before = await snapshot(t);
      const invalid = ERROR_CODES.VALIDATION_FAILED.code;
      const cases: Array<[string, string, number, number]> = [
        ['malformed', '{"a":', 400, invalid],
        ['not JSON', 'hello', 400, invalid],
        ['proto', '{"__proto__":{"isAdmin":true}}', 400, invalid],
        ['constructor', '{"constructor":{"prototype":{"x":1}}}', 400, invalid],
        // Over the body limit: 1016 PAYLOAD_TOO_LARGE, saying the limit.
        ['huge', `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`, 413, ERROR_CODES.PAYLOAD_TOO_LARGE.code],
      ];
      for (const [name, payload, status, code] of cases) {
        const res = await browser.post('/api/auth/guilds/refresh', payload);
        expect(res.statusCode, name).toBe(status);
        expect(expectApiError(res, name)).toMatchObject({ code, isAuthenticated: true });
        if (name === 'huge') expect(res.json().message).toMatch(/at most 64 KB/);
      }
      expect(await snapshot(t)).toBe(before);
    });

    it('fuzzed paths, methods, queries and bodies: never a 5xx, never a stack, nothing written', async () => {
      const before = await snapshot(t);
      const paths = [
        '/api/auth/@me?%zz=1',
        '/api/auth/@me?a[b][c]=1&a=2',
        `/api/auth/@me?${'q='.repeat(2000)}`,
        '/api/auth/logout?redirect=https://evil.example',
        '/api/guilds/',
        `/api/guilds/${'9'.repeat(5000)}`,
        '/api/guilds/%00',
        '/api/guilds/..%2F..%2Fetc%2Fpasswd',
        '/api/guilds/1100000000000000001/../../plans',
        '/api/guilds/1100000000000000001/extra',
        '/api/plans/%ff%fe',
        '/api/status?verbose=true',
        '/api/%2e%2e/%2e%2e/',
        '/api/auth/guilds/refresh',
        '/api',
      ];
      const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
      const bodies = [undefined, '{}', '[]', 'null', '{"a":1', '"\\u0000"', JSON.stringify({ guilds: [{ id: '1' }] })];
      let checked = 0;
      for (const path of paths) {
        for (const method of methods) {
          for (const body of method === 'GET' || method === 'HEAD' ? [undefined] : bodies) {
            // Refreshing and logging out legitimately write; only their failures are fuzzed here.
            if (path === '/api/auth/guilds/refresh' && method === 'POST' && body !== undefined && !body.startsWith('{"a"')) continue;
            if (path.startsWith('/api/auth/logout') && (method === 'GET' || method === 'HEAD')) continue;
            const res = await browser.request(method, path, {
              headers: body === undefined ? {} : { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
              ...(body === undefined ? {} : { payload: body }),
            });
            const context = `${method} ${path.slice(0, 60)} ${String(body).slice(0, 20)}`;
            expect(res.statusCode, context).toBeLessThan(500);
            if (method !== 'HEAD' && res.statusCode >= 400) expectApiError(res, context);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(300);
      expect(await snapshot(t)).toBe(before);
    });
  });

  describe('unexpected failures', () => {
    let faulty: FaultyDb;
    const t = useTestApp(database, {
      wrapDb: async (db) => {
        faulty = await faultyDb(db, database);
        return faulty;
      },
    });
    afterAll(async () => {
      faulty.failWhen(null);
    });

    it('answer 500, code 1500, a generic message; the cause is logged, never shown', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, DEMO_USERS.cleo.id);
      const bug = Object.assign(new Error('relation "user_guilds_v2" does not exist'), { code: '42P01' });
      faulty.failWhen((sql) => (sql.includes('FROM user_guilds') ? bug : null));
      const res = await browser.get('/api/auth/@me');
      faulty.failWhen(null);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: ERROR_CODES.INTERNAL.code, message: ERROR_CODES.INTERNAL.message, isAuthenticated: true });
      expect(res.headers['cache-control']).toBe('no-store');
      expectNoLeak(res, '500');
      const logged = t.logs.messages('unhandled error');
      expect(logged).toHaveLength(1);
      expect(JSON.stringify(logged[0])).toContain('user_guilds_v2');
      // The next request works again.
      expect((await browser.get('/api/auth/@me')).json().isAuthenticated).toBe(true);
    });
  });
});

describe.each(databases())('the logs of a real database error on $name', (database) => {
  const SECRET = 'secret-token-hash-5f0c2a9e';
  const t = useTestApp(database, {
    extend: (app) => {
      // A bug-like write: inserting the same primary key twice (a real unique violation, 23505).
      app.get('/api/test/duplicate', async () => {
        const insert = `INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at)
                        VALUES ($1, $2, $3, now(), now(), now())`;
        await app.db.query('INSERT INTO users (id, username, created_at, updated_at) VALUES ($1, $2, now(), now()) ON CONFLICT DO NOTHING', [
          '100000000000000777',
          'someone',
        ]);
        await app.db.query(insert, ['dup-session', SECRET, '100000000000000777']);
        await app.db.query(insert, ['dup-session', `${SECRET}-2`, '100000000000000777']);
        return { ok: true };
      });
    },
  });

  it('answers 1500 and logs name, message, code and stack, never the statement, its parameters or the row', async () => {
    t.logs.clear();
    const res = await new Browser(t.app).get('/api/test/duplicate');
    expect(res.statusCode).toBe(500);
    expect(ApiError.parse(res.json())).toEqual({ code: ERROR_CODES.INTERNAL.code, message: ERROR_CODES.INTERNAL.message, isAuthenticated: false });
    const [entry] = t.logs.messages('unhandled error');
    const err = entry?.err as Record<string, unknown>;
    expect(err.code).toBe('23505');
    expect(String(err.message)).toMatch(/duplicate key/);
    expect(String(err.stack)).toMatch(/duplicate key/);
    expect(typeof err.type).toBe('string');
    expect(Object.keys(err).sort()).toEqual(expect.arrayContaining(['code', 'message', 'stack', 'type']));
    for (const key of ['query', 'params', 'detail', 'where', 'schema', 'table', 'constraint', 'internalQuery']) expect(err, key).not.toHaveProperty(key);
    const text = t.logs.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('INSERT INTO sessions');
    expect(text).not.toContain('dup-session');
  });
});

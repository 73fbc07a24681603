import { readdirSync } from 'node:fs';
import { ERROR_CODES, StatusResponse } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/plugins/app/db';
import { ANONYMOUS } from '../../src/routes/auth/index';
import { createTestApp, DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases, useSuiteDb } from '../helpers/db';
import { type FaultyDb, faultyDb } from '../helpers/faulty-db';
import { approveAs, runPopup, signIn, startLogin } from '../helpers/oauth';

const UNAVAILABLE = { code: ERROR_CODES.DATABASE_UNAVAILABLE.code, message: ERROR_CODES.DATABASE_UNAVAILABLE.message };

describe.each(databases())('the database on $name', (database) => {
  describe('migrations at start', () => {
    const suite = useSuiteDb(database);

    it('creates the schema on first start and is a no-op on the next starts', async () => {
      const first = await createTestApp(suite.db);
      const { rows } = await suite.db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      const files = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{3}_.+\.sql$/.test(f)).map((f) => f.slice(0, 3));
      expect(rows.map((r) => r.version)).toEqual(files.sort());
      expect(files[0]).toBe('001');
      expect(first.logs.messages('database migrated')).toHaveLength(1);
      await first.close();
      const second = await createTestApp(suite.db);
      expect(second.logs.messages('database migrated')).toHaveLength(0);
      expect((await new Browser(second.app).get('/api/auth/@me')).json()).toEqual(ANONYMOUS);
      await second.close();
    });
  });

  describe('when the database goes away', () => {
    const t = useTestApp(database);

    it('answers 503 (1009) with Retry-After where the database is needed, and keeps everything else up', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, DEMO_USERS.ava.id);
      await t.db.kill();

      for (const [method, url] of [
        ['GET', '/api/auth/@me'],
        ['GET', `/api/guilds/${DEMO_GUILDS.avasArcade.id}`],
        ['POST', '/api/auth/guilds/refresh'],
        ['GET', '/api/auth/logout'],
      ] as const) {
        const res = url === '/api/auth/logout' ? await browser.logout() : method === 'GET' ? await browser.get(url) : await browser.post(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after'], url).toBe('5');
        expect(res.headers['cache-control'], url).toBe('no-store');
        // The session cookie cannot be checked: it counts as signed in (no "Login Required" flash).
        expect(res.json(), url).toEqual({ ...UNAVAILABLE, isAuthenticated: true });
      }
      // A visitor without a cookie needs no database for @me.
      expect((await new Browser(t.app).get('/api/auth/@me')).json()).toEqual(ANONYMOUS);

      // Liveness, plans and runtime config need no database; status reports it down.
      expect((await browser.get('/api/health')).statusCode).toBe(200);
      expect((await browser.get('/api/plans')).statusCode).toBe(200);
      expect((await browser.get('/config.json')).statusCode).toBe(200);
      const status = StatusResponse.parse((await browser.get('/api/status')).json());
      expect(status.status).toBe('degraded');
      expect(status.services.find((s) => s.name === 'database')).toMatchObject({ status: 'down', latencyMs: null });

      expect(t.logs.messages('database unavailable').length).toBeGreaterThan(0);
      expect(t.logs.messages('unhandled error')).toHaveLength(0);
    });

    it('the sign-in popup shows a page that tells the opener, not a JSON body', async () => {
      const browser = new Browser(t.app);
      const res = await browser.get('/api/auth/login');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(runPopup(res.body).posted).toEqual([
        { message: { auth: false, error: 'unavailable', code: ERROR_CODES.DATABASE_UNAVAILABLE.code }, targetOrigin: DASHBOARD_ORIGIN },
      ]);
    });
  });

  describe('an outage, then recovery without a restart', () => {
    let faulty: FaultyDb;
    const t = useTestApp(database, {
      wrapDb: async (db) => {
        faulty = await faultyDb(db, database);
        return faulty;
      },
    });
    afterAll(async () => {
      await faulty.dispose();
    });

    it('fails cleanly during the outage and serves the same session afterwards', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, DEMO_USERS.ben.id);
      const popupBrowser = new Browser(t.app);
      const { authorize } = await startLogin(popupBrowser);
      const callback = await approveAs(popupBrowser, authorize, DEMO_USERS.cleo.id);

      faulty.down();
      for (let i = 0; i < 3; i++) {
        const res = await browser.get('/api/auth/@me');
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ ...UNAVAILABLE, isAuthenticated: true });
      }
      const popup = await popupBrowser.get(callback.toString());
      expect(popup.statusCode).toBe(503);
      expect(runPopup(popup.body).posted[0]?.message).toEqual({ auth: false, error: 'unavailable', code: 1009 });
      expect((await browser.get('/api/health')).statusCode).toBe(200);

      faulty.up();
      t.clock.advance(SECOND);
      const res = await browser.get('/api/auth/@me');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ isAuthenticated: true, user: { id: DEMO_USERS.ben.id } });
      const status = StatusResponse.parse((await browser.get('/api/status')).json());
      expect(status.services.find((s) => s.name === 'database')?.status).not.toBe('down');
    });
  });
});

import { connect } from 'node:net';
import { ERROR_CODES } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { LOG_REPEAT_INTERVAL_MS } from '../../src/lib/log';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { type FaultyDb, faultyDb } from '../helpers/faulty-db';
import { signIn } from '../helpers/oauth';
import { listen } from '../helpers/raw-http';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `head` and part of the body on a real connection, then hangs up (the client's doing). */
function abortUpload(port: number, head: string, partialBody: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.write(head + partialBody, () => setTimeout(() => socket.destroy(), 100));
    });
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
}

const levelOf = (entry: Record<string, unknown>) => Number(entry.level);

describe.each(databases())('faults that are not outages, and repeated warnings ($name)', (database) => {
  let faulty: FaultyDb;
  const t = useTestApp(database, {
    env: { BOT_API_KEY: KEY, DATABASE_STATEMENT_TIMEOUT_MS: '600' },
    wrapDb: async (db) => {
      faulty = await faultyDb(db, database, { statementTimeoutMs: 600 });
      return faulty;
    },
  });
  afterAll(async () => {
    await faulty.dispose();
  });

  it('a client that hangs up mid-upload is logged at debug only: no 503, no warning, nothing on the System page', async () => {
    const port = await listen(t.app);
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    t.logs.clear();
    const errorsBefore = t.app.recentErrors.list().length;
    const uploads = [
      // A signed-in write, the bot API and a webhook (its proof header present, so its body is read).
      `PUT /api/guilds/${'1'.repeat(18)}/config HTTP/1.1\r\nHost: localhost\r\nCookie: ${browser.cookieHeader()}\r\nOrigin: ${DASHBOARD_ORIGIN}\r\nX-Requested-With: tickety\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n`,
      `POST /api/bot/v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n`,
      `POST /api/webhooks/paddle HTTP/1.1\r\nHost: localhost\r\nPaddle-Signature: ts=1;h1=00\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n`,
    ];
    for (const head of uploads) await abortUpload(port, head, '{"events":[');
    await expect.poll(() => t.logs.messages('client hung up before its request arrived').length, { timeout: 5_000 }).toBe(uploads.length);
    const entries = t.logs.entries();
    for (const hungUp of t.logs.messages('client hung up before its request arrived')) expect(levelOf(hungUp)).toBe(20);
    expect(entries.filter((e) => levelOf(e) >= 40).map((e) => e.msg)).toEqual([]);
    expect(t.logs.messages('database unavailable')).toEqual([]);
    expect(t.app.recentErrors.list()).toHaveLength(errorsBefore);
  });

  it('while the database is down, each repeated cause writes at most one line a second, then one with the count it suppressed', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.cleo.id);
    t.logs.clear();
    faulty.down();
    try {
      const started = Date.now();
      let refused = 0;
      // 40 requests and 40 readiness probes within well under a second.
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          const me = await browser.get('/api/auth/@me');
          const ready = await browser.get('/api/health/ready');
          if (me.statusCode === 503 && me.json().code === ERROR_CODES.DATABASE_UNAVAILABLE.code) refused++;
          if (ready.statusCode === 503) refused++;
        }),
      );
      expect(refused).toBe(80);
      const burstMs = Date.now() - started;
      const warnings = () => t.logs.entries().filter((e) => levelOf(e) >= 40);
      // During the burst: one line per cause (the request's and the probe's), however many requests.
      const causes = new Set(warnings().map((e) => `${e.msg} ${e.err}`));
      expect(warnings().length).toBeLessThanOrEqual(causes.size * (Math.floor(burstMs / LOG_REPEAT_INTERVAL_MS) + 1));
      expect(warnings().some((e) => e.suppressed !== undefined)).toBe(burstMs >= LOG_REPEAT_INTERVAL_MS);
      // After the interval: one line per cause saying how many it suppressed, then nothing more.
      await sleep(LOG_REPEAT_INTERVAL_MS * 2.5);
      const summaries = warnings().filter((e) => typeof e.suppressed === 'number');
      expect(summaries.length).toBeGreaterThan(0);
      const suppressed = summaries.reduce((sum, e) => sum + (e.suppressed as number), 0);
      expect(suppressed + warnings().filter((e) => e.suppressed === undefined).length).toBeGreaterThanOrEqual(80);
      expect(warnings().length).toBeLessThan(10);
    } finally {
      faulty.up();
    }
  });
});

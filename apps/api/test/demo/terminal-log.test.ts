import { stripVTControlCharacters } from 'node:util';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DISCORD } from '../../demo/demo';
import { chooseLogging, formatLogLine, type LogChoice, launcherEnv, launcherLogOptions, startBanner } from '../../demo/terminal-log';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { testEnv } from '../helpers/app';
import { databases, openSuiteDb, type SuiteDb } from '../helpers/db';
import { LogCapture } from '../helpers/logs';

/** What the launcher would print, collected. */
class Out {
  text = '';
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

describe('chooseLogging (the launcher: npm start)', () => {
  it('is readable text at warn in a terminal, JSON at the configured level otherwise', () => {
    expect(chooseLogging({}, true)).toEqual({ format: 'text', level: 'warn', color: true });
    expect(chooseLogging({}, false)).toEqual({ format: 'json', level: undefined, color: false });
  });

  it('gives JSON lines back in a terminal with LOG_FORMAT=json, and every request with LOG_LEVEL', () => {
    expect(chooseLogging({ LOG_FORMAT: 'json' }, true)).toEqual({ format: 'json', level: undefined, color: false });
    expect(chooseLogging({ LOG_LEVEL: 'info' }, true)).toEqual({ format: 'text', level: 'info', color: true });
    expect(chooseLogging({ LOG_FORMAT: 'text', NO_COLOR: '1' }, false)).toEqual({ format: 'text', level: 'warn', color: false });
    expect(() => chooseLogging({ LOG_FORMAT: 'pretty' }, true)).toThrow(/LOG_FORMAT: must be json or text/);
  });
});

describe('formatLogLine', () => {
  it('writes time, level, message, request id and route, the error and the other fields on one line', () => {
    const time = new Date(2026, 10, 28, 14, 3, 9).getTime();
    const line = JSON.stringify({
      level: 50,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'ab12',
      route: 'GET /api/guilds/1',
      err: { type: 'TypeError', message: 'boom', stack: 'TypeError: boom\n    at handler (/x/app.js:10:5)\n    at next' },
      msg: 'unhandled error',
    });
    expect(formatLogLine(line, false)).toBe('14:03:09 ERROR unhandled error [ab12 GET /api/guilds/1] TypeError: boom (at handler (/x/app.js:10:5))\n');
    const warn = JSON.stringify({ level: 40, time, stand_in: 'paddle', msg: 'demo: a saved state was not restored' });
    expect(formatLogLine(warn, false)).toBe('14:03:09 WARN  demo: a saved state was not restored stand_in=paddle\n');
    expect(formatLogLine('not json', false)).toBe('not json\n');
  });
});

describe.each(databases())('npm start’s output, through the app, on $name', (database) => {
  let db: SuiteDb;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openSuiteDb(database));
  });
  afterAll(async () => drop?.());

  /** The app as the launcher builds it for a choice; JSON lines (stdout in the launcher) go to `json`. */
  async function launch(choice: LogChoice) {
    const out = new Out();
    const json = new LogCapture();
    const config = loadConfig(launcherEnv(testEnv({ LOG_LEVEL: undefined, NODE_ENV: 'production' }), choice), DEMO_DISCORD);
    const options = launcherLogOptions(choice, out);
    const app = await buildApp(config, { db, ...options, logStream: options.logStream ?? json });
    app.get('/fails', async (req) => {
      req.log.warn({ server: '42' }, 'a warning during a request');
      throw new Error('kaput');
    });
    await app.ready();
    for (const url of ['/api/health', '/api/plans', '/config.json']) expect((await app.inject({ url })).statusCode).toBeLessThan(500);
    expect((await app.inject({ url: '/fails?code=secret' })).statusCode).toBe(500);
    await app.close();
    // Colours off for the assertions (a terminal gets them; `chooseLogging`'s tests check that).
    return { out: stripVTControlCharacters(out.text), json, banner: startBanner(config, { ...choice, color: false }) };
  }

  it('in a terminal: the banner, then warnings and errors only, readable, with request id and route', async () => {
    const { out, json, banner } = await launch(chooseLogging({}, true));
    expect(json.lines).toEqual([]);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}a warning during a request \[[0-9a-f]{12} GET \/fails\?code=%5Bredacted%5D\] server=42$/);
    expect(lines[1]).toMatch(/ ERROR unhandled error \[[0-9a-f]{12} GET \/fails\?code=%5Bredacted%5D\] Error: kaput \(at /);
    expect(out).not.toMatch(/incoming request|request completed|\/api\/health|"level"/);
    expect(out).not.toContain('secret');

    expect(banner).toContain('Tickety is ready');
    expect(banner).toContain('http://localhost:3000');
    for (const user of Object.values(DEMO_USERS)) expect(banner).toContain(user.blurb);
    expect(banner).toContain('in memory');
    expect(banner).toContain('Ctrl+C');
    expect(banner).toContain('LOG_FORMAT=json');
  });

  it('with LOG_LEVEL=debug in a terminal: every request, still readable', async () => {
    const { out } = await launch(chooseLogging({ LOG_LEVEL: 'debug' }, true));
    expect(out).toMatch(/DEBUG request completed \[[0-9a-f]{12} GET \/api\/health\].*→ 200/);
    expect(out).toMatch(/INFO {2}request completed \[[0-9a-f]{12} GET \/fails\?code=%5Bredacted%5D\].*→ 500/);
    // One line per request: no "incoming request" line before it.
    expect(out).not.toContain('incoming request');
    expect(out).not.toContain('"level"');
  });

  it('with LOG_LEVEL=info in a terminal: the failed request, not the answered ones', async () => {
    const { out } = await launch(chooseLogging({ LOG_LEVEL: 'info' }, true));
    expect(out).toMatch(/INFO {2}request completed \[[0-9a-f]{12} GET \/fails\?code=%5Bredacted%5D\].*→ 500/);
    expect(out).not.toMatch(/request completed \[[0-9a-f]{12} GET \/api\/(health|plans)\]/);
  });

  it('not a terminal (or LOG_FORMAT=json): JSON lines, a failed request at info, as production', async () => {
    for (const choice of [chooseLogging({}, false), chooseLogging({ LOG_FORMAT: 'json' }, true)]) {
      const { out, json } = await launch(choice);
      expect(out).toBe('');
      expect(json.lines.length).toBe(json.entries().length);
      // Answered requests are logged at debug (below production's info); the failed one at info.
      const completed = json.messages('request completed');
      expect(completed.map((entry) => (entry.req as { url: string }).url)).toEqual(['/fails?code=%5Bredacted%5D']);
      expect(completed[0]).toMatchObject({ level: 30, res: { statusCode: 500 } });
      expect(json.messages('incoming request')).toHaveLength(0);
      expect(json.messages('unhandled error')).toHaveLength(1);
      // No route field: production's lines are as before.
      expect(json.entries().some((entry) => 'route' in entry)).toBe(false);
    }
  });
});

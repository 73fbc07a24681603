import { ApiError, ConfigVersionList, defaultServerConfig, ERROR_CODES, newPanel, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it, vi } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { insertSubscriptions } from '../../helpers/billing';
import { Browser } from '../../helpers/browser';
import { SECOND } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;

function panel(id: string, name: string) {
  const item = newPanel(id, { name, title: name, description: 'Press the button to open a ticket.', button: 'Open a ticket' });
  return { ...item, embed: { ...item.embed, colour: 0x10b981 }, namingScheme: 'ticket-{count}' };
}

function withPanels(...panels: ReturnType<typeof panel>[]) {
  return { ...defaultServerConfig(), panels };
}

/** A save as the dashboard sends it. */
function put(browser: Browser, path: string, body: unknown) {
  return browser.request('PUT', path, { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: body as object });
}

describe.each(databases())('server configuration on $name', (database) => {
  const t = useTestApp(database);
  const base = `/api/guilds/${ARCADE}`;

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  it('refuses a visitor (401) and a user who cannot manage the server (403/405), reads and writes alike', async () => {
    expect((await new Browser(t.app).get(`${base}/config`)).statusCode).toBe(401);
    const browser = await as(cleo.id);
    for (const res of [await browser.get(`${base}/config`), await put(browser, `${base}/config`, { expectedVersion: 0, config: defaultServerConfig() }), await browser.get(`${base}/logs`)]) {
      expect([403, 404]).toContain(res.statusCode);
      expect(ApiError.parse(res.json()).code).toBeOneOf([403, 405]);
    }
  });

  it('starts at version 0 with the defaults and a free server’s limit', async () => {
    const browser = await as(ava.id);
    const res = await browser.get(`${base}/config`);
    expect(res.statusCode).toBe(200);
    const body = ServerConfigAnswer.parse(res.json());
    expect(body).toMatchObject({ version: 0, savedAt: null, savedBy: null, premium: false, panelLimit: 3 });
    expect(body.config).toEqual(defaultServerConfig());
  });

  it('reads the configuration and the server’s limits in one query, then from the cache until a change', async () => {
    const browser = await as(ava.id);
    await browser.get(`${base}/config`); // the session and the guild list are warm: only the read is left
    t.app.sessionCache.invalidate({ kind: 'server', id: ARCADE });
    const spy = vi.spyOn(t.app.db, 'query');
    const configQueries = () => spy.mock.calls.filter(([sql]) => /server_config_versions|subscriptions/.test(String(sql))).length;
    try {
      expect((await browser.get(`${base}/config`)).statusCode).toBe(200);
      expect(configQueries()).toBe(1);
      expect((await browser.get(`${base}/config`)).statusCode).toBe(200);
      expect(configQueries()).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('saves a version with its Web Logs entry (who, what, a field-level diff), and lists it', async () => {
    const browser = await as(ava.id);
    const first = await put(browser, `${base}/config`, { expectedVersion: 0, config: withPanels(panel('support', 'Support')) });
    expect(first.statusCode, first.body).toBe(200);
    expect(ServerConfigAnswer.parse(first.json())).toMatchObject({ version: 1, savedBy: { id: ava.id } });

    const renamed = panel('support', 'Support');
    renamed.button.label = 'Get help';
    const second = await put(browser, `${base}/config`, { expectedVersion: 1, config: withPanels(renamed) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().version).toBe(2);

    const logs = WebLogPage.parse((await browser.get(`${base}/logs`)).json());
    expect(logs.entries).toHaveLength(2);
    expect(logs.entries[0]).toMatchObject({ action: 'config.update', target: 'Panel “Support”', version: 2, actor: { id: ava.id } });
    expect(logs.entries[0]!.changes).toEqual([{ path: 'panels[support].button.label', before: 'Open a ticket', after: 'Get help' }]);
    expect(logs.entries[1]!.changes).toEqual([{ path: 'panels[support]', after: panel('support', 'Support') }]);

    const versions = ConfigVersionList.parse((await browser.get(`${base}/config/versions`)).json());
    expect(versions.versions.map((v) => [v.version, v.summary])).toEqual([
      [2, 'Panel “Support”'],
      [1, 'Panel “Support”'],
    ]);
    // Web Logs filter by action and page with a cursor.
    const page = WebLogPage.parse((await browser.get(`${base}/logs?limit=1`)).json());
    expect(page.entries).toHaveLength(1);
    const next = WebLogPage.parse((await browser.get(`${base}/logs?limit=1&cursor=${page.nextCursor}`)).json());
    expect(next.entries[0]!.version).toBe(1);
    expect(WebLogPage.parse((await browser.get(`${base}/logs?action=config.restore`)).json()).entries).toEqual([]);
  });

  it('refuses a save over a newer version (1013, naming who saved it and what the newer versions changed) and writes nothing', async () => {
    const browser = await as(ava.id);
    const res = await put(browser, `${base}/config`, { expectedVersion: 0, config: withPanels(panel('other', 'Other')) });
    expect(res.statusCode).toBe(409);
    const body = ApiError.parse(res.json());
    expect(body.code).toBe(ERROR_CODES.CONFIG_CONFLICT.code);
    expect(body.message).toMatch(/^Ava saved version 2 while you were editing \(changed: Panel “Support”(; [^)]+)?\)\. Your changes were not saved/);
    expect(ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json()).version).toBe(2);
  });

  it('lets exactly one of two saves of the same version through (the database decides)', async () => {
    const browser = await as(ava.id);
    const results = await Promise.all(
      ['a', 'b'].map((id) => put(browser, `${base}/config`, { expectedVersion: 2, config: withPanels(panel('support', 'Support'), panel(id, `Panel ${id}`)) })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const live = ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json());
    expect(live.version).toBe(3);
    expect(WebLogPage.parse((await browser.get(`${base}/logs`)).json()).entries).toHaveLength(3);
  });

  it('refuses a configuration over the free panel limit, or breaking a Discord limit, with the field, and writes nothing', async () => {
    const browser = await as(ava.id);
    const four = await put(browser, `${base}/config`, { expectedVersion: 3, config: withPanels(panel('a', 'A'), panel('b', 'B'), panel('c', 'C'), panel('d', 'D')) });
    expect(four.statusCode).toBe(400);
    expect(ApiError.parse(four.json())).toMatchObject({ code: 1001 });
    expect(four.json().message).toMatch(/at most 3 panels/);
    const long = panel('a', 'A');
    long.button.label = '😀'.repeat(81);
    const tooLong = await put(browser, `${base}/config`, { expectedVersion: 3, config: withPanels(long) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toMatch(/^panels\.0\.button\.label: /);
    expect(ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json()).version).toBe(3);
  });

  it('restores an earlier version as a new one, logged as a restore', async () => {
    const browser = await as(ava.id);
    const res = await browser.post(`${base}/config/versions/1/restore`, { expectedVersion: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ version: 4 });
    const version = (await browser.get(`${base}/config/versions/4`)).json();
    expect(version).toMatchObject({ version: 4, restoredFrom: 1, changes: [] });
    const logs = WebLogPage.parse((await browser.get(`${base}/logs?action=config.restore`)).json());
    expect(logs.entries[0]).toMatchObject({ action: 'config.restore', version: 4 });
    expect((await browser.get(`${base}/config/versions/99`)).statusCode).toBe(404);
  });

  it('leaves nothing half-written when the Web Logs write fails (a real database error)', async () => {
    const browser = await as(ava.id);
    await t.db.query('ALTER TABLE web_logs RENAME TO web_logs_away');
    try {
      const res = await put(browser, `${base}/config`, { expectedVersion: 4, config: withPanels(panel('x', 'X')) });
      expect(res.statusCode).toBe(500);
      expect(ApiError.parse(res.json()).code).toBe(1500);
    } finally {
      await t.db.query('ALTER TABLE web_logs_away RENAME TO web_logs');
    }
    expect(ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json()).version).toBe(4);
  });
  it('lets a server whose premium ended keep and edit its panels over the free limit, but not add one', async () => {
    const browser = await as(ava.id);
    const live = () => browser.get(`${base}/config`).then((res) => ServerConfigAnswer.parse(res.json()));
    await insertSubscriptions(t.db, [{ id: 'sub-ended', userId: ava.id, provider: 'paddle', providerId: 'sub_ended', status: 'active', premium: true, servers: [ARCADE] }]);
    // Inserted behind the API's back (a webhook would announce it): the page's cached read is dropped as the webhook's would be.
    t.app.sessionCache.invalidate({ kind: 'servers' });
    try {
      const five = ['a', 'b', 'c', 'd', 'e'].map((id) => panel(id, id.toUpperCase()));
      const start = await live();
      expect(start).toMatchObject({ premium: true });
      const saved = await put(browser, `${base}/config`, { expectedVersion: start.version, config: withPanels(...five) });
      expect(saved.statusCode, saved.body).toBe(200);
      await t.db.query(`UPDATE subscriptions SET premium = false, status = 'canceled' WHERE id = 'sub-ended'`);
      // Written behind the API's back (as a lapse by the clock is): the page sees it once its cache's TTL has passed.
      t.clock.advance(15 * SECOND);
      const ended = await live();
      expect(ended).toMatchObject({ premium: false, panelLimit: 3 });
      const edited = await put(browser, `${base}/config`, { expectedVersion: ended.version, config: withPanels(...five.slice(0, 4), panel('e', 'Renamed')) });
      expect(edited.statusCode, edited.body).toBe(200);
      const added = await put(browser, `${base}/config`, { expectedVersion: ended.version + 1, config: withPanels(...five, panel('f', 'F')) });
      expect(added.statusCode).toBe(400);
      expect(ApiError.parse(added.json()).message).toContain('It already had 5');
      expect((await live()).version).toBe(ended.version + 1);
      const fewer = await put(browser, `${base}/config`, { expectedVersion: ended.version + 1, config: withPanels(...five.slice(0, 2)) });
      expect(fewer.statusCode, fewer.body).toBe(200);
    } finally {
      await t.db.query(`DELETE FROM subscriptions WHERE id = 'sub-ended'`);
    }
  });
  it('refuses out-of-range cursors, versions and times with 400 (1001), never a database error', async () => {
    const browser = await as(ava.id);
    for (const path of [
      `${base}/logs?cursor=9999999999999999999`,
      `${base}/logs?from=0000-01-01T00:00:00Z`,
      `${base}/logs?to=9999-12-31T23:59:59-23:59`, // past the year 9999 in UTC
      `${base}/config/versions?cursor=99999999999`,
      `${base}/config/versions/99999999999`,
      `${base}/config/export?version=99999999999`,
    ]) {
      const res = await browser.get(path);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      expect(ApiError.parse(res.json()).code, path).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
    expect((await browser.get(`${base}/logs?cursor=9223372036854775807&from=1970-01-01T00:00:00Z`)).statusCode).toBe(200);
    // An offset PostgreSQL would refuse (+23:59) is read as the UTC time it means.
    expect((await browser.get(`${base}/logs?to=9999-12-31T23:59:59%2B23:59`)).statusCode).toBe(200);
  });

});

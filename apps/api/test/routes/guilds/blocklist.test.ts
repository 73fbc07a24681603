import { createHmac } from 'node:crypto';
import { ApiError, type BlockEntry, canonicalJson, defaultServerConfig, ERROR_CODES, ImportPreview, type ServerConfig, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { HOUR, START } from '../../helpers/clock';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo, nico } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PALS = DEMO_GUILDS.pixelPals.id;
const BOT_KEY = `tk_bot_blocklist1_${'b'.repeat(43)}`;
const FILE_KEY = Buffer.alloc(32, 5).toString('base64');
/** Someone who never used the dashboard: what a forged `addedBy` names. */
const FORGER = '1000000000000099999';
const FORGED_AT = '2001-01-01T00:00:00.000Z';
const at = (ms: number) => new Date(ms).toISOString();

function entry(overrides: Partial<BlockEntry> = {}): BlockEntry {
  return { kind: 'user', id: cleo.id, reason: 'Spam in tickets', addedBy: FORGER, addedAt: FORGED_AT, expiresAt: null, ...overrides };
}

function withBlocklist(blocklist: unknown[]): ServerConfig {
  return { ...defaultServerConfig(), blocklist } as ServerConfig;
}

function expectError(res: LightMyRequestResponse, status: number, code: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = ApiError.parse(res.json());
  expect(body.code).toBe(code);
  if (message) expect(body.message).toMatch(message);
}

describe.each(databases())('the blocklist in the configuration on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: BOT_KEY, CONFIG_FILE_KEYS: `kb:${FILE_KEY}` } });
  const base = `/api/guilds/${ARCADE}`;

  // Each test starts from no configuration at the start time (the app and its database are the suite's).
  beforeEach(async () => {
    t.clock.set(START);
    await t.db.query('DELETE FROM server_config_versions');
    await t.db.query('DELETE FROM web_logs');
    for (const id of [ARCADE, PALS]) t.app.sessionCache.invalidate({ kind: 'server', id });
  });

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }
  const put = (browser: Browser, url: string, body: unknown) =>
    browser.request('PUT', url, { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: body as object });
  const save = async (browser: Browser, blocklist: unknown[], url = base) => {
    const live = ServerConfigAnswer.parse((await browser.get(`${url}/config`)).json());
    return put(browser, `${url}/config`, { expectedVersion: live.version, config: { ...live.config, blocklist } });
  };
  const stored = async (guildId: string = ARCADE) => {
    const { rows } = await t.db.query<{ config: ServerConfig }>('SELECT config FROM server_config_versions WHERE guild_id = $1 ORDER BY version DESC LIMIT 1', [guildId]);
    return rows[0]?.config.blocklist;
  };
  const written = async () => JSON.stringify((await t.db.query('SELECT guild_id, version, config FROM server_config_versions ORDER BY guild_id, version')).rows);

  it('refuses a visitor (401) and a member without access (403), and writes nothing', async () => {
    const before = await written();
    expect((await put(new Browser(t.app), `${base}/config`, { expectedVersion: 0, config: withBlocklist([entry()]) })).statusCode).toBe(401);
    const res = await put(await as(cleo.id), `${base}/config`, { expectedVersion: 0, config: withBlocklist([entry()]) });
    expect([403, 404]).toContain(res.statusCode);
    expect(await written()).toBe(before);
  });

  it('refuses entries that do not pass (no reason, bad kind or id, a time without a zone, twice, over the plan) with the field, and writes nothing', async () => {
    const browser = await as(ava.id);
    const before = await written();
    const cases: Array<[unknown[], RegExp]> = [
      [[entry({ reason: '   ' })], /^blocklist\.0\.reason: Give a reason: the member is told it\./],
      [[entry({ reason: 'x'.repeat(201) })], /^blocklist\.0\.reason: A reason may be at most 200 characters/],
      [[{ ...entry(), kind: 'channel' }], /^blocklist\.0\.kind: Must be user or role/],
      [[entry({ id: 'cleo' })], /^blocklist\.0\.id:/],
      [[entry({ expiresAt: '2026-12-01T10:00' })], /^blocklist\.0\.expiresAt: Must be an ISO 8601 time with a zone/],
      [[entry(), entry({ reason: 'Again' })], /^blocklist\.1\.id: This user is already on the blocklist/],
      [[{ ...entry(), note: 'extra' }], /^blocklist\.0:/],
      [Array.from({ length: 101 }, (_, index) => entry({ id: String(1000000000000200000n + BigInt(index)) })), /^blocklist: This server can have at most 100 blocklist entries \(this configuration has 101\)\. Remove some, or get premium to raise the limit to 1,000\./],
    ];
    for (const [blocklist, message] of cases) expectError(await save(browser, blocklist), 400, ERROR_CODES.VALIDATION_FAILED.code, message);
    expect(await written()).toBe(before);
  });

  it('stamps a new entry with who saved it and when, whatever the client sent; an entry already there keeps its stamps', async () => {
    const avas = await as(ava.id);
    const first = await save(avas, [entry()]);
    expect(first.statusCode, first.body).toBe(200);
    const addedAt = at(START);
    expect(ServerConfigAnswer.parse(first.json()).config.blocklist).toEqual([entry({ addedBy: ava.id, addedAt })]);
    expect(await stored()).toEqual([entry({ addedBy: ava.id, addedAt })]);

    // Nico edits the reason and expiry and forges the stamps; he adds the Member role.
    t.clock.advance(HOUR);
    const nicos = await as(nico.id);
    const expiresAt = at(START + 48 * HOUR);
    const second = await save(nicos, [entry({ reason: 'Spam, again', expiresAt, addedBy: nico.id, addedAt: at(START + HOUR) }), entry({ kind: 'role', id: DEMO_ROLES.avasArcade.member, addedBy: ava.id })]);
    expect(second.statusCode, second.body).toBe(200);
    expect(await stored()).toEqual([
      entry({ reason: 'Spam, again', expiresAt, addedBy: ava.id, addedAt }),
      entry({ kind: 'role', id: DEMO_ROLES.avasArcade.member, addedBy: nico.id, addedAt: at(START + HOUR) }),
    ]);

    // Removed, then added again: a new entry (its stamps are the new save's).
    t.clock.advance(HOUR);
    expect((await save(nicos, [])).statusCode).toBe(200);
    expect((await save(nicos, [entry()])).statusCode).toBe(200);
    expect(await stored()).toEqual([entry({ addedBy: nico.id, addedAt: at(START + 2 * HOUR) })]);
  });

  it('logs a blocklist change in Web Logs as “Blocklist”, entry by entry', async () => {
    const browser = await as(ava.id);
    expect((await save(browser, [entry()])).statusCode).toBe(200);
    expect((await save(browser, [entry({ reason: 'Rude to staff' })])).statusCode).toBe(200);
    const logs = WebLogPage.parse((await browser.get(`${base}/logs`)).json());
    expect(logs.entries.map((e) => e.target)).toEqual(['Blocklist', 'Blocklist']);
    expect(logs.entries[0]!.changes).toEqual([{ path: `blocklist[${cleo.id}].reason`, before: 'Spam in tickets', after: 'Rude to staff' }]);
    expect(logs.entries[1]!.changes).toEqual([{ path: `blocklist[${cleo.id}]`, after: entry({ addedBy: ava.id, addedAt: at(START) }) }]);
  });

  it('keeps the restored version’s stamps on a restore (they are this server’s), the live ones for entries still there', async () => {
    const avas = await as(ava.id);
    expect((await save(avas, [entry()])).statusCode).toBe(200); // version 1, by Ava
    t.clock.advance(HOUR);
    expect((await save(avas, [])).statusCode).toBe(200); // version 2: removed
    t.clock.advance(HOUR);
    const nicos = await as(nico.id);
    const res = await nicos.post(`${base}/config/versions/1/restore`, { expectedVersion: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toEqual([entry({ addedBy: ava.id, addedAt: at(START) })]);
    const logs = WebLogPage.parse((await nicos.get(`${base}/logs?action=config.restore`)).json());
    expect(logs.entries[0]).toMatchObject({ actor: { id: nico.id }, target: 'Blocklist' });
  });

  it('carries the blocklist in an exported file; an import stamps entries new to the server with the importer and now, whatever the file says', async () => {
    const avas = await as(ava.id);
    expect((await save(avas, [entry()])).statusCode).toBe(200);
    const exported = await avas.get(`${base}/config/export`);
    expect(exported.statusCode).toBe(200);
    const file = exported.json() as { config: ServerConfig } & Record<string, unknown>;
    expect(file.config.blocklist).toEqual([entry({ addedBy: ava.id, addedAt: at(START) })]);

    // A file signed with this installation's key whose entries name someone else as who added them.
    const { signature: _signature, keyId: _keyId, ...rest } = file;
    const forgedConfig = { ...file.config, blocklist: [entry({ addedBy: FORGER }), entry({ kind: 'role', id: DEMO_ROLES.pixelPals.pixelPal, addedBy: FORGER })] };
    const unsigned = { ...rest, config: forgedConfig, keyId: 'kb' };
    const forged = { ...unsigned, signature: createHmac('sha256', Buffer.from(FILE_KEY, 'base64')).update(canonicalJson(unsigned)).digest('base64url') };

    t.clock.advance(HOUR);
    // Same server: Cleo's entry is already there (kept as stored); the role is new (stamped now, by Ava).
    const preview = ImportPreview.parse((await avas.post(`${base}/config/import/preview`, { file: forged })).json());
    const expected = [entry({ addedBy: ava.id, addedAt: at(START) }), entry({ kind: 'role', id: DEMO_ROLES.pixelPals.pixelPal, addedBy: ava.id, addedAt: at(START + HOUR) })];
    expect((preview.config as unknown as ServerConfig).blocklist).toEqual(expected);
    const applied = await avas.post(`${base}/config/import`, { file: forged, expectedVersion: preview.liveVersion });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await stored()).toEqual(expected);

    // Another server: every entry is new there.
    const pals = await avas.post(`/api/guilds/${PALS}/config/import`, { file: forged, expectedVersion: 0 });
    expect(pals.statusCode, pals.body).toBe(200);
    expect((await stored(PALS))?.map((e) => [e.addedBy, e.addedAt])).toEqual([
      [ava.id, at(START + HOUR)],
      [ava.id, at(START + HOUR)],
    ]);
  });

  it('gives the bot the blocklist with the configuration (GET /api/bot/v1/servers/:server/config)', async () => {
    const browser = await as(ava.id);
    expect((await save(browser, [entry({ expiresAt: at(START + HOUR) })])).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/api/bot/v1/servers/${ARCADE}/config`, headers: { authorization: `Bearer ${BOT_KEY}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { config: ServerConfig }).config.blocklist).toEqual([entry({ addedBy: ava.id, addedAt: at(START), expiresAt: at(START + HOUR) })]);
  });

  it('lets a member save the blocklist with Panel Menu write access only (Ben: refused with read access, saved with write)', async () => {
    const avas = await as(ava.id);
    const grant = async (level: 'read' | 'write') => {
      const live = ServerConfigAnswer.parse((await avas.get(`${base}/config`)).json());
      const config = { ...live.config, access: [{ roleId: DEMO_ROLES.avasArcade.member, areas: { panels: level } }] };
      expect((await put(avas, `${base}/config`, { expectedVersion: live.version, config })).statusCode).toBe(200);
    };
    await grant('read');
    const bens = await as(ben.id);
    const before = await written();
    expectError(await save(bens, [entry()]), 403, ERROR_CODES.AREA_ACCESS_REQUIRED.code);
    expect(await written()).toBe(before);
    await grant('write');
    const res = await save(bens, [entry()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toEqual([entry({ addedBy: ben.id, addedAt: at(START) })]);
  });
});

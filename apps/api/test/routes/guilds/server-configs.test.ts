import { createHmac } from 'node:crypto';
import {
  ApiError,
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_MAX_BYTES,
  ConfigFile,
  canonicalJson,
  defaultGeneralSettings,
  defaultServerConfig,
  ERROR_CODES,
  ImportPreview,
  newPanel,
  type ServerConfig,
  ServerConfigAnswer,
  WebLogPage,
} from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEMO_DISCORD } from '../../../demo/demo';
import { ConfigError, loadConfig } from '../../../src/config';
import { byName } from '../../../src/services/config-files';
import { createTestApp, testEnv, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PALS = DEMO_GUILDS.pixelPals.id;
const ROLES = DEMO_ROLES;
const CHANNELS = DEMO_CHANNELS;
/** Test secrets (32 bytes each, base64). */
const KEY_2025 = Buffer.alloc(32, 7).toString('base64');
const KEY_2026 = Buffer.alloc(32, 9).toString('base64');
const OTHER_SECRET = Buffer.alloc(32, 3).toString('base64');

/** The documented format, written out again here: keys sorted at every depth, no spaces, HMAC-SHA256, base64url. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
function sign(fields: Record<string, unknown>, keyId = 'k2025', secret = KEY_2025): Record<string, unknown> {
  const unsigned = { ...fields, keyId };
  return { ...unsigned, signature: createHmac('sha256', Buffer.from(secret, 'base64')).update(canonical(unsigned)).digest('base64url') };
}
function unsigned(file: Record<string, unknown>): Record<string, unknown> {
  const { signature: _signature, keyId: _keyId, ...rest } = file;
  return rest;
}

/** A configuration of Ava's Arcade naming channels and roles everywhere they can be named. */
function arcadeConfig(): ServerConfig {
  const panel = newPanel('support', {
    name: 'Support',
    title: 'Support',
    description: `Read <#${CHANNELS.avasArcade.faq}> first; <@&${ROLES.avasArcade.supportTeam}> will answer.`,
    button: 'Open a ticket',
  });
  return {
    ...defaultServerConfig(),
    general: { ...defaultGeneralSettings(), defaultCategoryId: CHANNELS.avasArcade.archiveCategory, logChannelId: CHANNELS.avasArcade.modLog },
    access: [{ roleId: ROLES.avasArcade.moderator, areas: { logs: 'read' } }],
    panels: [
      {
        ...panel,
        categoryId: CHANNELS.avasArcade.supportCategory,
        transcriptChannelId: CHANNELS.avasArcade.transcripts,
        supportRoleIds: [ROLES.avasArcade.supportTeam, ROLES.avasArcade.admin],
        additionalRoleIds: [ROLES.avasArcade.moderator],
        pingRoleIds: [ROLES.avasArcade.supportTeam],
      },
    ],
  };
}

/** A file as another server (not a demo one) would have exported it, signed with the test key. */
const FOREIGN = '1100000000000000099';
const FOREIGN_IDS = { cat: '1200000000000099001', help: '1200000000000099002', gallery: '1200000000000099003', gone: '1200000000000099004', helper: '1400000000000099001', nobody: '1400000000000099002' };
function foreignFile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const panel = newPanel('help', { name: 'Help', title: 'Help', description: `Ask in <#${FOREIGN_IDS.help}>.`, button: 'Help me' });
  const config: ServerConfig = {
    ...defaultServerConfig(),
    general: { ...defaultGeneralSettings(), defaultCategoryId: FOREIGN_IDS.gone, logChannelId: FOREIGN_IDS.gallery },
    access: [{ roleId: FOREIGN_IDS.helper, areas: { panels: 'read' } }],
    panels: [{ ...panel, categoryId: FOREIGN_IDS.cat, transcriptChannelId: FOREIGN_IDS.help, supportRoleIds: [FOREIGN_IDS.helper, FOREIGN_IDS.nobody], pingRoleIds: [FOREIGN] }],
  };
  return sign({
    format: CONFIG_FILE_FORMAT,
    schemaVersion: 1,
    serverId: FOREIGN,
    serverName: 'Elsewhere',
    version: 7,
    exportedAt: '2025-05-01T10:00:00.000Z',
    names: {
      channels: { [FOREIGN_IDS.cat]: 'help desk', [FOREIGN_IDS.help]: 'HELP', [FOREIGN_IDS.gallery]: 'Gallery' },
      roles: { [FOREIGN_IDS.helper]: 'helper', [FOREIGN_IDS.nobody]: 'Nobody', [FOREIGN]: '@everyone' },
    },
    config,
    ...overrides,
  });
}

function expectError(res: LightMyRequestResponse, status: number, code: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = ApiError.parse(res.json());
  expect(body.code, res.body).toBe(code);
  if (message) expect(body.message).toMatch(message);
  return body;
}

describe.each(databases())('configuration files on $name', (database) => {
  const env = { CONFIG_FILE_KEYS: `k2025:${KEY_2025}` };
  const t = useTestApp(database, { env });
  const arcade = `/api/guilds/${ARCADE}`;
  const pals = `/api/guilds/${PALS}`;

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  /** What must not change when an import is refused: the versions and Web Logs of both servers. */
  async function written(): Promise<string> {
    const versions = await t.db.query('SELECT guild_id, version, config FROM server_config_versions ORDER BY guild_id, version');
    const logs = await t.db.query('SELECT guild_id, action, version FROM web_logs ORDER BY id');
    return JSON.stringify([versions.rows, logs.rows]);
  }

  async function live(browser: Browser, base: string) {
    return ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json());
  }

  async function exported(browser: Browser, base: string, query = '') {
    const res = await browser.get(`${base}/config/export${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { res, file: res.json() as Record<string, unknown> };
  }

  it('refuses a visitor (401) and a member without access (403), and writes nothing', async () => {
    const before = await written();
    const visitor = new Browser(t.app);
    expectError(await visitor.get(`${arcade}/config/export`), 401, ERROR_CODES.UNAUTHENTICATED.code);
    expectError(await visitor.post(`${arcade}/config/import/preview`, { file: foreignFile() }), 401, ERROR_CODES.UNAUTHENTICATED.code);
    expectError(await visitor.post(`${arcade}/config/import`, { file: foreignFile(), expectedVersion: 0 }), 401, ERROR_CODES.UNAUTHENTICATED.code);
    // Ben is a member of Ava's Arcade with no dashboard access; Cleo is not a member at all.
    for (const userId of [ben.id, cleo.id]) {
      const browser = await as(userId);
      for (const res of [
        await browser.get(`${arcade}/config/export`),
        await browser.post(`${arcade}/config/import/preview`, { file: foreignFile() }),
        await browser.post(`${arcade}/config/import`, { file: foreignFile(), expectedVersion: 0 }),
      ]) {
        expect(res.statusCode, res.body).toBe(userId === ben.id ? 403 : 404);
        expect(ApiError.parse(res.json()).message).not.toBe('');
      }
    }
    expect(await written()).toBe(before);
  });

  it('exports the live configuration as a signed download with the names of its channels and roles', async () => {
    const browser = await as(ava.id);
    const saved = await browser.request('PUT', `${arcade}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: 'http://localhost:5173' },
      payload: { expectedVersion: 0, config: arcadeConfig() },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const { res, file } = await exported(browser, arcade);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="avas-arcade-config-v1-\d{4}-\d{2}-\d{2}\.json"$/);
    // Compact JSON: the file's size is what an import measures.
    expect(res.body).toBe(JSON.stringify(file));
    const parsed = ConfigFile.parse(file);
    expect(parsed).toMatchObject({ format: CONFIG_FILE_FORMAT, schemaVersion: 1, serverId: ARCADE, serverName: "Ava's Arcade", version: 1, keyId: 'k2025' });
    expect(parsed.config).toEqual(arcadeConfig());
    expect(parsed.signature).toBe(sign(unsigned(file)).signature);
    expect(canonicalJson(unsigned(file))).toBe(canonical(unsigned(file)));
    expect(parsed.names.channels).toEqual({
      [CHANNELS.avasArcade.archiveCategory]: 'Archive',
      [CHANNELS.avasArcade.modLog]: 'mod-log',
      [CHANNELS.avasArcade.supportCategory]: 'Support',
      [CHANNELS.avasArcade.transcripts]: 'transcripts',
      [CHANNELS.avasArcade.faq]: 'faq',
    });
    expect(parsed.names.roles).toEqual({
      [ROLES.avasArcade.moderator]: 'Moderator',
      [ROLES.avasArcade.supportTeam]: 'Support Team',
      [ROLES.avasArcade.admin]: 'Admin',
    });

    // An earlier version by number; one that does not exist is a 404.
    expect(ConfigFile.parse((await exported(browser, arcade, '?version=1')).file).version).toBe(1);
    expectError(await browser.get(`${arcade}/config/export?version=99`), 404, ERROR_CODES.NOT_FOUND.code, /no configuration version 99/);
    expectError(await browser.get(`${arcade}/config/export?version=abc`), 400, ERROR_CODES.VALIDATION_FAILED.code);
  });

  it('round-trips on the same server: the preview shows the changes, the import is a new version logged as an import', async () => {
    const browser = await as(ava.id);
    const { file } = await exported(browser, arcade);
    const changed = arcadeConfig();
    changed.panels[0]!.name = 'Renamed';
    const start = (await live(browser, arcade)).version;
    const put = await browser.request('PUT', `${arcade}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: 'http://localhost:5173' },
      payload: { expectedVersion: start, config: changed },
    });
    expect(put.statusCode, put.body).toBe(200);

    const before = await written();
    const res = await browser.post(`${arcade}/config/import/preview`, { file });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const preview = ImportPreview.parse(res.json());
    expect(preview).toMatchObject({ sameServer: true, liveVersion: start + 1, unmapped: [], from: { serverId: ARCADE, serverName: "Ava's Arcade", version: start } });
    expect(preview.config).toEqual(arcadeConfig());
    expect(preview.changes).toEqual([{ path: 'panels[support].name', before: 'Renamed', after: 'Support' }]);
    expect(await written()).toBe(before);

    const applied = await browser.post(`${arcade}/config/import`, { file, expectedVersion: preview.liveVersion });
    expect(applied.statusCode, applied.body).toBe(200);
    const answer = ServerConfigAnswer.parse(applied.json());
    expect(answer).toMatchObject({ version: start + 2, savedBy: { id: ava.id }, premium: false, panelLimit: 3 });
    expect(answer.config).toEqual(arcadeConfig());
    expect((await live(browser, arcade)).config).toEqual(arcadeConfig());
    const logs = WebLogPage.parse((await browser.get(`${arcade}/logs?action=config.import`)).json());
    expect(logs.entries).toHaveLength(1);
    expect(logs.entries[0]).toMatchObject({ action: 'config.import', version: start + 2, actor: { id: ava.id } });
    expect(logs.entries[0]!.changes).toEqual([{ path: 'panels[support].name', before: 'Renamed', after: 'Support' }]);
  });

  it('on the same server, lists and removes the channels and roles that no longer exist', async () => {
    const browser = await as(ava.id);
    const config = arcadeConfig();
    const goneChannel = '1200000000000001999';
    const goneRole = '1400000000000001999';
    config.panels[0]!.transcriptChannelId = goneChannel;
    config.panels[0]!.supportRoleIds = [goneRole, ROLES.avasArcade.admin];
    // A channel of the wrong kind is not kept either (a text channel as the ticket category).
    config.general.defaultCategoryId = CHANNELS.avasArcade.support;
    const file = sign({
      format: CONFIG_FILE_FORMAT,
      schemaVersion: 1,
      serverId: ARCADE,
      serverName: "Ava's Arcade",
      version: 1,
      exportedAt: '2025-06-01T12:00:00.000Z',
      names: { channels: { [goneChannel]: 'old-transcripts', [CHANNELS.avasArcade.support]: 'support' }, roles: { [goneRole]: 'Retired' } },
      config,
    });
    const preview = ImportPreview.parse((await browser.post(`${arcade}/config/import/preview`, { file })).json());
    expect(preview.sameServer).toBe(true);
    expect(preview.unmapped).toEqual([
      { kind: 'channel', id: CHANNELS.avasArcade.support, name: 'support', paths: ['general.defaultCategoryId'] },
      { kind: 'channel', id: goneChannel, name: 'old-transcripts', paths: ['panels.0.transcriptChannelId'] },
      { kind: 'role', id: goneRole, name: 'Retired', paths: ['panels.0.supportRoleIds.0'] },
    ]);
    const mapped = preview.config as ServerConfig;
    expect(mapped.general.defaultCategoryId).toBeNull();
    expect(mapped.panels[0]!.transcriptChannelId).toBeNull();
    expect(mapped.panels[0]!.supportRoleIds).toEqual([ROLES.avasArcade.admin]);
    expect(mapped.panels[0]!.categoryId).toBe(CHANNELS.avasArcade.supportCategory);
  });

  it('maps another server’s channels and roles by name (kind must fit) and lists what it cannot map before anything is written', async () => {
    const browser = await as(ava.id);
    const before = await written();
    const res = await browser.post(`${pals}/config/import/preview`, { file: foreignFile() });
    expect(res.statusCode, res.body).toBe(200);
    const preview = ImportPreview.parse(res.json());
    expect(preview).toMatchObject({ sameServer: false, liveVersion: 0, from: { serverId: FOREIGN, serverName: 'Elsewhere', version: 7 } });
    const mapped = preview.config as ServerConfig;
    const panel = mapped.panels[0]!;
    expect(panel.categoryId).toBe(CHANNELS.pixelPals.helpDeskCategory); // "help desk" → the category "Help Desk"
    expect(panel.transcriptChannelId).toBe(CHANNELS.pixelPals.help); // "HELP" → the text channel "help"
    expect(panel.embed.description).toBe(`Ask in <#${CHANNELS.pixelPals.help}>.`);
    expect(panel.supportRoleIds).toEqual([ROLES.pixelPals.helper]);
    expect(panel.pingRoleIds).toEqual([PALS]); // @everyone is the server's id
    // Dashboard access is never carried over by a role's name: the rule is listed, the owner grants it again.
    expect(mapped.access).toEqual([]);
    expect(mapped.general.logChannelId).toBeNull(); // "Gallery" is a category on Pixel Pals, not a channel to post in
    expect(mapped.general.defaultCategoryId).toBeNull();
    expect(preview.unmapped).toEqual([
      { kind: 'channel', id: FOREIGN_IDS.gone, name: '', paths: ['general.defaultCategoryId'] },
      { kind: 'channel', id: FOREIGN_IDS.gallery, name: 'Gallery', paths: ['general.logChannelId'] },
      { kind: 'role', id: FOREIGN_IDS.helper, name: 'helper', paths: ['access.0.roleId'] },
      { kind: 'role', id: FOREIGN_IDS.nobody, name: 'Nobody', paths: ['panels.0.supportRoleIds.1'] },
    ]);
    expect(preview.changes.map((c) => c.path)).toEqual(expect.arrayContaining(['panels[help]']));
    expect(await written()).toBe(before);

    const applied = await browser.post(`${pals}/config/import`, { file: foreignFile(), expectedVersion: 0 });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(ServerConfigAnswer.parse(applied.json())).toMatchObject({ version: 1 });
    expect((await live(browser, pals)).config).toEqual(mapped);
    const logs = WebLogPage.parse((await browser.get(`${pals}/logs`)).json());
    expect(logs.entries[0]).toMatchObject({ action: 'config.import', version: 1 });
  });

  it('imports Ava’s Arcade’s export on Pixel Pals: Admin maps to Admin, the rest is listed', async () => {
    const browser = await as(ava.id);
    const { file } = await exported(browser, arcade);
    const preview = ImportPreview.parse((await browser.post(`${pals}/config/import/preview`, { file })).json());
    expect(preview.sameServer).toBe(false);
    const mapped = preview.config as ServerConfig;
    expect(mapped.panels[0]!.supportRoleIds).toEqual([ROLES.pixelPals.admin]);
    expect(mapped.access).toEqual([]);
    expect(mapped.panels[0]!.embed.description).toBe(arcadeConfig().panels[0]!.embed.description); // unmapped mentions stay as written
    const byId = Object.fromEntries(preview.unmapped.map((u) => [u.id, u]));
    expect(Object.keys(byId).sort()).toEqual(
      [CHANNELS.avasArcade.faq, CHANNELS.avasArcade.archiveCategory, CHANNELS.avasArcade.modLog, CHANNELS.avasArcade.supportCategory, CHANNELS.avasArcade.transcripts, ROLES.avasArcade.moderator, ROLES.avasArcade.supportTeam].sort(),
    );
    expect(byId[ROLES.avasArcade.supportTeam]).toEqual({
      kind: 'role',
      id: ROLES.avasArcade.supportTeam,
      name: 'Support Team',
      paths: ['panels.0.embed.description', 'panels.0.supportRoleIds.0', 'panels.0.pingRoleIds.0'],
    });
    expect(byId[ROLES.avasArcade.moderator]!.paths).toEqual(['access.0.roleId', 'panels.0.additionalRoleIds.0']);
  });

  describe('refusals (1015 with the reason, 1001, 1016, 1013), nothing written', () => {
    async function refused(body: (file: Record<string, unknown>) => unknown, status: number, code: number, message: RegExp) {
      const browser = await as(ava.id);
      const { file } = await exported(browser, arcade);
      const version = (await live(browser, arcade)).version;
      const before = await written();
      const payload = body(structuredClone(file));
      for (const res of [
        await browser.post(`${arcade}/config/import/preview`, { file: payload }),
        await browser.post(`${arcade}/config/import`, { file: payload, expectedVersion: version }),
      ]) {
        expectError(res, status, code, message);
      }
      expect(await written()).toBe(before);
    }
    const rejected = ERROR_CODES.CONFIG_FILE_REJECTED.code;

    it('a flipped byte in the configuration', async () => {
      await refused(
        (file) => {
          const text = JSON.stringify(file).replace('"label":"Open a ticket"', '"label":"Open a tickeu"');
          expect(text).toContain('Open a tickeu');
          return JSON.parse(text);
        },
        422,
        rejected,
        /signature does not match its content: it was changed after it was exported/,
      );
    });

    it('a flipped character of the signature, and a signature of another length', async () => {
      const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
      await refused((file) => ({ ...file, signature: flip(String(file.signature)) }), 422, rejected, /signature does not match/);
      await refused((file) => ({ ...file, signature: `${String(file.signature)}A` }), 422, rejected, /signature does not match/);
      const last = (s: string) => s.slice(0, -1) + (s.at(-1) === 'A' ? 'B' : 'A');
      await refused((file) => ({ ...file, signature: last(String(file.signature)) }), 422, rejected, /signature does not match/);
    });

    it('a field added after export', async () => {
      await refused((file) => ({ ...file, note: 'hello' }), 422, rejected, /signature does not match/);
    });

    it('an unknown key id', async () => {
      await refused((file) => ({ ...file, keyId: 'someone-elses' }), 422, rejected, /signed with the key "someone-elses", which this Tickety does not know/);
    });

    it('a file signed with another key under our key id', async () => {
      await refused((file) => sign(unsigned(file), 'k2025', OTHER_SECRET), 422, rejected, /signature does not match/);
    });

    it('another schema version (validly signed), saying which one is supported', async () => {
      await refused((file) => sign({ ...unsigned(file), schemaVersion: 2 }), 422, rejected, /schema version 2, made by a newer Tickety; this one imports schema version 1 only/);
    });

    it('a file of another format, or no file at all', async () => {
      await refused(() => ({ format: 'ticket-tool.backup', panels: [] }), 422, rejected, /not a Tickety configuration file: its format is "ticket-tool.backup"/);
      await refused(() => [1, 2, 3], 422, rejected, /not a Tickety configuration file/);
      await refused(() => 'hello', 422, rejected, /not a Tickety configuration file/);
      await refused(() => ({ transcripts: true }), 422, rejected, /not a Tickety configuration file/);
      await refused((file) => ({ ...file, signature: undefined }), 422, rejected, /incomplete or damaged \(signature: /);
      await refused((file) => ({ ...file, serverId: 'abc' }), 422, rejected, /incomplete or damaged \(serverId: /);
      await refused((file) => ({ ...file, config: { ...(file.config as object), deep: JSON.parse(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`) } }), 422, rejected, /nests deeper/);
    });

    it('a file nested far deeper than any (a stack overflow for a naive walk)', async () => {
      const browser = await as(ava.id);
      const before = await written();
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      for (const [path, body] of [
        [`${arcade}/config/import/preview`, `{"file":${deep}}`],
        [`${arcade}/config/import`, `{"file":${deep},"expectedVersion":1}`],
      ] as const) {
        expectError(await browser.post(path, body), 422, rejected, /nests deeper than 32 levels/);
      }
      expect(await written()).toBe(before);
    });

    it('an invalid configuration inside a validly signed file: 1001 with the field', async () => {
      const bad = arcadeConfig();
      bad.panels[0]!.button.label = 'x'.repeat(81);
      await refused((file) => sign({ ...unsigned(file), config: bad }), 400, ERROR_CODES.VALIDATION_FAILED.code, /^panels\.0\.button\.label: /);
      const four = { ...defaultServerConfig(), panels: ['a', 'b', 'c', 'd'].map((id) => newPanel(id, { name: id, title: id, description: '', button: 'Open' })) };
      await refused((file) => sign({ ...unsigned(file), config: four }), 400, ERROR_CODES.VALIDATION_FAILED.code, /^panels: This server can have at most 3 panels/);
    });

    it('an oversized file: 1016 with the limit, whether Fastify or the route measures it', async () => {
      const limit = `${CONFIG_FILE_MAX_BYTES / 1024} KB`;
      // Far over: refused while the body is read.
      await refused((file) => ({ ...file, padding: 'x'.repeat(CONFIG_FILE_MAX_BYTES + 4096) }), 413, ERROR_CODES.PAYLOAD_TOO_LARGE.code, new RegExp(`at most ${limit}`));
      // Just over: the body fits the route's limit, the file does not.
      await refused(
        (file) => ({ ...file, padding: 'x'.repeat(CONFIG_FILE_MAX_BYTES - JSON.stringify(file).length) }),
        413,
        ERROR_CODES.PAYLOAD_TOO_LARGE.code,
        new RegExp(`too large \\(\\d+ KB\\): files of at most ${limit}`),
      );
    });

    it('a conflict: the live version is newer than the one the preview was made against (1013)', async () => {
      const browser = await as(ava.id);
      const { file } = await exported(browser, arcade);
      const version = (await live(browser, arcade)).version;
      const before = await written();
      expectError(await browser.post(`${arcade}/config/import`, { file, expectedVersion: version - 1 }), 409, ERROR_CODES.CONFIG_CONFLICT.code, /saved version \d+ while you were editing/);
      expect(await written()).toBe(before);
      expectError(await browser.post(`${arcade}/config/import`, { file }), 400, ERROR_CODES.VALIDATION_FAILED.code, /expectedVersion/);
    });
  });

  it('a role with Restore Configs and Panel Menu write may import, but not change the access rules; Restore Configs write alone is not enough (1017)', async () => {
    const browser = await as(ava.id);
    const configsOnly = arcadeConfig();
    configsOnly.access = [{ roleId: ROLES.avasArcade.member, areas: { configs: 'write', panels: 'read' } }];
    const before0 = await live(browser, arcade);
    const first = await browser.request('PUT', `${arcade}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: 'http://localhost:5173' },
      payload: { expectedVersion: before0.version, config: configsOnly },
    });
    expect(first.statusCode, first.body).toBe(200);
    const { file: own } = await exported(browser, arcade);
    const bensFirst = await as(ben.id);
    const untouched = await written();
    expectError(
      await bensFirst.post(`${arcade}/config/import/preview`, { file: own }),
      403,
      ERROR_CODES.AREA_ACCESS_REQUIRED.code,
      /needs write access to the Panel Menu as well as to Restore Configs/,
    );
    expect(await written()).toBe(untouched);

    const granted = arcadeConfig();
    granted.access = [{ roleId: ROLES.avasArcade.member, areas: { configs: 'write', panels: 'write' } }];
    const current = await live(browser, arcade);
    const put = await browser.request('PUT', `${arcade}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: 'http://localhost:5173' },
      payload: { expectedVersion: current.version, config: granted },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { file: same } = await exported(browser, arcade);
    const version = (await live(browser, arcade)).version;
    const widened = sign({ ...unsigned(same), config: { ...granted, access: [{ roleId: ROLES.avasArcade.member, areas: { configs: 'write', panels: 'write', logs: 'read' } }] } });

    const bens = await as(ben.id);
    const before = await written();
    expectError(await bens.post(`${arcade}/config/import/preview`, { file: widened }), 403, ERROR_CODES.AREA_ACCESS_REQUIRED.code, /can change who has dashboard access/);
    expectError(await bens.post(`${arcade}/config/import`, { file: widened, expectedVersion: version }), 403, ERROR_CODES.AREA_ACCESS_REQUIRED.code);
    expect(await written()).toBe(before);
    expect((await bens.get(`${arcade}/config/export`)).statusCode).toBe(200);
    const ok = await bens.post(`${arcade}/config/import`, { file: same, expectedVersion: version });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ServerConfigAnswer.parse(ok.json()).savedBy?.id).toBe(ben.id);
  });

  it('maps any body over a route’s limit to 1016 with the limit, on every route', async () => {
    const browser = await as(ava.id);
    const res = await browser.post('/api/auth/guilds/refresh', `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expectError(res, 413, ERROR_CODES.PAYLOAD_TOO_LARGE.code, /at most 64 KB/);
  });

  it('rotates keys: a file of the old key still imports, new exports use the new key, a retired key is refused', async () => {
    const browser = await as(ava.id);
    const { file: old } = await exported(browser, arcade);
    expect(old.keyId).toBe('k2025');

    const rotated = await createTestApp(t.db, { env: { CONFIG_FILE_KEYS: `k2026:${KEY_2026},k2025:${KEY_2025}` } });
    try {
      const there = new Browser(rotated.app);
      await signIn(there, ava.id);
      const version = ServerConfigAnswer.parse((await there.get(`${arcade}/config`)).json()).version;
      const preview = await there.post(`${arcade}/config/import/preview`, { file: old });
      expect(preview.statusCode, preview.body).toBe(200);
      const applied = await there.post(`${arcade}/config/import`, { file: old, expectedVersion: version });
      expect(applied.statusCode, applied.body).toBe(200);
      const fresh = (await there.get(`${arcade}/config/export`)).json() as Record<string, unknown>;
      expect(fresh.keyId).toBe('k2026');
      expect(fresh.signature).toBe(sign(unsigned(fresh), 'k2026', KEY_2026).signature);
      // The old configuration (only k2025) does not know the new key.
      expectError(await browser.post(`${arcade}/config/import/preview`, { file: fresh }), 422, ERROR_CODES.CONFIG_FILE_REJECTED.code, /"k2026"/);
    } finally {
      await rotated.close();
    }

    const retired = await createTestApp(t.db, { env: { CONFIG_FILE_KEYS: `k2026:${KEY_2026}` } });
    try {
      const there = new Browser(retired.app);
      await signIn(there, ava.id);
      expectError(await there.post(`${arcade}/config/import/preview`, { file: old }), 422, ERROR_CODES.CONFIG_FILE_REJECTED.code, /"k2025", which this Tickety does not know/);
    } finally {
      await retired.close();
    }
  });

  it('never sends or logs a key', async () => {
    for (const secret of [KEY_2025, Buffer.from(KEY_2025, 'base64').toString('base64url'), Buffer.from(KEY_2025, 'base64').toString('hex')]) {
      expect(t.logs.text()).not.toContain(secret);
    }
  });
});

describe('CONFIG_FILE_KEYS', () => {
  const load = (extra: Record<string, string>) => loadConfig(testEnv(extra), DEMO_DISCORD);
  const problem = (extra: Record<string, string>) => {
    try {
      load(extra);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('loaded');
  };

  it('reads id:secret pairs, the first signing', () => {
    const config = load({ CONFIG_FILE_KEYS: ` new:${KEY_2026} , old:${Buffer.from(KEY_2025, 'base64').toString('base64url')}` });
    expect(config.configFiles.derived).toBe(false);
    // Then the key derived from the token-encryption key: files exported before keep importing.
    expect(config.configFiles.keys.map((k) => k.id)).toEqual(['new', 'old', expect.stringMatching(/^tk-/)]);
    expect(config.configFiles.keys[1]!.secret).toEqual(Buffer.from(KEY_2025, 'base64'));
  });

  it('refuses malformed keys without showing the secret', () => {
    const short = Buffer.alloc(16, 5).toString('base64');
    expect(problem({ CONFIG_FILE_KEYS: short })).toMatch(/key 1 must be written id:secret/);
    expect(problem({ CONFIG_FILE_KEYS: `ok:${short}` })).toMatch(/key 1 \("ok"\): the secret must be at least 32 random bytes/);
    expect(problem({ CONFIG_FILE_KEYS: `bad id:${KEY_2025}` })).toMatch(/its id must be 1 to 64 letters/);
    expect(problem({ CONFIG_FILE_KEYS: `a:${KEY_2025},a:${KEY_2026}` })).toMatch(/key 2: the id "a" is used twice/);
    expect(problem({ CONFIG_FILE_KEYS: ',' })).toMatch(/name at least one key/);
    for (const value of [short, `ok:${short}`, `a:${KEY_2025},a:${KEY_2026}`]) {
      const message = problem({ CONFIG_FILE_KEYS: value });
      expect(message).not.toContain(short);
      expect(message).not.toContain(KEY_2025);
      expect(message).not.toContain(KEY_2026);
    }
  });

  it('without it, derives one key per token-encryption key, the same after a restart', () => {
    const token = Buffer.alloc(32, 1).toString('base64');
    const previous = Buffer.alloc(32, 2).toString('base64');
    const withPrevious = load({ TOKEN_ENCRYPTION_KEY: token, TOKEN_ENCRYPTION_PREVIOUS_KEYS: previous });
    const tokenOnly = load({ TOKEN_ENCRYPTION_KEY: token });
    expect(withPrevious.configFiles.derived).toBe(true);
    expect(withPrevious.configFiles.keys).toHaveLength(2);
    expect(withPrevious.configFiles.keys[0]!.id).toMatch(/^tk-[A-Za-z0-9_-]{8}$/);
    expect(tokenOnly.configFiles.keys[0]).toEqual(withPrevious.configFiles.keys[0]);
    expect(withPrevious.configFiles.keys[0]!.secret.equals(Buffer.from(token, 'base64'))).toBe(false);
    const set = load({ TOKEN_ENCRYPTION_KEY: token, CONFIG_FILE_KEYS: `new:${KEY_2026}` });
    expect(set.configFiles.derived).toBe(false);
    expect(set.configFiles.keys.map((k) => k.id)).toEqual(['new', withPrevious.configFiles.keys[0]!.id]);
  });
});

describe('mapping by name', () => {
  it('maps a name only when exactly one channel or role has it (case-insensitive): two are ambiguous, not mapped', () => {
    const roles = [
      { id: '1', name: 'Support' },
      { id: '2', name: 'Admins' },
      { id: '3', name: 'admins' },
    ];
    expect(byName(roles, 'support', () => true)?.id).toBe('1');
    expect(byName(roles, 'Admins', () => true)).toBeNull();
    expect(byName(roles, 'Nobody', () => true)).toBeNull();
    expect(byName(roles, 'Admins', (role) => role.id !== '3')?.id).toBe('2');
  });
});

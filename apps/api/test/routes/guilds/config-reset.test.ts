import { ApiError, defaultServerConfig, ERROR_CODES, newPanel, ResetConfigAnswer, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade;
const base = `/api/guilds/${ARCADE.id}`;
const DASHBOARD = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: 'http://localhost:5173' };

function expectError(res: LightMyRequestResponse, status: number, code: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = ApiError.parse(res.json());
  expect(body.code, res.body).toBe(code);
  if (message) expect(body.message).toMatch(message);
}

/** A configuration of Ava's Arcade with a Support panel (posted below) and a general setting changed. */
function arcadeConfig(access: Array<{ roleId: string; areas: Record<string, string> }> = []) {
  const panel = newPanel('support', { name: 'Support', title: 'Support', description: 'Ask us anything.', button: 'Open a ticket' });
  const defaults = defaultServerConfig();
  return { ...defaults, general: { ...defaults.general, claiming: false }, access, panels: [{ ...panel, categoryId: DEMO_CHANNELS.avasArcade.supportCategory }] };
}

describe.each(databases())('POST /config/reset on $name', (database) => {
  const t = useTestApp(database);
  let browser: Browser;

  async function as(userId: string) {
    const signedIn = new Browser(t.app);
    await signIn(signedIn, userId);
    return signedIn;
  }
  const live = async (b = browser) => ServerConfigAnswer.parse((await b.get(`${base}/config`)).json());
  async function save(config: unknown) {
    const res = await browser.request('PUT', `${base}/config`, { headers: DASHBOARD, payload: { expectedVersion: (await live()).version, config } });
    expect(res.statusCode, res.body).toBe(200);
    return ServerConfigAnswer.parse(res.json()).version;
  }
  const reset = (body: unknown, b = browser) => b.request('POST', `${base}/config/reset`, { headers: DASHBOARD, payload: body });
  async function written(): Promise<string> {
    const versions = await t.db.query('SELECT guild_id, version, config FROM server_config_versions ORDER BY guild_id, version');
    const logs = await t.db.query('SELECT guild_id, action, version FROM web_logs ORDER BY id');
    return JSON.stringify([versions.rows, logs.rows]);
  }

  beforeEach(async () => {
    browser = await as(ava.id);
    t.sandbox.advanceTime(6_000);
  });

  it('refuses a wrong name (400, nothing written) and a stale version (1013)', async () => {
    const version = await save(arcadeConfig());
    const before = await written();
    for (const confirmName of ['', "ava's arcade", 'Pixel Pals', "Ava's Arcad"]) {
      expectError(await reset({ expectedVersion: version, confirmName }), 400, ERROR_CODES.VALIDATION_FAILED.code, /Type the server's name, “Ava's Arcade”, exactly as Discord shows it, to confirm/);
    }
    // The body is strict: no other fields, both needed.
    expectError(await reset({ expectedVersion: version, confirmName: ARCADE.name, extra: 1 }), 400, ERROR_CODES.VALIDATION_FAILED.code);
    expectError(await reset({ confirmName: ARCADE.name }), 400, ERROR_CODES.VALIDATION_FAILED.code);
    expectError(await reset({ expectedVersion: version - 1, confirmName: ARCADE.name }), 409, ERROR_CODES.CONFIG_CONFLICT.code, /Ava saved version/);
    expect(await written()).toBe(before);
  });

  it('refuses a visitor (401), a member without access (403), another server’s member and a read-only role (1017)', async () => {
    // Ben is a member of Ava's Arcade without any access yet.
    expectError(await reset({ expectedVersion: 0, confirmName: ARCADE.name }, await as(ben.id)), 403, ERROR_CODES.NO_SERVER_ACCESS.code);
    const version = await save(arcadeConfig([
      { roleId: DEMO_ROLES.avasArcade.member, areas: { configs: 'read', panels: 'write' } },
    ]));
    const before = await written();
    const body = { expectedVersion: version, confirmName: ARCADE.name };
    expectError(await reset(body, new Browser(t.app)), 401, ERROR_CODES.UNAUTHENTICATED.code);
    const cleos = await reset(body, await as(cleo.id));
    expect(cleos.statusCode, cleos.body).toBe(404);
    expectError(await reset(body, await as(ben.id)), 403, ERROR_CODES.AREA_ACCESS_REQUIRED.code);
    // Restore Configs write without the Panel Menu's is not enough either.
    const next = await save(arcadeConfig([{ roleId: DEMO_ROLES.avasArcade.member, areas: { configs: 'write', panels: 'read' } }]));
    const between = await written();
    expectError(await reset({ expectedVersion: next, confirmName: ARCADE.name }, await as(ben.id)), 403, ERROR_CODES.AREA_ACCESS_REQUIRED.code, /Resetting the configuration removes/);
    expect(await written()).toBe(between);
    expect(between).not.toBe(before);
  });

  it('saves the defaults as a new version, logged config.reset, lists the posted panel, and a restore brings the old configuration back', async () => {
    const old = arcadeConfig();
    const version = await save(old);
    const sent = await browser.post(`${base}/posts`, { kind: 'panel', id: 'support', channelId: DEMO_CHANNELS.avasArcade.support });
    expect(sent.statusCode, sent.body).toBe(200);

    const res = await reset({ expectedVersion: version, confirmName: `  ${ARCADE.name} ` });
    expect(res.statusCode, res.body).toBe(200);
    const answer = ResetConfigAnswer.parse(res.json());
    expect(answer.version).toBe(version + 1);
    expect(answer.config).toEqual(defaultServerConfig());
    expect(answer.savedBy?.id).toBe(ava.id);
    expect(answer.postedPanels).toEqual([
      expect.objectContaining({ kind: 'panel', id: 'support', name: 'Support', channelId: DEMO_CHANNELS.avasArcade.support, postedVersion: version, state: 'outdated' }),
    ]);
    expect((await live()).config).toEqual(defaultServerConfig());

    const logs = WebLogPage.parse((await browser.get(`${base}/logs?action=config.reset`)).json());
    expect(logs.entries).toHaveLength(1);
    expect(logs.entries[0]).toMatchObject({ action: 'config.reset', version: version + 1, actor: { id: ava.id } });
    expect(logs.entries[0]!.changes.length).toBeGreaterThan(0);

    const restored = await browser.post(`${base}/config/versions/${version}/restore`, { expectedVersion: version + 1 });
    expect(restored.statusCode, restored.body).toBe(200);
    const back = ServerConfigAnswer.parse(restored.json());
    expect(back.version).toBe(version + 2);
    expect(back.config).toEqual((await browser.get(`${base}/config/versions/${version}`)).json().config);
    expect((back.config as { panels: Array<{ id: string }> }).panels.map((p) => p.id)).toEqual(['support']);
    // The posted message shows the restored panel again.
    const again = await reset({ expectedVersion: back.version, confirmName: ARCADE.name });
    expect(ResetConfigAnswer.parse(again.json()).postedPanels.map((p) => p.id)).toEqual(['support']);
  });
});

import { ApiError, ConfigHealth, type ConfigProblem, defaultServerConfig, newPanel, type ServerConfig, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_DELETED_ROLE, seedDemo } from '../../../demo/seed';
import { CATEGORY_CHANNELS_MAX } from '../../../src/services/config-health';
import { createTestApp, DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { insertSubscriptions } from '../../helpers/billing';
import { Browser } from '../../helpers/browser';
import { SECOND } from '../../helpers/clock';
import { databases, openSuiteDb } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const CHANNELS = DEMO_CHANNELS.avasArcade;
const ROLES = DEMO_ROLES.avasArcade;
const SEND_MESSAGES = String(1 << 11);
/** Ids Ava's Arcade has no channel or role with (deleted in Discord). */
const GONE_ROLE = '1400000000000001099';
const GONE_CHANNEL = '1200000000000001099';
const DASHBOARD = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const HOURS = {
  timeZone: 'Europe/London',
  hours: { monday: [{ from: '09:00', to: '17:00' }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] },
  outOfHoursMessage: 'We are away.',
};

const panel = (id: string, name: string) => newPanel(id, { name, title: name, description: 'Press the button to open a ticket.', button: `Open ${name}` });
/** What a test compares: the kind, where, the target and what is missing. */
const brief = (problem: ConfigProblem) => [problem.kind, `${problem.setting.scope}:${problem.setting.id ?? ''}:${problem.setting.field}`, problem.target?.id ?? null, problem.missing];

describe.each(databases())('GET /api/guilds/:server/config/health on $name', (database) => {
  const t = useTestApp(database);
  const base = `/api/guilds/${ARCADE}`;
  const url = `${base}/config/health`;
  let browser: Browser;

  async function as(userId: string) {
    const signedIn = new Browser(t.app);
    await signIn(signedIn, userId);
    return signedIn;
  }

  async function save(config: ServerConfig) {
    const live = ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json());
    const res = await browser.request('PUT', `${base}/config`, { headers: DASHBOARD, payload: { expectedVersion: live.version, config } });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function health(who = browser) {
    const res = await who.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return ConfigHealth.parse(res.json());
  }

  /** The bot's REST call to the sandbox (what a server's admin does in Discord's client). */
  async function discord(method: 'POST' | 'DELETE', path: string, payload?: unknown) {
    const res = await t.app.inject({
      method,
      url: `/sandbox/discord/api/v10${path}`,
      headers: { authorization: `Bot ${t.config.discord.botToken}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return (res.body ? res.json() : {}) as { id: string };
  }

  /** A minute on: the resources and the message checks are read from Discord again. */
  const aMinuteLater = () => t.clock.advance(60 * SECOND);

  beforeEach(async () => {
    browser = await as(ava.id);
    t.sandbox.advanceTime(6_000);
    aMinuteLater();
  });

  it('refuses a visitor (401), a member without Panel Menu access (403) and a stranger (405), asking Discord nothing', async () => {
    const before = t.discordCalls.length;
    expect((await new Browser(t.app).get(url)).statusCode).toBe(401);
    const member = await (await as(ben.id)).get(url);
    expect(member.statusCode).toBe(403);
    expect(ApiError.parse(member.json()).code).toBe(403);
    const stranger = await (await as(cleo.id)).get(url);
    expect(stranger.statusCode).toBe(404);
    expect(ApiError.parse(stranger.json()).code).toBe(405);
    const malformed = await browser.get('/api/guilds/abc/config/health');
    expect(malformed.statusCode).toBe(400);
    expect(t.discordCalls.slice(before).filter((c) => c.url.includes(`/guilds/${ARCADE}`))).toEqual([]);
  });

  it('answers a server without configuration: no problems', async () => {
    const answer = await health();
    expect(answer).toEqual({ version: 0, problems: [], checkedAt: new Date(t.clock()).toISOString() });
  });

  it('answers read-only Panel Menu access (a role with panels read) and refuses a role without it (1017)', async () => {
    await save({ ...defaultServerConfig(), access: [{ roleId: ROLES.member, areas: { panels: 'read' } }, { roleId: GONE_ROLE, areas: { logs: 'read' } }] });
    const reader = await as(ben.id);
    expect((await health(reader)).problems.map(brief)).toEqual([['role-missing', 'access::roleId', GONE_ROLE, []]]);
    await save({ ...defaultServerConfig(), access: [{ roleId: ROLES.member, areas: { statistics: 'read' } }] });
    const refused = await reader.get(url);
    expect(refused.statusCode).toBe(403);
    expect(ApiError.parse(refused.json()).code).toBe(1017);
  });

  it('finds deleted roles (panel roles, access rules, blocklist), gone and full categories, gone channels and channels the bot cannot post in, each with the link to its setting', async () => {
    await insertSubscriptions(t.db, [{ id: 'health-premium', userId: ava.id, provider: 'paddle', providerId: 'sub_health', status: 'active', premium: true, servers: [ARCADE] }]);
    const config: ServerConfig = {
      ...defaultServerConfig(),
      general: { ...defaultServerConfig().general, defaultCategoryId: CHANNELS.support, transcriptChannelId: GONE_CHANNEL, logChannelId: CHANNELS.modLog },
      panels: [
        { ...panel('support', 'Support'), supportRoleIds: [ROLES.supportTeam, GONE_ROLE], pingRoleIds: [GONE_ROLE], categoryId: GONE_CHANNEL, transcriptChannelId: CHANNELS.staffOnly },
        { ...panel('after-hours', 'After hours'), supportRoleIds: [], supportHours: HOURS, categoryId: CHANNELS.supportCategory, transcriptChannelId: CHANNELS.transcripts },
      ],
      access: [{ roleId: ROLES.supportTeam, areas: { panels: 'read' } }],
      blocklist: [
        { kind: 'role', id: GONE_ROLE, reason: 'Raiders.', addedBy: ava.id, addedAt: '2026-01-01T00:00:00Z', expiresAt: null },
        { kind: 'user', id: ben.id, reason: 'Spam.', addedBy: ava.id, addedAt: '2026-01-01T00:00:00Z', expiresAt: null },
      ],
    };
    await save(config);
    const answer = await health();
    expect(answer.problems.map(brief)).toEqual([
      ['category-missing', 'general::defaultCategoryId', CHANNELS.support, []],
      ['channel-missing', 'general::transcriptChannelId', GONE_CHANNEL, []],
      ['channel-cannot-post', 'general::logChannelId', CHANNELS.modLog, ['VIEW_CHANNEL', 'SEND_MESSAGES']],
      ['role-missing', 'panel:support:supportRoleIds', GONE_ROLE, []],
      ['role-missing', 'panel:support:pingRoleIds', GONE_ROLE, []],
      ['category-missing', 'panel:support:categoryId', GONE_CHANNEL, []],
      ['channel-cannot-post', 'panel:support:transcriptChannelId', CHANNELS.staffOnly, ['SEND_MESSAGES']],
      ['support-hours-no-team', 'panel:after-hours:supportHours', null, []],
      ['role-missing', 'blocklist::roleId', GONE_ROLE, []],
    ]);
    const byField = new Map(answer.problems.map((p) => [`${p.setting.scope}:${p.setting.field}`, p]));
    expect(byField.get('general:defaultCategoryId')).toMatchObject({ target: { id: CHANNELS.support, name: 'support' }, href: `/dashboard/${ARCADE}/configs?tab=settings` });
    expect(byField.get('panel:supportRoleIds')).toMatchObject({ setting: { name: 'Support' }, target: { id: GONE_ROLE, name: null }, href: `/dashboard/${ARCADE}/configs?edit=panel&id=support` });
    expect(byField.get('blocklist:roleId')?.href).toBe(`/dashboard/${ARCADE}/configs/automation?tab=blocklist`);
    expect(answer.version).toBe(ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json()).version);

    // A category with Discord's 50 channels: the panel's category is full.
    for (let index = 0; index < CATEGORY_CHANNELS_MAX - 3; index++) await discord('POST', `/guilds/${ARCADE}/channels`, { name: `filler-${index}`, type: 0, parent_id: CHANNELS.supportCategory });
    aMinuteLater();
    expect((await health()).problems.map(brief)).toContainEqual(['category-full', 'panel:after-hours:categoryId', CHANNELS.supportCategory, []]);
  });

  it('finds a posted panel whose message was deleted, whose channel closed to the bot or was deleted: within a minute of the change', async () => {
    await save({ ...defaultServerConfig(), panels: [panel('support', 'Support')], multiPanels: [] });
    const channel = await discord('POST', `/guilds/${ARCADE}/channels`, { name: 'help', type: 0 });
    const sent = await browser.post(`${base}/posts`, { kind: 'panel', id: 'support', channelId: channel.id });
    expect(sent.statusCode, sent.body).toBe(200);
    const messageId = (sent.json() as { messageId: string }).messageId;
    aMinuteLater();
    const first = await health();
    expect(first.problems).toEqual([]);

    // Someone deletes the message in Discord: a check within the minute still has Discord's earlier answer ...
    await discord('DELETE', `/channels/${channel.id}/messages/${messageId}`);
    t.clock.advance(30 * SECOND);
    const cached = await health();
    expect(cached.problems).toEqual([]);
    expect(Date.parse(cached.checkedAt)).toBeGreaterThanOrEqual(t.clock() - 60 * SECOND);
    // ... and one a minute after the last read of Discord sees it.
    t.clock.advance(30 * SECOND);
    const seen = await health();
    expect(seen.problems.map(brief)).toEqual([['message-deleted', 'panel:support:post', channel.id, []]]);
    expect(seen.problems[0]!.href).toBe(`/dashboard/${ARCADE}/configs`);
    expect(seen.checkedAt).toBe(new Date(t.clock()).toISOString());

    // Sent again, then the bot loses Send Messages there: the post's channel is one it cannot post in.
    t.sandbox.advanceTime(6_000);
    expect((await browser.post(`${base}/posts`, { kind: 'panel', id: 'support', channelId: channel.id })).statusCode).toBe(200);
    t.sandbox.setChannelOverwrites(channel.id, [{ id: ROLES.tickety, type: 0, allow: '0', deny: SEND_MESSAGES }]);
    aMinuteLater();
    expect((await health()).problems.map(brief)).toEqual([['channel-cannot-post', 'panel:support:post', channel.id, ['SEND_MESSAGES']]]);

    // The channel is deleted: the post's channel is gone (Discord is not asked about the message).
    await discord('DELETE', `/channels/${channel.id}`);
    aMinuteLater();
    const before = t.discordCalls.length;
    expect((await health()).problems.map(brief)).toEqual([['channel-missing', 'panel:support:post', channel.id, []]]);
    expect(t.discordCalls.slice(before).filter((c) => c.url.includes('/messages/'))).toEqual([]);
  });

  it('asks Discord once for concurrent checks, and not again within the minute', async () => {
    await save({ ...defaultServerConfig(), panels: [panel('support', 'Support')] });
    expect((await browser.post(`${base}/posts`, { kind: 'panel', id: 'support', channelId: CHANNELS.support })).statusCode).toBe(200);
    aMinuteLater();
    const before = t.discordCalls.length;
    const answers = await Promise.all([health(), health(), health()]);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    const calls = () => t.discordCalls.slice(before).map((c) => new URL(c.url).pathname.replace(/^.*\/api\/v10/, ''));
    expect(calls().filter((path) => path.includes('/messages/'))).toHaveLength(1);
    expect(calls().filter((path) => path.endsWith('/channels'))).toHaveLength(1);
    t.clock.advance(59 * SECOND);
    await health();
    expect(calls()).toHaveLength(4);
  });
});

describe.each(databases())('the demo’s configuration health (npm start) on $name', (database) => {
  it("Ava's Arcade has two problems: a deleted role in the purchases panel's support roles and a log channel the bot cannot see", async () => {
    const { db, drop } = await openSuiteDb(database);
    const demo = await createTestApp(db);
    try {
      await seedDemo(demo.app, demo.sandbox);
      const browser = new Browser(demo.app);
      await signIn(browser, ava.id);
      const answer = ConfigHealth.parse((await browser.get(`/api/guilds/${ARCADE}/config/health`)).json());
      expect(answer.problems.map(brief)).toEqual([
        ['channel-cannot-post', 'general::logChannelId', CHANNELS.modLog, ['VIEW_CHANNEL', 'SEND_MESSAGES']],
        ['role-missing', 'panel:purchases:supportRoleIds', DEMO_DELETED_ROLE, []],
      ]);
    } finally {
      await demo.close();
      await drop();
    }
  });
});

import { describe, expect, test } from 'vitest';
import {
  DEMO_APP,
  DEMO_CHANNELS,
  DEMO_GUILDS,
  DEMO_PEOPLE,
  DEMO_ROLES,
  DEMO_USERS,
  PERMISSION_BOT,
  PERMISSION_MEMBER,
} from './demo-data';
import { BOT_AUTH, get, PREFIX, signIn, useHarness } from './test-helpers';

const session = useHarness({ controlRoutes: true });
const GUILDS = DEMO_GUILDS;
const CHANNELS = DEMO_CHANNELS;
const ROLES = DEMO_ROLES;

interface Channel {
  id: string;
  type: number;
  name: string;
  parent_id: string | null;
  position: number;
  guild_id: string;
  permission_overwrites: Array<{ id: string; type: number; allow: string; deny: string }>;
}

describe('GET /guilds/{id}/channels', () => {
  test("Ava's Arcade: categories and text channels in Discord's shape", async () => {
    const res = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/channels`, BOT_AUTH);
    expect(res.statusCode).toBe(200);
    const channels = res.json<Channel[]>();
    expect(channels.map((c) => [c.type, c.name])).toEqual([
      [4, 'Support'],
      [4, 'Archive'],
      [0, 'welcome'],
      [0, 'support'],
      [0, 'staff-only'],
      [0, 'faq'],
      [0, 'transcripts'],
      [0, 'mod-log'],
    ]);
    const support = channels.find((c) => c.id === CHANNELS.avasArcade.support)!;
    expect(support).toMatchObject({ guild_id: GUILDS.avasArcade.id, parent_id: CHANNELS.avasArcade.supportCategory, type: 0, topic: 'Open a ticket with the button below', nsfw: false });
    const staff = channels.find((c) => c.id === CHANNELS.avasArcade.staffOnly)!;
    expect(staff.permission_overwrites).toContainEqual({ id: ROLES.avasArcade.tickety, type: 0, allow: String(1 << 10), deny: String(1 << 11) });
    expect(staff.permission_overwrites).toContainEqual({ id: GUILDS.avasArcade.id, type: 0, allow: '0', deny: String(1 << 10) });
    const category = channels.find((c) => c.id === CHANNELS.avasArcade.supportCategory)!;
    expect(category).toMatchObject({ parent_id: null, type: 4 });
    expect(category).not.toHaveProperty('topic');
  });

  test('last_message_id follows the messages', async () => {
    const channels = (await get(session.app, `/guilds/${GUILDS.avasArcade.id}/channels`, BOT_AUTH)).json<Array<Channel & { last_message_id: string | null }>>();
    expect(channels.find((c) => c.id === CHANNELS.avasArcade.welcome)!.last_message_id).toMatch(/^\d+$/);
    expect(channels.find((c) => c.id === CHANNELS.avasArcade.support)!.last_message_id).toBeNull();
  });
});

describe('GET /guilds/{id}/roles and /emojis', () => {
  test('roles by position with string permissions; the bot role is managed with tags.bot_id', async () => {
    const res = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/roles`, BOT_AUTH);
    expect(res.statusCode).toBe(200);
    const roles = res.json<Array<{ id: string; name: string; position: number; permissions: string; managed: boolean; color: number; tags?: object }>>();
    expect(roles.map((r) => r.name)).toEqual(['@everyone', 'Member', 'Support Team', 'Moderator', 'Tickety', 'Admin']);
    expect(roles.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(roles[0]).toMatchObject({ id: GUILDS.avasArcade.id, permissions: PERMISSION_MEMBER, managed: false });
    expect(roles.find((r) => r.name === 'Tickety')).toMatchObject({ managed: true, permissions: PERMISSION_BOT, tags: { bot_id: DEMO_APP.clientId } });
    expect(roles.find((r) => r.name === 'Admin')).toMatchObject({ permissions: '8', color: 0xe74c3c });
    for (const result of roles) expect(typeof result.permissions).toBe('string');
  });

  test('Retro Modders has Dashboard Readers', async () => {
    const roles = (await get(session.app, `/guilds/${GUILDS.modGuild.id}/roles`, BOT_AUTH)).json<Array<{ id: string; name: string }>>();
    expect(roles.find((r) => r.id === ROLES.modGuild.dashboardReaders)?.name).toBe('Dashboard Readers');
  });

  test('custom emojis', async () => {
    const res = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/emojis`, BOT_AUTH);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: '1500000000000001001', name: 'ticket', roles: [], require_colons: true, managed: false, animated: false, available: true },
      { id: '1500000000000001002', name: 'arcade_coin', roles: [], require_colons: true, managed: false, animated: true, available: true },
      { id: '1500000000000001003', name: 'gg', roles: [], require_colons: true, managed: false, animated: false, available: true },
    ]);
  });

  test('GET /guilds/{id} now carries the roles, emojis and system channel too', async () => {
    const guild = (await get(session.app, `/guilds/${GUILDS.pixelPals.id}?with_counts=true`, BOT_AUTH)).json();
    expect(guild.roles.map((r: { name: string }) => r.name)).toEqual(['@everyone', 'Pixel Pal', 'Helper', 'Tickety', 'Admin']);
    expect(guild.emojis.map((e: { name: string }) => e.name)).toEqual(['pixel_heart', 'pixel_star']);
    expect(guild.system_channel_id).toBe(CHANNELS.pixelPals.general);
    expect(guild.approximate_member_count).toBeGreaterThan(0);
  });
});

describe('GET /guilds/{id}/members/{user}', () => {
  test('a demo user, a demo person and the bot, with their roles and nick', async () => {
    const ben = await get(session.app, `/guilds/${GUILDS.modGuild.id}/members/${DEMO_USERS.ben.id}`, BOT_AUTH);
    expect(ben.statusCode).toBe(200);
    expect(ben.json()).toMatchObject({
      user: { id: DEMO_USERS.ben.id, username: 'ben', global_name: 'Ben', discriminator: '0' },
      roles: [ROLES.modGuild.dashboardReaders, ROLES.modGuild.modder],
      nick: null,
      deaf: false,
      mute: false,
      pending: false,
    });
    expect(ben.json().joined_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const jules = (await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_PEOPLE.jules.id}`, BOT_AUTH)).json();
    expect(jules).toMatchObject({ nick: 'Jules | Support', roles: [ROLES.avasArcade.supportTeam, ROLES.avasArcade.member] });
    const bot = (await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_APP.clientId}`, BOT_AUTH)).json();
    expect(bot).toMatchObject({ user: { id: DEMO_APP.clientId, bot: true }, roles: [ROLES.avasArcade.tickety] });
  });

  test('not a member: 404 Unknown Member (10007); not a snowflake: 404 Unknown User (10013)', async () => {
    const cleo = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_USERS.cleo.id}`, BOT_AUTH);
    expect(cleo.statusCode).toBe(404);
    expect(cleo.json()).toEqual({ message: 'Unknown Member', code: 10007 });
    const bad = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/nope`, BOT_AUTH);
    expect(bad.json()).toEqual({ message: 'Unknown User', code: 10013 });
  });

  test('follows setMembership: a removed member is gone, an added one has no roles', async () => {
    session.h.control.setMembership('ben', GUILDS.avasArcade.id, null).setMembership('cleo', GUILDS.avasArcade.id, { owner: false, permissions: PERMISSION_MEMBER });
    expect((await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_USERS.ben.id}`, BOT_AUTH)).statusCode).toBe(404);
    const cleo = await get(session.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_USERS.cleo.id}`, BOT_AUTH);
    expect(cleo.statusCode).toBe(200);
    expect(cleo.json().roles).toEqual([]);
  });
});

describe('the bot must be in the server, and only the bot may ask', () => {
  test.each(['/channels', '/roles', '/emojis', `/members/${DEMO_USERS.ben.id}`])('%s: 404 Unknown Guild (10004) without the bot, 401 for a user', async (path) => {
    for (const id of [GUILDS.bensWorkshop.id, '1199999999999999999', 'not-an-id']) {
      const res = await get(session.app, `/guilds/${id}${path}`, BOT_AUTH);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown Guild', code: 10004 });
    }
    const ava = await signIn(session.app, DEMO_USERS.ava.id);
    const user = await get(session.app, `/guilds/${GUILDS.avasArcade.id}${path}`, `Bearer ${ava.access_token}`);
    expect(user.statusCode).toBe(401);
    expect((await get(session.app, `/guilds/${GUILDS.avasArcade.id}${path}`)).statusCode).toBe(401);
  });

  test('once the bot joins, the server answers', async () => {
    session.h.control.setBotInGuild(GUILDS.bensWorkshop.id, true);
    const channels = await get(session.app, `/guilds/${GUILDS.bensWorkshop.id}/channels`, BOT_AUTH);
    expect(channels.json<Channel[]>().map((c) => c.name)).toEqual(['Projects', 'general', 'workbench']);
  });

  test('a synthetic server: @everyone only, no channels', async () => {
    const [id] = session.h.control.addBotGuilds(1);
    expect((await get(session.app, `/guilds/${id}/channels`, BOT_AUTH)).json()).toEqual([]);
    expect((await get(session.app, `/guilds/${id}/roles`, BOT_AUTH)).json()).toEqual([expect.objectContaining({ id, name: '@everyone' })]);
  });
});

describe('GET /channels/{id}', () => {
  test('a channel the bot sees; 50001 Missing Access when it cannot; 10003 Unknown Channel', async () => {
    const ok = await get(session.app, `/channels/${CHANNELS.avasArcade.staffOnly}`, BOT_AUTH);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: CHANNELS.avasArcade.staffOnly, name: 'staff-only', guild_id: GUILDS.avasArcade.id });
    const hidden = await get(session.app, `/channels/${CHANNELS.avasArcade.modLog}`, BOT_AUTH);
    expect([hidden.statusCode, hidden.json()]).toEqual([403, { message: 'Missing Access', code: 50001 }]);
    const elsewhere = await get(session.app, `/channels/${CHANNELS.bensWorkshop.general}`, BOT_AUTH);
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([403, { message: 'Missing Access', code: 50001 }]);
    for (const id of ['1299999999999999999', 'abc']) {
      const unknown = await get(session.app, `/channels/${id}`, BOT_AUTH);
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Unknown Channel', code: 10003 }]);
    }
  });
});

describe('SandboxControl.setChannelOverwrites', () => {
  test('changes what the channel list says and what the bot may do; null and reset() restore', async () => {
    const deny = [{ id: ROLES.avasArcade.tickety, type: 0 as const, allow: '0', deny: String(1 << 10) }];
    session.h.control.setChannelOverwrites(CHANNELS.avasArcade.support, deny);
    const channels = (await get(session.app, `/guilds/${GUILDS.avasArcade.id}/channels`, BOT_AUTH)).json<Channel[]>();
    expect(channels.find((c) => c.id === CHANNELS.avasArcade.support)!.permission_overwrites).toEqual(deny);
    expect((await get(session.app, `/channels/${CHANNELS.avasArcade.support}`, BOT_AUTH)).statusCode).toBe(403);
    session.h.control.setChannelOverwrites(CHANNELS.avasArcade.support, null);
    expect((await get(session.app, `/channels/${CHANNELS.avasArcade.support}`, BOT_AUTH)).statusCode).toBe(200);
    session.h.control.setChannelOverwrites(CHANNELS.avasArcade.support, deny);
    session.h.control.reset();
    expect((await get(session.app, `/channels/${CHANNELS.avasArcade.support}`, BOT_AUTH)).statusCode).toBe(200);
  });

  test('over HTTP, with its input checked', async () => {
    const post = (body: object) => session.app.inject({ method: 'POST', url: `${PREFIX}/_control/channel-overwrites`, payload: body });
    const ok = await post({ channelId: CHANNELS.avasArcade.faq, overwrites: [] });
    expect(ok.statusCode).toBe(200);
    const faq = (await get(session.app, `/guilds/${GUILDS.avasArcade.id}/channels`, BOT_AUTH)).json<Channel[]>().find((c) => c.id === CHANNELS.avasArcade.faq)!;
    expect(faq.permission_overwrites).toEqual([]);
    for (const bad of [
      { channelId: '1', overwrites: [] },
      { channelId: CHANNELS.avasArcade.faq, overwrites: [{ id: 'x', type: 0, allow: '0', deny: '0' }] },
      { channelId: CHANNELS.avasArcade.faq, overwrites: 'none' },
      { overwrites: [] },
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });
});

import { describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILD_DATA, DEMO_GUILDS, DEMO_PEOPLE, DEMO_USERS } from './demo-data';
import { botMember, permissionChannel, permissionGuild } from './guild-state';
import {
  ALL_PERMISSIONS,
  applyImplicitPermissions,
  computeBasePermissions,
  computeChannelPermissions,
  computeOverwrites,
  hasPermission,
  PERMISSIONS,
  type PermissionChannel,
  type PermissionGuild,
  type PermissionName,
  type PermissionOverwrite,
  permissionBits,
  permissionNames,
} from './permissions';

const GUILD = '100';
const OWNER = '900';
const ALICE = '901';
const MODS = '201';
const HELPERS = '202';
const ADMINS = '203';

const allowed = (...names: PermissionName[]) => String(permissionBits(...names));

const guild: PermissionGuild = {
  id: GUILD,
  ownerId: OWNER,
  roles: [
    { id: GUILD, permissions: allowed('VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY') },
    { id: MODS, permissions: allowed('MANAGE_MESSAGES', 'KICK_MEMBERS') },
    { id: HELPERS, permissions: allowed('EMBED_LINKS', 'ATTACH_FILES') },
    { id: ADMINS, permissions: allowed('ADMINISTRATOR') },
  ],
};

const ow = (id: string, type: 0 | 1, allow: PermissionName[], deny: PermissionName[]): PermissionOverwrite => ({ id, type, allow: allowed(...allow), deny: allowed(...deny) });
const text = (...overwrites: PermissionOverwrite[]): PermissionChannel => ({ type: 0, permission_overwrites: overwrites });
const alice = (...roles: string[]) => ({ userId: ALICE, roles });
const can = (bits: bigint, name: PermissionName) => hasPermission(bits, name);

describe('base permissions (compute_base_permissions)', () => {
  test('@everyone alone, then OR of every role of the member', () => {
    expect(permissionNames(computeBasePermissions(guild, alice()))).toEqual(['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY']);
    expect(permissionNames(computeBasePermissions(guild, alice(MODS, HELPERS)))).toEqual([
      'KICK_MEMBERS',
      'VIEW_CHANNEL',
      'SEND_MESSAGES',
      'MANAGE_MESSAGES',
      'EMBED_LINKS',
      'ATTACH_FILES',
      'READ_MESSAGE_HISTORY',
    ]);
  });

  test('the owner and ADMINISTRATOR have every permission', () => {
    expect(computeBasePermissions(guild, { userId: OWNER, roles: [] })).toBe(ALL_PERMISSIONS);
    expect(computeBasePermissions(guild, alice(ADMINS))).toBe(ALL_PERMISSIONS);
    expect(ALL_PERMISSIONS).toBe(BigInt('2251799813685247'));
  });

  test('unknown roles and malformed permission strings count as nothing', () => {
    const odd: PermissionGuild = { ...guild, roles: [...guild.roles, { id: '204', permissions: 'lots' }] };
    expect(computeBasePermissions(odd, alice('204', '999'))).toBe(computeBasePermissions(guild, alice()));
    expect(computeBasePermissions({ id: GUILD, ownerId: OWNER, roles: [] }, alice())).toBe(0n);
  });
});

describe('channel overwrites (compute_overwrites)', () => {
  test('@everyone deny, then a role allow restores it', () => {
    const channel = text(ow(GUILD, 0, [], ['VIEW_CHANNEL']), ow(HELPERS, 0, ['VIEW_CHANNEL'], []));
    expect(can(computeChannelPermissions(guild, alice(), channel), 'VIEW_CHANNEL')).toBe(false);
    expect(can(computeChannelPermissions(guild, alice(HELPERS), channel), 'VIEW_CHANNEL')).toBe(true);
  });

  test('@everyone allow grants what no role has', () => {
    const channel = text(ow(GUILD, 0, ['EMBED_LINKS'], []));
    expect(can(computeChannelPermissions(guild, alice(), channel), 'EMBED_LINKS')).toBe(true);
  });

  test("between roles, an allow beats another role's deny (all denies first, then all allows)", () => {
    const channel = text(ow(MODS, 0, [], ['SEND_MESSAGES']), ow(HELPERS, 0, ['SEND_MESSAGES'], []));
    expect(can(computeChannelPermissions(guild, alice(MODS), channel), 'SEND_MESSAGES')).toBe(false);
    expect(can(computeChannelPermissions(guild, alice(MODS, HELPERS), channel), 'SEND_MESSAGES')).toBe(true);
    expect(can(computeChannelPermissions(guild, alice(HELPERS, MODS), channel), 'SEND_MESSAGES')).toBe(true);
  });

  test("a role's overwrite beats @everyone's; the member's own beats both", () => {
    const denyRole = text(ow(GUILD, 0, ['EMBED_LINKS'], []), ow(MODS, 0, [], ['EMBED_LINKS']));
    expect(can(computeChannelPermissions(guild, alice(MODS), denyRole), 'EMBED_LINKS')).toBe(false);
    const memberDeny = text(ow(HELPERS, 0, ['SEND_MESSAGES'], []), ow(ALICE, 1, [], ['SEND_MESSAGES']));
    expect(can(computeChannelPermissions(guild, alice(HELPERS), memberDeny), 'SEND_MESSAGES')).toBe(false);
    const memberAllow = text(ow(GUILD, 0, [], ['VIEW_CHANNEL']), ow(MODS, 0, [], ['VIEW_CHANNEL']), ow(ALICE, 1, ['VIEW_CHANNEL'], []));
    expect(can(computeChannelPermissions(guild, alice(MODS), memberAllow), 'VIEW_CHANNEL')).toBe(true);
  });

  test("overwrites of roles the member lacks and of other members do not apply; a member overwrite is not a role's", () => {
    const channel = text(ow(MODS, 0, [], ['VIEW_CHANNEL']), ow('902', 1, [], ['VIEW_CHANNEL']), ow(HELPERS, 1, [], ['VIEW_CHANNEL']));
    expect(can(computeChannelPermissions(guild, alice(HELPERS), channel), 'VIEW_CHANNEL')).toBe(true);
  });

  test('ADMINISTRATOR and the owner ignore every overwrite', () => {
    const locked = text(ow(GUILD, 0, [], ['VIEW_CHANNEL', 'SEND_MESSAGES']), ow(ALICE, 1, [], ['VIEW_CHANNEL']), ow(OWNER, 1, [], ['VIEW_CHANNEL']));
    expect(computeChannelPermissions(guild, alice(ADMINS), locked)).toBe(ALL_PERMISSIONS);
    expect(computeChannelPermissions(guild, { userId: OWNER, roles: [] }, locked)).toBe(ALL_PERMISSIONS);
    expect(computeOverwrites(PERMISSIONS.ADMINISTRATOR, guild, alice(), locked)).toBe(ALL_PERMISSIONS);
  });
});

describe('implicit permissions', () => {
  test('without VIEW_CHANNEL nothing else counts', () => {
    const channel = text(ow(GUILD, 0, ['SEND_MESSAGES', 'EMBED_LINKS'], ['VIEW_CHANNEL']));
    expect(computeChannelPermissions(guild, alice(HELPERS), channel)).toBe(0n);
    // The overwrite step alone still has the bits: the implicit rule removes them.
    expect(can(computeOverwrites(computeBasePermissions(guild, alice()), guild, alice(), channel), 'SEND_MESSAGES')).toBe(true);
  });

  test('without SEND_MESSAGES in a text channel: no EMBED_LINKS, ATTACH_FILES, MENTION_EVERYONE or SEND_TTS_MESSAGES', () => {
    const channel = text(ow(GUILD, 0, ['MENTION_EVERYONE', 'SEND_TTS_MESSAGES'], ['SEND_MESSAGES']));
    const bits = computeChannelPermissions(guild, alice(HELPERS), channel);
    expect(permissionNames(bits)).toEqual(['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY']);
    // A category is not a text channel: nothing implied there.
    const category = { type: 4, permission_overwrites: channel.permission_overwrites };
    expect(can(computeChannelPermissions(guild, alice(HELPERS), category), 'EMBED_LINKS')).toBe(true);
  });

  test('administrators keep everything', () => {
    expect(applyImplicitPermissions(ALL_PERMISSIONS, 0)).toBe(ALL_PERMISSIONS);
  });
});

describe('the bot in the demo servers', () => {
  const BOT = DEMO_APP.clientId;
  const botIn = (guildId: string, channelId: string) => {
    const data = DEMO_GUILD_DATA[guildId]!;
    const channel = data.channels.find((c) => c.id === channelId)!;
    const owner = Object.values(DEMO_USERS).find((u) => u.memberships.some((m) => m.guildId === guildId && m.owner))?.id ?? DEMO_PEOPLE.orion.id;
    const bits = computeChannelPermissions(permissionGuild(guildId, owner, data), botMember(BOT, data), permissionChannel(channel, channel.overwrites));
    return { view: can(bits, 'VIEW_CHANNEL'), send: can(bits, 'SEND_MESSAGES'), embed: can(bits, 'EMBED_LINKS') };
  };
  const all = { view: true, send: true, embed: true };
  const CHANNELS = DEMO_CHANNELS;
  const GUILDS = DEMO_GUILDS;

  test.each([
    ["Ava's Arcade #welcome (read-only for members, the bot's role may post)", GUILDS.avasArcade.id, CHANNELS.avasArcade.welcome, all],
    ["Ava's Arcade #support", GUILDS.avasArcade.id, CHANNELS.avasArcade.support, all],
    ["Ava's Arcade #staff-only: no Send Messages", GUILDS.avasArcade.id, CHANNELS.avasArcade.staffOnly, { view: true, send: false, embed: false }],
    ["Ava's Arcade #faq: no Embed Links", GUILDS.avasArcade.id, CHANNELS.avasArcade.faq, { view: true, send: true, embed: false }],
    ["Ava's Arcade #transcripts (staff and the bot only)", GUILDS.avasArcade.id, CHANNELS.avasArcade.transcripts, all],
    ["Ava's Arcade #mod-log: no View Channel", GUILDS.avasArcade.id, CHANNELS.avasArcade.modLog, { view: false, send: false, embed: false }],
    ['Pixel Pals #help', GUILDS.pixelPals.id, CHANNELS.pixelPals.help, all],
    ['Pixel Pals #ticket-logs: no View Channel', GUILDS.pixelPals.id, CHANNELS.pixelPals.ticketLogs, { view: false, send: false, embed: false }],
    ['Pixel Pals #showcase: no Send Messages', GUILDS.pixelPals.id, CHANNELS.pixelPals.showcase, { view: true, send: false, embed: false }],
    ['Retro Modders #announcements: no Send Messages', GUILDS.modGuild.id, CHANNELS.modGuild.announcements, { view: true, send: false, embed: false }],
    ['Retro Modders #mod-help', GUILDS.modGuild.id, CHANNELS.modGuild.modHelp, all],
    ['Retro Modders #releases: no Embed Links', GUILDS.modGuild.id, CHANNELS.modGuild.releases, { view: true, send: true, embed: false }],
    ['Retro Modders #mod-queue: no View Channel', GUILDS.modGuild.id, CHANNELS.modGuild.modQueue, { view: false, send: false, embed: false }],
    ['Tickety HQ #transcripts', GUILDS.ticketyHq.id, CHANNELS.ticketyHq.transcripts, all],
  ])('%s', (_name, guildId, channelId, expected) => {
    expect(botIn(guildId, channelId)).toEqual(expected);
  });

  test("Mika (Moderator) is kept out of #staff-only's chat by a member overwrite, Jules (Support Team) is not", () => {
    const data = DEMO_GUILD_DATA[GUILDS.avasArcade.id]!;
    const channel = data.channels.find((c) => c.id === CHANNELS.avasArcade.staffOnly)!;
    const permissions = permissionGuild(GUILDS.avasArcade.id, DEMO_USERS.ava.id, data);
    const memberOf = (id: string) => data.members.find((m) => m.userId === id)!;
    const mika = computeChannelPermissions(permissions, memberOf(DEMO_PEOPLE.mika.id), permissionChannel(channel, channel.overwrites));
    const jules = computeChannelPermissions(permissions, memberOf(DEMO_PEOPLE.jules.id), permissionChannel(channel, channel.overwrites));
    const ben = computeChannelPermissions(permissions, memberOf(DEMO_USERS.ben.id), permissionChannel(channel, channel.overwrites));
    expect([can(mika, 'VIEW_CHANNEL'), can(mika, 'SEND_MESSAGES')]).toEqual([true, false]);
    expect([can(jules, 'VIEW_CHANNEL'), can(jules, 'SEND_MESSAGES')]).toEqual([true, true]);
    expect(ben).toBe(0n);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  basePermissions,
  channelPermissions,
  describePermissions,
  hasPermission,
  implicitPermissions,
  missingPermissions,
  overwrittenPermissions,
  PERMISSION_BITS as PERMISSION,
  PANEL_POST_PERMISSIONS,
  parsePermissions,
} from '../../src/lib/permissions';

// Discord's documented permission algorithm (topics/permissions: "Permission Hierarchy", "Permission
// Overwrites", "Implicit Permissions"), case by case.
const GUILD = '900000000000000001';
const OWNER = '900000000000000002';
const USER = '900000000000000003';
const ROLE_A = '900000000000000010';
const ROLE_B = '900000000000000011';
const ROLE_ADMIN = '900000000000000012';
const TEXT = 0;
const VOICE = 2;

const asText = (bits: bigint) => String(bits);
const guild = (everyone: bigint, roles: Array<[string, bigint]> = []) => ({
  id: GUILD,
  ownerId: OWNER,
  roles: [{ id: GUILD, permissions: asText(everyone) }, ...roles.map(([id, bits]) => ({ id, permissions: asText(bits) }))],
});
const member = (...roles: string[]) => ({ userId: USER, roles });
const role = (id: string, allow: bigint, deny: bigint) => ({ id, type: 0, allow: asText(allow), deny: asText(deny) });
const user = (id: string, allow: bigint, deny: bigint) => ({ id, type: 1, allow: asText(allow), deny: asText(deny) });
const MEMBER_BITS = PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES | PERMISSION.EMBED_LINKS | PERMISSION.READ_MESSAGE_HISTORY;

describe('base permissions', () => {
  it('are @everyone’s OR each of the member’s roles’ (unknown roles ignored)', () => {
    const server = guild(PERMISSION.VIEW_CHANNEL, [
      [ROLE_A, PERMISSION.SEND_MESSAGES],
      [ROLE_B, PERMISSION.EMBED_LINKS],
    ]);
    expect(basePermissions(server, member())).toBe(PERMISSION.VIEW_CHANNEL);
    expect(basePermissions(server, member(ROLE_A, '900000000000000099'))).toBe(PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES);
    expect(basePermissions(server, member(ROLE_A, ROLE_B))).toBe(PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES | PERMISSION.EMBED_LINKS);
  });

  it('are everything for the owner, whatever the roles and overwrites say', () => {
    const server = guild(0n);
    const owner = { userId: OWNER, roles: [] };
    expect(basePermissions(server, owner)).toBe(ALL_PERMISSIONS);
    expect(channelPermissions(server, owner, { type: TEXT, overwrites: [role(GUILD, 0n, PERMISSION.VIEW_CHANNEL), user(OWNER, 0n, PERMISSION.SEND_MESSAGES)] })).toBe(ALL_PERMISSIONS);
  });

  it('are everything with ADMINISTRATOR from any role, and overwrites cannot take anything away', () => {
    const server = guild(0n, [[ROLE_ADMIN, PERMISSION.ADMINISTRATOR]]);
    expect(basePermissions(server, member(ROLE_ADMIN))).toBe(ALL_PERMISSIONS);
    const denied = { type: TEXT, overwrites: [role(GUILD, 0n, PERMISSION.VIEW_CHANNEL), role(ROLE_ADMIN, 0n, PERMISSION.SEND_MESSAGES), user(USER, 0n, PERMISSION.EMBED_LINKS)] };
    expect(channelPermissions(server, member(ROLE_ADMIN), denied)).toBe(ALL_PERMISSIONS);
  });

  it('read a malformed permission string as no bits', () => {
    expect(parsePermissions('12x')).toBe(0n);
    expect(parsePermissions(undefined)).toBe(0n);
    expect(parsePermissions('1024')).toBe(PERMISSION.VIEW_CHANNEL);
    expect(basePermissions({ id: GUILD, ownerId: OWNER, roles: [{ id: GUILD, permissions: 'lots' }] }, member())).toBe(0n);
  });
});

describe('channel overwrites', () => {
  const server = guild(MEMBER_BITS, [
    [ROLE_A, 0n],
    [ROLE_B, 0n],
  ]);

  it('apply the @everyone overwrite first (deny, then allow)', () => {
    const perms = overwrittenPermissions(basePermissions(server, member()), GUILD, member(), [role(GUILD, PERMISSION.ATTACH_FILES, PERMISSION.SEND_MESSAGES)]);
    expect(hasPermission(perms, 'SEND_MESSAGES')).toBe(false);
    expect(hasPermission(perms, 'ATTACH_FILES')).toBe(true);
  });

  it('then the member’s roles together: one role’s allow beats another role’s deny', () => {
    const overwrites = [role(ROLE_A, 0n, PERMISSION.SEND_MESSAGES), role(ROLE_B, PERMISSION.SEND_MESSAGES, 0n)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A, ROLE_B), overwrites), 'SEND_MESSAGES')).toBe(true);
    // The role overwrites come after @everyone's: a role allow beats an @everyone deny.
    const hidden = [role(GUILD, 0n, PERMISSION.VIEW_CHANNEL), role(ROLE_A, PERMISSION.VIEW_CHANNEL, 0n)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), hidden), 'VIEW_CHANNEL')).toBe(true);
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_B), hidden), 'VIEW_CHANNEL')).toBe(false);
  });

  it('then the member’s own overwrite, which beats the roles’', () => {
    const overwrites = [role(ROLE_A, PERMISSION.SEND_MESSAGES, 0n), user(USER, 0n, PERMISSION.SEND_MESSAGES)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), overwrites), 'SEND_MESSAGES')).toBe(false);
    // Another member's overwrite does not apply.
    const other = [user('900000000000000004', 0n, PERMISSION.SEND_MESSAGES)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), other), 'SEND_MESSAGES')).toBe(true);
  });

  it('ignore a role overwrite for a role the member does not hold', () => {
    expect(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_B), [role(ROLE_A, 0n, PERMISSION.VIEW_CHANNEL)])).toBe(MEMBER_BITS);
  });
});

describe('implicit permissions', () => {
  it('take everything away without VIEW_CHANNEL', () => {
    expect(implicitPermissions(PERMISSION.SEND_MESSAGES | PERMISSION.EMBED_LINKS, TEXT)).toBe(0n);
  });

  it('take the message permissions away without SEND_MESSAGES in a text channel (not in a voice channel)', () => {
    const perms = PERMISSION.VIEW_CHANNEL | PERMISSION.EMBED_LINKS | PERMISSION.ATTACH_FILES | PERMISSION.MENTION_EVERYONE | PERMISSION.SEND_TTS_MESSAGES | PERMISSION.READ_MESSAGE_HISTORY;
    expect(implicitPermissions(perms, TEXT)).toBe(PERMISSION.VIEW_CHANNEL | PERMISSION.READ_MESSAGE_HISTORY);
    expect(implicitPermissions(perms, 5)).toBe(PERMISSION.VIEW_CHANNEL | PERMISSION.READ_MESSAGE_HISTORY);
    expect(implicitPermissions(perms, VOICE)).toBe(perms);
  });

  it('leave an administrator alone', () => {
    expect(implicitPermissions(ALL_PERMISSIONS, TEXT)).toBe(ALL_PERMISSIONS);
  });
});

describe('what the bot lacks to post a panel', () => {
  // The demo server's shapes: the bot's managed role can view, send and embed.
  const BOT = '900000000000000020';
  const server = guild(PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES, [[ROLE_A, MEMBER_BITS]]);
  const bot = { userId: BOT, roles: [ROLE_A] };
  const missing = (overwrites: ReturnType<typeof role>[]) => missingPermissions(server, bot, { type: TEXT, overwrites }, PANEL_POST_PERMISSIONS);

  it('is nothing where nothing is overwritten', () => {
    expect(missing([])).toEqual([]);
  });

  it('names Send Messages alone when it is denied (the Embed Links it implies come back with it)', () => {
    const staffOnly = [role(GUILD, 0n, PERMISSION.VIEW_CHANNEL), role(ROLE_A, PERMISSION.VIEW_CHANNEL, PERMISSION.SEND_MESSAGES)];
    expect(missing(staffOnly)).toEqual(['SEND_MESSAGES']);
    expect(hasPermission(channelPermissions(server, bot, { type: TEXT, overwrites: staffOnly }), 'EMBED_LINKS')).toBe(false);
  });

  it('names Embed Links when only that is denied, and everything an @everyone overwrite denies (roles do not lift it)', () => {
    expect(missing([role(ROLE_A, 0n, PERMISSION.EMBED_LINKS)])).toEqual(['EMBED_LINKS']);
    // #mod-log: @everyone may neither see nor send, and the bot's role has no overwrite there.
    expect(missing([role(GUILD, 0n, PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES)])).toEqual(['VIEW_CHANNEL', 'SEND_MESSAGES']);
    expect(channelPermissions(server, bot, { type: TEXT, overwrites: [role(GUILD, 0n, PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES)] })).toBe(0n);
  });

  it('is said the way Discord’s client names the permissions', () => {
    expect(describePermissions(['SEND_MESSAGES'])).toBe('Send Messages');
    expect(describePermissions(['VIEW_CHANNEL', 'SEND_MESSAGES'])).toBe('View Channel and Send Messages');
    expect(describePermissions(PANEL_POST_PERMISSIONS)).toBe('View Channel, Send Messages and Embed Links');
  });
});

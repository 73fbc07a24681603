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
  PERMISSION_BITS as P,
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

const s = (bits: bigint) => String(bits);
const guild = (everyone: bigint, roles: Array<[string, bigint]> = []) => ({
  id: GUILD,
  ownerId: OWNER,
  roles: [{ id: GUILD, permissions: s(everyone) }, ...roles.map(([id, bits]) => ({ id, permissions: s(bits) }))],
});
const member = (...roles: string[]) => ({ userId: USER, roles });
const role = (id: string, allow: bigint, deny: bigint) => ({ id, type: 0, allow: s(allow), deny: s(deny) });
const user = (id: string, allow: bigint, deny: bigint) => ({ id, type: 1, allow: s(allow), deny: s(deny) });
const MEMBER_BITS = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS | P.READ_MESSAGE_HISTORY;

describe('base permissions', () => {
  it('are @everyone’s OR each of the member’s roles’ (unknown roles ignored)', () => {
    const g = guild(P.VIEW_CHANNEL, [
      [ROLE_A, P.SEND_MESSAGES],
      [ROLE_B, P.EMBED_LINKS],
    ]);
    expect(basePermissions(g, member())).toBe(P.VIEW_CHANNEL);
    expect(basePermissions(g, member(ROLE_A, '900000000000000099'))).toBe(P.VIEW_CHANNEL | P.SEND_MESSAGES);
    expect(basePermissions(g, member(ROLE_A, ROLE_B))).toBe(P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS);
  });

  it('are everything for the owner, whatever the roles and overwrites say', () => {
    const g = guild(0n);
    const owner = { userId: OWNER, roles: [] };
    expect(basePermissions(g, owner)).toBe(ALL_PERMISSIONS);
    expect(channelPermissions(g, owner, { type: TEXT, overwrites: [role(GUILD, 0n, P.VIEW_CHANNEL), user(OWNER, 0n, P.SEND_MESSAGES)] })).toBe(ALL_PERMISSIONS);
  });

  it('are everything with ADMINISTRATOR from any role, and overwrites cannot take anything away', () => {
    const g = guild(0n, [[ROLE_ADMIN, P.ADMINISTRATOR]]);
    expect(basePermissions(g, member(ROLE_ADMIN))).toBe(ALL_PERMISSIONS);
    const denied = { type: TEXT, overwrites: [role(GUILD, 0n, P.VIEW_CHANNEL), role(ROLE_ADMIN, 0n, P.SEND_MESSAGES), user(USER, 0n, P.EMBED_LINKS)] };
    expect(channelPermissions(g, member(ROLE_ADMIN), denied)).toBe(ALL_PERMISSIONS);
  });

  it('read a malformed permission string as no bits', () => {
    expect(parsePermissions('12x')).toBe(0n);
    expect(parsePermissions(undefined)).toBe(0n);
    expect(parsePermissions('1024')).toBe(P.VIEW_CHANNEL);
    expect(basePermissions({ id: GUILD, ownerId: OWNER, roles: [{ id: GUILD, permissions: 'lots' }] }, member())).toBe(0n);
  });
});

describe('channel overwrites', () => {
  const g = guild(MEMBER_BITS, [
    [ROLE_A, 0n],
    [ROLE_B, 0n],
  ]);

  it('apply the @everyone overwrite first (deny, then allow)', () => {
    const perms = overwrittenPermissions(basePermissions(g, member()), GUILD, member(), [role(GUILD, P.ATTACH_FILES, P.SEND_MESSAGES)]);
    expect(hasPermission(perms, 'SEND_MESSAGES')).toBe(false);
    expect(hasPermission(perms, 'ATTACH_FILES')).toBe(true);
  });

  it('then the member’s roles together: one role’s allow beats another role’s deny', () => {
    const overwrites = [role(ROLE_A, 0n, P.SEND_MESSAGES), role(ROLE_B, P.SEND_MESSAGES, 0n)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A, ROLE_B), overwrites), 'SEND_MESSAGES')).toBe(true);
    // The role overwrites come after @everyone's: a role allow beats an @everyone deny.
    const hidden = [role(GUILD, 0n, P.VIEW_CHANNEL), role(ROLE_A, P.VIEW_CHANNEL, 0n)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), hidden), 'VIEW_CHANNEL')).toBe(true);
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_B), hidden), 'VIEW_CHANNEL')).toBe(false);
  });

  it('then the member’s own overwrite, which beats the roles’', () => {
    const overwrites = [role(ROLE_A, P.SEND_MESSAGES, 0n), user(USER, 0n, P.SEND_MESSAGES)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), overwrites), 'SEND_MESSAGES')).toBe(false);
    // Another member's overwrite does not apply.
    const other = [user('900000000000000004', 0n, P.SEND_MESSAGES)];
    expect(hasPermission(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_A), other), 'SEND_MESSAGES')).toBe(true);
  });

  it('ignore a role overwrite for a role the member does not hold', () => {
    expect(overwrittenPermissions(MEMBER_BITS, GUILD, member(ROLE_B), [role(ROLE_A, 0n, P.VIEW_CHANNEL)])).toBe(MEMBER_BITS);
  });
});

describe('implicit permissions', () => {
  it('take everything away without VIEW_CHANNEL', () => {
    expect(implicitPermissions(P.SEND_MESSAGES | P.EMBED_LINKS, TEXT)).toBe(0n);
  });

  it('take the message permissions away without SEND_MESSAGES in a text channel (not in a voice channel)', () => {
    const perms = P.VIEW_CHANNEL | P.EMBED_LINKS | P.ATTACH_FILES | P.MENTION_EVERYONE | P.SEND_TTS_MESSAGES | P.READ_MESSAGE_HISTORY;
    expect(implicitPermissions(perms, TEXT)).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
    expect(implicitPermissions(perms, 5)).toBe(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
    expect(implicitPermissions(perms, VOICE)).toBe(perms);
  });

  it('leave an administrator alone', () => {
    expect(implicitPermissions(ALL_PERMISSIONS, TEXT)).toBe(ALL_PERMISSIONS);
  });
});

describe('what the bot lacks to post a panel', () => {
  // The demo server's shapes: the bot's managed role can view, send and embed.
  const BOT = '900000000000000020';
  const g = guild(P.VIEW_CHANNEL | P.SEND_MESSAGES, [[ROLE_A, MEMBER_BITS]]);
  const bot = { userId: BOT, roles: [ROLE_A] };
  const missing = (overwrites: ReturnType<typeof role>[]) => missingPermissions(g, bot, { type: TEXT, overwrites }, PANEL_POST_PERMISSIONS);

  it('is nothing where nothing is overwritten', () => {
    expect(missing([])).toEqual([]);
  });

  it('names Send Messages alone when it is denied (the Embed Links it implies come back with it)', () => {
    const staffOnly = [role(GUILD, 0n, P.VIEW_CHANNEL), role(ROLE_A, P.VIEW_CHANNEL, P.SEND_MESSAGES)];
    expect(missing(staffOnly)).toEqual(['SEND_MESSAGES']);
    expect(hasPermission(channelPermissions(g, bot, { type: TEXT, overwrites: staffOnly }), 'EMBED_LINKS')).toBe(false);
  });

  it('names Embed Links when only that is denied, and everything an @everyone overwrite denies (roles do not lift it)', () => {
    expect(missing([role(ROLE_A, 0n, P.EMBED_LINKS)])).toEqual(['EMBED_LINKS']);
    // #mod-log: @everyone may neither see nor send, and the bot's role has no overwrite there.
    expect(missing([role(GUILD, 0n, P.VIEW_CHANNEL | P.SEND_MESSAGES)])).toEqual(['VIEW_CHANNEL', 'SEND_MESSAGES']);
    expect(channelPermissions(g, bot, { type: TEXT, overwrites: [role(GUILD, 0n, P.VIEW_CHANNEL | P.SEND_MESSAGES)] })).toBe(0n);
  });

  it('is said the way Discord’s client names the permissions', () => {
    expect(describePermissions(['SEND_MESSAGES'])).toBe('Send Messages');
    expect(describePermissions(['VIEW_CHANNEL', 'SEND_MESSAGES'])).toBe('View Channel and Send Messages');
    expect(describePermissions(PANEL_POST_PERMISSIONS)).toBe('View Channel, Send Messages and Embed Links');
  });
});

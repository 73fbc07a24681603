/**
 * Discord's permission bits and how a member's permissions in a channel follow from roles, overwrites
 * and implicit rules (docs/sandbox.md#permissions). Pure functions over plain data, so the sandbox's
 * routes, its pages and its tests share one implementation.
 */

/** Permission bits, as bigints (Discord sends them as decimal strings: parse with BigInt). */
export const PERMISSIONS = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

/** Every bit up to the highest Discord defines today (what an owner or an administrator holds). */
export const ALL_PERMISSIONS = (1n << 51n) - 1n;

/** OR of the named bits. */
export function permissionBits(...names: PermissionName[]): bigint {
  let bits = 0n;
  for (const name of names) bits |= PERMISSIONS[name];
  return bits;
}

/** The names of the bits set in `bits` (unknown bits are left out), in bit order. */
export function permissionNames(bits: bigint): PermissionName[] {
  return (Object.keys(PERMISSIONS) as PermissionName[]).filter((name) => (bits & PERMISSIONS[name]) !== 0n);
}

/** A decimal permission string (as Discord sends it) as a bigint; anything malformed counts as no bits. */
export function parsePermissions(value: string | bigint | null | undefined): bigint {
  if (typeof value === 'bigint') return value;
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : 0n;
}

export interface PermissionRole {
  id: string;
  /** Decimal string. */
  permissions: string;
}

export interface PermissionOverwrite {
  /** Role id (type 0) or user id (type 1). The @everyone overwrite has the guild's id. */
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface PermissionGuild {
  id: string;
  ownerId: string;
  /** Every role of the guild, @everyone (id = guild id) included. */
  roles: readonly PermissionRole[];
}

export interface PermissionMember {
  userId: string;
  /** Role ids, @everyone excluded (as Discord sends a member's roles). */
  roles: readonly string[];
}

export interface PermissionChannel {
  /** 0 text, 2 voice, 4 category, 5 announcement... (Implicit Permissions depend on it). */
  type: number;
  permission_overwrites: readonly PermissionOverwrite[];
}

/**
 * Discord's `compute_base_permissions`: the owner has everything; otherwise @everyone's permissions
 * OR every role of the member's; ADMINISTRATOR among them means everything.
 */
export function computeBasePermissions(guild: PermissionGuild, member: PermissionMember): bigint {
  if (member.userId === guild.ownerId) return ALL_PERMISSIONS;
  const everyone = guild.roles.find((r) => r.id === guild.id);
  let permissions = parsePermissions(everyone?.permissions);
  for (const roleId of member.roles) {
    const role = guild.roles.find((r) => r.id === roleId);
    if (role) permissions |= parsePermissions(role.permissions);
  }
  if ((permissions & PERMISSIONS.ADMINISTRATOR) === PERMISSIONS.ADMINISTRATOR) return ALL_PERMISSIONS;
  return permissions;
}

/**
 * Discord's `compute_overwrites`: ADMINISTRATOR (or ownership, via the base) means everything; then the
 * channel's @everyone overwrite, then the member's roles' overwrites together (all their denies, then
 * all their allows, so an allow from one role beats a deny from another), then the member's own.
 */
export function computeOverwrites(base: bigint, guild: PermissionGuild, member: PermissionMember, channel: PermissionChannel): bigint {
  if ((base & PERMISSIONS.ADMINISTRATOR) === PERMISSIONS.ADMINISTRATOR) return ALL_PERMISSIONS;
  const overwrites = channel.permission_overwrites;
  let permissions = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) {
    permissions &= ~parsePermissions(everyone.deny);
    permissions |= parsePermissions(everyone.allow);
  }
  let allow = 0n;
  let deny = 0n;
  for (const roleId of member.roles) {
    const permissionOverwrite = overwrites.find((x) => x.type === 0 && x.id === roleId);
    if (permissionOverwrite) {
      allow |= parsePermissions(permissionOverwrite.allow);
      deny |= parsePermissions(permissionOverwrite.deny);
    }
  }
  permissions &= ~deny;
  permissions |= allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
  if (own) {
    permissions &= ~parsePermissions(own.deny);
    permissions |= parsePermissions(own.allow);
  }
  return permissions;
}

/** Text-based channel types (text, announcement): where SEND_MESSAGES gates the message bits. */
const TEXT_TYPES: ReadonlySet<number> = new Set([0, 5]);

/**
 * Discord's "Implicit Permissions": without VIEW_CHANNEL a member has no permission in the channel;
 * without SEND_MESSAGES in a text channel, no MENTION_EVERYONE, SEND_TTS_MESSAGES, ATTACH_FILES or
 * EMBED_LINKS either. Administrators (all bits) are unaffected.
 */
export function applyImplicitPermissions(permissions: bigint, channelType: number): bigint {
  if ((permissions & PERMISSIONS.ADMINISTRATOR) !== 0n) return permissions;
  if ((permissions & PERMISSIONS.VIEW_CHANNEL) === 0n) return 0n;
  if (TEXT_TYPES.has(channelType) && (permissions & PERMISSIONS.SEND_MESSAGES) === 0n) {
    return permissions & ~permissionBits('MENTION_EVERYONE', 'SEND_TTS_MESSAGES', 'ATTACH_FILES', 'EMBED_LINKS');
  }
  return permissions;
}

/** What a member can do in a channel: base, overwrites, then the implicit rules. */
export function computeChannelPermissions(guild: PermissionGuild, member: PermissionMember, channel: PermissionChannel): bigint {
  const base = computeBasePermissions(guild, member);
  return applyImplicitPermissions(computeOverwrites(base, guild, member, channel), channel.type);
}

export function hasPermission(bits: bigint, name: PermissionName): boolean {
  return (bits & PERMISSIONS[name]) === PERMISSIONS[name];
}

/**
 * Discord's permission algorithm, as its documentation gives it
 * (https://discord.com/developers/docs/topics/permissions: "Permission Hierarchy", "Permission
 * Overwrites", "Implicit Permissions"), over the plain shapes Discord's REST answers carry (decimal
 * permission strings, overwrites `{ id, type, allow, deny }`). The bit values come from
 * discord-api-types; the algorithm is this file's. Used to tell where the bot can post a panel.
 */
import { ChannelType, OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';

/** The permissions this API reasons about, by Discord's names (as the contract's `botMissing` lists them). */
export const PERMISSION_BITS = {
  ADMINISTRATOR: PermissionFlagsBits.Administrator,
  VIEW_CHANNEL: PermissionFlagsBits.ViewChannel,
  SEND_MESSAGES: PermissionFlagsBits.SendMessages,
  SEND_TTS_MESSAGES: PermissionFlagsBits.SendTTSMessages,
  EMBED_LINKS: PermissionFlagsBits.EmbedLinks,
  ATTACH_FILES: PermissionFlagsBits.AttachFiles,
  READ_MESSAGE_HISTORY: PermissionFlagsBits.ReadMessageHistory,
  MENTION_EVERYONE: PermissionFlagsBits.MentionEveryone,
} as const;
export type PermissionName = keyof typeof PERMISSION_BITS;

/** How Discord's client names them (for messages a person reads). */
const PERMISSION_LABELS: Record<PermissionName, string> = {
  ADMINISTRATOR: 'Administrator',
  VIEW_CHANNEL: 'View Channel',
  SEND_MESSAGES: 'Send Messages',
  SEND_TTS_MESSAGES: 'Send Text-to-Speech Messages',
  EMBED_LINKS: 'Embed Links',
  ATTACH_FILES: 'Attach Files',
  READ_MESSAGE_HISTORY: 'Read Message History',
  MENTION_EVERYONE: 'Mention @everyone, @here and All Roles',
};

/** Every bit Discord defines (what the owner and an administrator hold). */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** What the bot needs in a channel to post a panel (an embed with components). */
export const PANEL_POST_PERMISSIONS: readonly PermissionName[] = ['VIEW_CHANNEL', 'SEND_MESSAGES', 'EMBED_LINKS'];

/** A decimal permission string as Discord sends it; anything malformed counts as no bits. */
export function parsePermissions(value: unknown): bigint {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : 0n;
}

export function hasPermission(bits: bigint, name: PermissionName): boolean {
  const bit = PERMISSION_BITS[name];
  return (bits & bit) === bit;
}

export interface GuildPermissionData {
  /** The guild's id: also the id of its @everyone role and of the @everyone overwrite. */
  id: string;
  ownerId: string;
  /** Every role of the guild, @everyone included. */
  roles: ReadonlyArray<{ id: string; permissions: string }>;
}

export interface MemberPermissionData {
  userId: string;
  /** Role ids, without @everyone (as Discord sends a member's roles). */
  roles: readonly string[];
}

interface ChannelOverwrite {
  /** A role id (type 0) or a member id (type 1); the @everyone overwrite has the guild's id. */
  id: string;
  type: number;
  allow: string;
  deny: string;
}

/**
 * `compute_base_permissions`: the owner holds everything; otherwise @everyone's permissions OR each of
 * the member's roles'; ADMINISTRATOR among them means everything.
 */
export function basePermissions(guild: GuildPermissionData, member: MemberPermissionData): bigint {
  if (member.userId === guild.ownerId) return ALL_PERMISSIONS;
  const roles = new Map(guild.roles.map((role) => [role.id, role]));
  let permissions = parsePermissions(roles.get(guild.id)?.permissions);
  for (const roleId of member.roles) permissions |= parsePermissions(roles.get(roleId)?.permissions);
  if (hasPermission(permissions, 'ADMINISTRATOR')) return ALL_PERMISSIONS;
  return permissions;
}

/**
 * `compute_overwrites`: with ADMINISTRATOR, everything; else the channel's @everyone overwrite, then
 * the member's roles' overwrites together (every deny, then every allow: one role's allow beats
 * another's deny), then the member's own overwrite.
 */
export function overwrittenPermissions(base: bigint, guildId: string, member: MemberPermissionData, overwrites: readonly ChannelOverwrite[]): bigint {
  if (hasPermission(base, 'ADMINISTRATOR')) return ALL_PERMISSIONS;
  let permissions = base;
  const everyone = overwrites.find((o) => o.type === OverwriteType.Role && o.id === guildId);
  if (everyone) {
    permissions &= ~parsePermissions(everyone.deny);
    permissions |= parsePermissions(everyone.allow);
  }
  const memberRoles = new Set(member.roles);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== OverwriteType.Role || o.id === guildId || !memberRoles.has(o.id)) continue;
    allow |= parsePermissions(o.allow);
    deny |= parsePermissions(o.deny);
  }
  permissions &= ~deny;
  permissions |= allow;
  const own = overwrites.find((o) => o.type === OverwriteType.Member && o.id === member.userId);
  if (own) {
    permissions &= ~parsePermissions(own.deny);
    permissions |= parsePermissions(own.allow);
  }
  return permissions;
}

/** Channel types with messages, where SEND_MESSAGES gates the other message permissions. */
const MESSAGE_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/**
 * "Implicit Permissions": without VIEW_CHANNEL, no permission at all in the channel; without
 * SEND_MESSAGES in a text channel, no MENTION_EVERYONE, SEND_TTS_MESSAGES, ATTACH_FILES or
 * EMBED_LINKS either. An administrator is not affected.
 */
export function implicitPermissions(permissions: bigint, channelType: number): bigint {
  if (hasPermission(permissions, 'ADMINISTRATOR')) return permissions;
  if (!hasPermission(permissions, 'VIEW_CHANNEL')) return 0n;
  if (MESSAGE_CHANNEL_TYPES.has(channelType) && !hasPermission(permissions, 'SEND_MESSAGES')) {
    const bits = PERMISSION_BITS;
    return permissions & ~(bits.MENTION_EVERYONE | bits.SEND_TTS_MESSAGES | bits.ATTACH_FILES | bits.EMBED_LINKS);
  }
  return permissions;
}

/** What a member can do in a channel: base, overwrites, then the implicit rules. */
export function channelPermissions(
  guild: GuildPermissionData,
  member: MemberPermissionData,
  channel: { type: number; overwrites: readonly ChannelOverwrite[] },
): bigint {
  return implicitPermissions(overwrittenPermissions(basePermissions(guild, member), guild.id, member, channel.overwrites), channel.type);
}

/**
 * The permissions of `needed` a member lacks in a channel, as someone would have to grant them:
 * read before the implicit rules, so a missing SEND_MESSAGES is reported alone (granting it brings
 * EMBED_LINKS back), and so is a missing VIEW_CHANNEL. Empty: the member has them all.
 */
export function missingPermissions(
  guild: GuildPermissionData,
  member: MemberPermissionData,
  channel: { type: number; overwrites: readonly ChannelOverwrite[] },
  needed: readonly PermissionName[],
): PermissionName[] {
  const explicit = overwrittenPermissions(basePermissions(guild, member), guild.id, member, channel.overwrites);
  return needed.filter((name) => !hasPermission(explicit, name));
}

/** "Send Messages", "View Channel and Send Messages", "A, B and C". */
export function describePermissions(names: readonly PermissionName[]): string {
  const labels = names.map((name) => PERMISSION_LABELS[name]);
  if (labels.length <= 1) return labels[0] ?? '';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

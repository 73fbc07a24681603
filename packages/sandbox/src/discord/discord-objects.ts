/**
 * Discord's JSON shapes (API v10) of the sandbox's data: users, roles, channels, emojis, members and
 * messages, as the REST routes answer them.
 */
import type { DemoChannel, DemoEmoji, DemoMember, DemoPerson, DemoRole } from './demo-data';
import type { ResolvedOptions } from './engine';
import type { StoredAttachment, StoredMessage } from './guild-state';
import type { PermissionOverwrite } from './permissions';
import { discordTimestamp } from './snowflake';

/** The bot's user object (GET /users/@me with the bot token, message authors). */
export function botUserObject(options: Pick<ResolvedOptions, 'clientId' | 'appName'>) {
  return {
    id: options.clientId,
    username:
      options.appName
        .toLowerCase()
        .replace(/[^a-z0-9_.]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'sandbox-bot',
    discriminator: '0',
    global_name: options.appName,
    avatar: null,
    bot: true,
    flags: 0,
    public_flags: 0,
  };
}

/** A person's public user object (as members and message authors carry it). */
export function personObject(person: DemoPerson) {
  return {
    id: person.id,
    username: person.username,
    discriminator: '0',
    global_name: person.globalName,
    avatar: person.avatar,
    avatar_decoration_data: null,
    banner: null,
    accent_color: null,
    public_flags: 0,
    flags: 0,
  };
}

export function roleObject(role: DemoRole, botId: string) {
  return {
    id: role.id,
    name: role.name,
    description: null,
    color: role.color,
    colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
    hoist: role.hoist ?? false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions,
    managed: role.bot === true,
    mentionable: role.mentionable ?? false,
    flags: 0,
    ...(role.bot ? { tags: { bot_id: botId } } : {}),
  };
}

function overwriteObject(permissionOverwrite: PermissionOverwrite) {
  return { id: permissionOverwrite.id, type: permissionOverwrite.type, allow: permissionOverwrite.allow, deny: permissionOverwrite.deny };
}

export function channelObject(channel: DemoChannel, guildId: string, overwrites: readonly PermissionOverwrite[], lastMessageId: string | null) {
  const common = {
    id: channel.id,
    type: channel.type,
    guild_id: guildId,
    name: channel.name,
    position: channel.position,
    flags: 0,
    parent_id: channel.parentId,
    permission_overwrites: overwrites.map(overwriteObject),
    nsfw: false,
  };
  if (channel.type === 4) return common;
  return {
    ...common,
    topic: channel.topic ?? null,
    last_message_id: lastMessageId,
    last_pin_timestamp: null,
    rate_limit_per_user: 0,
    default_thread_rate_limit_per_user: 0,
    icon_emoji: null,
    theme_color: null,
  };
}

export function emojiObject(emoji: DemoEmoji) {
  return { id: emoji.id, name: emoji.name, roles: [], require_colons: true, managed: false, animated: emoji.animated, available: true };
}

export function memberObject(member: DemoMember, user: object) {
  return {
    user,
    nick: member.nick ?? null,
    avatar: null,
    banner: null,
    roles: [...member.roles],
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    unusual_dm_activity_until: null,
  };
}

/** A message as Discord answers it; `fileUrl` gives an attachment's signed CDN link. */
export function messageObject(message: StoredMessage, author: object, fileUrl?: (attachment: StoredAttachment) => string) {
  return {
    type: 0,
    channel_id: message.channelId,
    content: message.content,
    attachments: (message.attachments ?? []).map((file) => ({
      id: file.id,
      filename: file.filename,
      size: file.size,
      url: fileUrl?.(file) ?? '',
      proxy_url: fileUrl?.(file) ?? '',
      content_type: file.contentType,
      ...(file.width !== null && file.height !== null ? { width: file.width, height: file.height } : {}),
    })),
    embeds: message.embeds,
    timestamp: discordTimestamp(message.createdAt),
    edited_timestamp: message.editedAt === null ? null : discordTimestamp(message.editedAt),
    flags: message.flags,
    components: message.components,
    id: message.id,
    author,
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: message.tts,
    ...(message.nonce !== null ? { nonce: message.nonce } : {}),
  };
}

/**
 * Discord's JSON shapes (API v10) of the sandbox's data: users, roles, channels, emojis, members and
 * messages, as the REST routes answer them.
 */
import type { DemoChannel, DemoEmoji, DemoMember, DemoPerson, DemoRole } from './demo-data';
import type { ResolvedOptions } from './engine';
import type { StoredMessage } from './guild-state';
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
export function personObject(p: DemoPerson) {
  return {
    id: p.id,
    username: p.username,
    discriminator: '0',
    global_name: p.globalName,
    avatar: p.avatar,
    avatar_decoration_data: null,
    banner: null,
    accent_color: null,
    public_flags: 0,
    flags: 0,
  };
}

export function roleObject(r: DemoRole, botId: string) {
  return {
    id: r.id,
    name: r.name,
    description: null,
    color: r.color,
    colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
    hoist: r.hoist ?? false,
    icon: null,
    unicode_emoji: null,
    position: r.position,
    permissions: r.permissions,
    managed: r.bot === true,
    mentionable: r.mentionable ?? false,
    flags: 0,
    ...(r.bot ? { tags: { bot_id: botId } } : {}),
  };
}

export function overwriteObject(o: PermissionOverwrite) {
  return { id: o.id, type: o.type, allow: o.allow, deny: o.deny };
}

export function channelObject(c: DemoChannel, guildId: string, overwrites: readonly PermissionOverwrite[], lastMessageId: string | null) {
  const common = {
    id: c.id,
    type: c.type,
    guild_id: guildId,
    name: c.name,
    position: c.position,
    flags: 0,
    parent_id: c.parentId,
    permission_overwrites: overwrites.map(overwriteObject),
    nsfw: false,
  };
  if (c.type === 4) return common;
  return {
    ...common,
    topic: c.topic ?? null,
    last_message_id: lastMessageId,
    last_pin_timestamp: null,
    rate_limit_per_user: 0,
    default_thread_rate_limit_per_user: 0,
    icon_emoji: null,
    theme_color: null,
  };
}

export function emojiObject(e: DemoEmoji) {
  return { id: e.id, name: e.name, roles: [], require_colons: true, managed: false, animated: e.animated, available: true };
}

export function memberObject(m: DemoMember, user: object) {
  return {
    user,
    nick: m.nick ?? null,
    avatar: null,
    banner: null,
    roles: [...m.roles],
    joined_at: m.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    unusual_dm_activity_until: null,
  };
}

export function messageObject(m: StoredMessage, author: object) {
  return {
    type: 0,
    channel_id: m.channelId,
    content: m.content,
    attachments: [],
    embeds: m.embeds,
    timestamp: discordTimestamp(m.createdAt),
    edited_timestamp: m.editedAt === null ? null : discordTimestamp(m.editedAt),
    flags: m.flags,
    components: m.components,
    id: m.id,
    author,
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: m.tts,
    ...(m.nonce !== null ? { nonce: m.nonce } : {}),
  };
}

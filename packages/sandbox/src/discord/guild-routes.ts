import type { FastifyInstance, FastifyReply } from 'fastify';
import { internalsOf } from './control';
import type { DemoChannel, DemoGuild, DemoGuildData, DemoMember } from './demo-data';
import { botUserObject, channelObject, emojiObject, memberObject, personObject, roleObject } from './discord-objects';
import type { SandboxEngine } from './engine';
import { discordError, missingAccess, unauthorized, unknownChannel, unknownGuild } from './errors';
import { botMember, permissionChannel, permissionGuild, personOf, sortedRoles } from './guild-state';
import { computeChannelPermissions, hasPermission, type PermissionGuild, type PermissionOverwrite } from './permissions';
import { callerOf, membershipsOf, ownerOf } from './rest';
import { compareIds, guildOf, SNOWFLAKE } from './util';

/** A server with its data, owner and the shape the permission functions take. */
export interface GuildContext {
  guild: DemoGuild;
  data: DemoGuildData;
  ownerId: string;
  perm: PermissionGuild;
  botIn: boolean;
}

/** Any demo or synthetic server (whether the bot is in it or not), or null. */
export function guildContext(engine: SandboxEngine, guildId: string): GuildContext | null {
  if (!SNOWFLAKE.test(guildId)) return null;
  const guild = guildOf(guildId);
  if (!guild) return null;
  const data = engine.guilds.data(guild.id, true)!;
  const ownerId = ownerOf(guild, membershipsOf(engine));
  return { guild, data, ownerId, perm: permissionGuild(guild.id, ownerId, data), botIn: engine.store.botGuilds.has(guild.id) };
}

/** A server the bot is in, or null (Discord's 10004 Unknown Guild for the bot). */
export function botGuildContext(engine: SandboxEngine, guildId: string): GuildContext | null {
  const ctx = guildContext(engine, guildId);
  return ctx?.botIn ? ctx : null;
}

const JOINED_LATER = '2026-01-01T00:00:00.000000+00:00';

/**
 * A user's member in a server, or null. The bot: its managed role, while it is in the server. A demo
 * user: the demo data's member (roles, nick), unless SandboxControl.setMembership removed them; one
 * setMembership added gets no roles. A demo person: the demo data's member.
 */
export function memberOf(engine: SandboxEngine, ctx: GuildContext, userId: string): DemoMember | null {
  if (userId === engine.options.clientId) return ctx.botIn ? botMember(userId, ctx.data) : null;
  const listed = ctx.data.members.find((m) => m.userId === userId) ?? null;
  const change = internalsOf(engine.control).membershipChanges(userId)?.get(ctx.guild.id);
  if (change === null) return null;
  if (membershipsOf(engine)(userId).some((m) => m.guildId === ctx.guild.id)) return listed ?? { userId, roles: [], joinedAt: JOINED_LATER };
  return listed;
}

/** The user object of a member or message author: the bot, a demo user or a demo person. */
export function userObjectOf(engine: SandboxEngine, userId: string): object {
  if (userId === engine.options.clientId) return botUserObject(engine.options);
  const person = personOf(userId) ?? engine.guilds.visitor(userId);
  if (person) return personObject(person);
  return { id: userId, username: 'deleted-user', discriminator: '0', global_name: 'Deleted User', avatar: null, public_flags: 0, flags: 0 };
}

/** What the bot may do in a channel now (base, overwrites, implicit rules). No member: nothing. */
export function botPermissionsIn(engine: SandboxEngine, ctx: GuildContext, channel: DemoChannel, overwrites: readonly PermissionOverwrite[]): bigint {
  const bot = memberOf(engine, ctx, engine.options.clientId);
  if (!bot) return 0n;
  return computeChannelPermissions(ctx.perm, bot, permissionChannel(channel, overwrites));
}

/** Channels in Discord's answer order (by position among their kind, categories first, then id). */
function answerOrder(channels: readonly DemoChannel[]): DemoChannel[] {
  return [...channels].sort((a, b) => (a.type === 4 ? 0 : 1) - (b.type === 4 ? 0 : 1) || a.position - b.position || compareIds(a.id, b.id));
}

/**
 * The bot's guild sub-resources: channels, roles, emojis, a member; and a channel by id. Bot token
 * only (401 otherwise); a server the bot is not in is 404 Unknown Guild (10004).
 */
export function guildRoutes(app: FastifyInstance, engine: SandboxEngine): void {
  const guildRoute = (path: string, bucket: string, handler: (ctx: GuildContext, params: Record<string, string>, reply: FastifyReply) => unknown) => {
    app.get(`/api/v10/guilds/:guildId${path}`, { config: { sandboxBucket: `GET /guilds/{guild.id}${bucket}`, sandboxMajor: 'guildId' } }, async (req, reply) => {
      if (callerOf(req, engine).kind !== 'bot') return unauthorized(reply);
      const params = req.params as Record<string, string>;
      const ctx = botGuildContext(engine, params.guildId ?? '');
      if (!ctx) return unknownGuild(reply);
      return handler(ctx, params, reply);
    });
  };

  guildRoute('/channels', '/channels', (ctx) =>
    answerOrder(ctx.data.channels).map((c) => channelObject(c, ctx.guild.id, engine.guilds.overwritesOf(c), engine.guilds.lastMessageId(c.id))),
  );

  guildRoute('/roles', '/roles', (ctx) => sortedRoles(ctx.data.roles).map((r) => roleObject(r, engine.options.clientId)));

  guildRoute('/emojis', '/emojis', (ctx) => ctx.data.emojis.map(emojiObject));

  guildRoute('/members/:userId', '/members/{user.id}', (ctx, params, reply) => {
    const userId = params.userId ?? '';
    if (!SNOWFLAKE.test(userId)) return discordError(reply, 404, 10013, 'Unknown User');
    const member = memberOf(engine, ctx, userId);
    if (!member) return discordError(reply, 404, 10007, 'Unknown Member');
    return memberObject(member, userObjectOf(engine, userId));
  });

  app.get('/api/v10/channels/:channelId', { config: { sandboxBucket: 'GET /channels/{channel.id}', sandboxMajor: 'channelId' } }, async (req, reply) => {
    if (callerOf(req, engine).kind !== 'bot') return unauthorized(reply);
    const { channelId } = req.params as { channelId: string };
    const found = SNOWFLAKE.test(channelId) ? engine.guilds.channel(channelId) : undefined;
    if (!found) return unknownChannel(reply);
    const ctx = botGuildContext(engine, found.guildId);
    if (!ctx) return missingAccess(reply);
    const perms = botPermissionsIn(engine, ctx, found.channel, found.overwrites);
    if (!hasPermission(perms, 'VIEW_CHANNEL')) return missingAccess(reply);
    return channelObject(found.channel, found.guildId, found.overwrites, engine.guilds.lastMessageId(channelId));
  });
}

import type { ServerChannel, ServerEmoji, ServerResources, ServerRole } from '@tickety/api-contract';
import { type APIGuild, type APIRole, ChannelType, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { Clock } from '../lib/clock';
import { type DiscordBot, DiscordBotError, type GuildChannel } from '../lib/discord-bot';
import { ApiHttpError } from '../lib/errors';
import { type GuildPermissionData, type MemberPermissionData, missingPermissions, PANEL_POST_PERMISSIONS } from '../lib/permissions';

/** How long a server's resources are served from memory. */
const RESOURCES_TTL_MS = 60_000;
/** Servers kept in memory at most (the least recently fetched go first). */
const RESOURCES_MAX_GUILDS = 1_000;

const BOT_NOT_IN_SERVER = 'The bot is not in this server: invite it first.';

type ChannelKind = ServerChannel['kind'];

/** The contract's kind of a Discord channel type. */
function channelKind(type: number): ChannelKind {
  switch (type) {
    case ChannelType.GuildText:
      return 'text';
    case ChannelType.GuildAnnouncement:
      return 'announcement';
    case ChannelType.GuildCategory:
      return 'category';
    case ChannelType.GuildForum:
    case ChannelType.GuildMedia:
      return 'forum';
    case ChannelType.GuildVoice:
    case ChannelType.GuildStageVoice:
      return 'voice';
    default:
      return 'other';
  }
}

/** Where a panel can be posted: text and announcement channels. */
export function canHoldPanel(kind: ChannelKind): boolean {
  return kind === 'text' || kind === 'announcement';
}

function compareIds(left: string, right: string): number {
  return left.length - right.length || (left < right ? -1 : left > right ? 1 : 0);
}

/**
 * Channels as Discord's client lists them: the channels outside any category first, then each
 * category (by position) followed by its channels; among siblings, text-like channels before voice
 * channels, then by position, then by id (Discord's tie-break). A channel whose category is gone is
 * listed with the top-level ones.
 */
export function displayOrder<T extends { id: string; kind: ChannelKind; parentId: string | null; position: number }>(channels: readonly T[]): T[] {
  const voice = (c: T) => (c.kind === 'voice' ? 1 : 0);
  const sibling = (a: T, b: T) => voice(a) - voice(b) || a.position - b.position || compareIds(a.id, b.id);
  const categories = channels.filter((c) => c.kind === 'category').sort((a, b) => a.position - b.position || compareIds(a.id, b.id));
  const categoryIds = new Set(categories.map((c) => c.id));
  const top = channels.filter((c) => c.kind !== 'category' && (c.parentId === null || !categoryIds.has(c.parentId))).sort(sibling);
  const out = [...top];
  for (const category of categories) {
    out.push(category, ...channels.filter((c) => c.kind !== 'category' && c.parentId === category.id).sort(sibling));
  }
  return out;
}

/** Roles as Discord lists them: highest first; @everyone (position 0, the guild's id) last. */
function roleOrder(left: APIRole, right: APIRole): number {
  return right.position - left.position || compareIds(left.id, right.id);
}

function roleColour(role: APIRole): number {
  const colour = (role as APIRole & { colors?: { primary_color?: number } }).colors?.primary_color ?? role.color ?? 0;
  return Number.isInteger(colour) && colour >= 0 ? colour : 0;
}

/** The server's resources from Discord's answers, with where the bot can post a panel. */
function buildResources(guild: APIGuild, channels: readonly GuildChannel[], bot: MemberPermissionData, fetchedAt: string): ServerResources {
  const permissionGuild: GuildPermissionData = { id: guild.id, ownerId: guild.owner_id, roles: guild.roles };
  const listed: ServerChannel[] = channels.map((channel) => {
    const kind = channelKind(channel.type);
    const missing = missingPermissions(permissionGuild, bot, { type: channel.type, overwrites: channel.permission_overwrites ?? [] }, PANEL_POST_PERMISSIONS);
    return {
      id: channel.id,
      name: channel.name ?? '',
      kind,
      parentId: channel.parent_id ?? null,
      position: channel.position ?? 0,
      botCanPost: canHoldPanel(kind) && missing.length === 0,
      botMissing: missing,
    };
  });
  const roles: ServerRole[] = [...guild.roles].sort(roleOrder).map((role) => ({
    id: role.id,
    name: role.name,
    color: roleColour(role),
    position: role.position,
    managed: role.managed,
  }));
  const emojis: ServerEmoji[] = (guild.emojis ?? [])
    .filter((emoji): emoji is typeof emoji & { id: string; name: string } => typeof emoji.id === 'string' && typeof emoji.name === 'string' && emoji.available !== false)
    .map((emoji) => ({ id: emoji.id, name: emoji.name, animated: emoji.animated === true }));
  return { channels: displayOrder(listed), roles, emojis, fetchedAt };
}

/** Discord's answers for a server the bot is not in (or a bot no longer a member of it). */
function botNotInServer(error: unknown): boolean {
  if (!(error instanceof DiscordBotError) || error.kind !== 'refused') return false;
  return (
    error.code === RESTJSONErrorCodes.UnknownGuild ||
    error.code === RESTJSONErrorCodes.MissingAccess ||
    error.code === RESTJSONErrorCodes.UnknownMember
  );
}

/** A DiscordBotError as the catalogue's answer (1008 with Retry-After, 1014), or itself (a bug: 1500). */
export function discordAnswer(error: unknown, refusedMessage?: string): unknown {
  if (!(error instanceof DiscordBotError)) return error;
  if (error.kind === 'unavailable') return new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: error.retryAfter ?? 5, cause: error });
  if (error.kind === 'refused' && refusedMessage) return new ApiHttpError('DISCORD_REFUSED', { message: refusedMessage, cause: error });
  return error;
}

interface Entry {
  at: number;
  value: ServerResources;
}

/**
 * A server's channels, roles and custom emojis as the bot sees them, read from Discord with the bot
 * token and kept in memory for a minute per server (`RESOURCES_TTL_MS`; at most
 * `RESOURCES_MAX_GUILDS` servers). Concurrent reads of a server share one fetch; `refresh` reads
 * Discord again (joining a fetch already under way). Failures are not cached.
 */
export class ServerResourcesCache {
  readonly #entries = new Map<string, Entry>();
  readonly #flights = new Map<string, Promise<ServerResources>>();
  /** Bumped by invalidate(): a fetch that started before does not fill the cache. */
  readonly #generations = new Map<string, number>();

  constructor(
    private readonly bot: DiscordBot,
    private readonly clock: Clock,
    private readonly ttlMs = RESOURCES_TTL_MS,
    private readonly maxGuilds = RESOURCES_MAX_GUILDS,
  ) {}

  /** The server's resources: from memory when younger than the TTL (unless `refresh`), else from Discord. */
  async get(guildId: string, options: { refresh?: boolean } = {}): Promise<ServerResources> {
    if (!options.refresh) {
      const cached = this.peek(guildId);
      if (cached) return cached;
    }
    const flying = this.#flights.get(guildId);
    if (flying) return flying;
    const generation = this.#generations.get(guildId) ?? 0;
    const flight = this.#fetch(guildId)
      .then((value) => {
        if ((this.#generations.get(guildId) ?? 0) === generation) this.#store(guildId, value);
        return value;
      })
      .finally(() => this.#flights.delete(guildId));
    this.#flights.set(guildId, flight);
    return flight;
  }

  /** The cached resources while they are fresh, without asking Discord; else null. */
  peek(guildId: string): ServerResources | null {
    const entry = this.#entries.get(guildId);
    if (!entry) return null;
    const age = this.clock() - entry.at;
    if (age >= this.ttlMs || age < 0) return null;
    return entry.value;
  }

  /** Forgets a server's resources (Discord just contradicted them). */
  invalidate(guildId: string): void {
    this.#entries.delete(guildId);
    this.#generations.set(guildId, (this.#generations.get(guildId) ?? 0) + 1);
    if (this.#generations.size > this.maxGuilds) this.#generations.delete(this.#generations.keys().next().value!);
  }

  #store(guildId: string, value: ServerResources): void {
    this.#entries.delete(guildId);
    this.#entries.set(guildId, { at: this.clock(), value });
    while (this.#entries.size > this.maxGuilds) this.#entries.delete(this.#entries.keys().next().value!);
  }

  async #fetch(guildId: string): Promise<ServerResources> {
    let me: { id: string };
    try {
      me = await this.bot.me();
    } catch (error) {
      throw discordAnswer(error);
    }
    try {
      const [guild, channels, member] = await Promise.all([this.bot.guild(guildId), this.bot.guildChannels(guildId), this.bot.guildMember(guildId, me.id)]);
      return buildResources(guild, channels, { userId: me.id, roles: member.roles }, new Date(this.clock()).toISOString());
    } catch (error) {
      if (botNotInServer(error)) throw new ApiHttpError('DISCORD_REFUSED', { message: BOT_NOT_IN_SERVER, cause: error });
      throw discordAnswer(error);
    }
  }
}

import {
  buildMultiPanelMessage,
  buildPanelMessage,
  type ConfigActor,
  type ConfigFieldChange,
  canonicalJson,
  type DiscordMessagePayload,
  type PanelPost,
  type PostKind,
  type ServerChannel,
  type ServerConfig,
  validateMessagePayload,
} from '@tickety/api-contract';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { Db, Queryable } from '../db/driver';
import type { Clock } from '../lib/clock';
import { type DiscordBot, DiscordBotError } from '../lib/discord-bot';
import { ApiHttpError } from '../lib/errors';
import { describePermissions, PANEL_POST_PERMISSIONS, type PermissionName } from '../lib/permissions';
import { insertWebLog, type ServerConfigs } from './server-config';
import { canHoldPanel, discordAnswer, type ServerResourcesCache } from './server-resources';


interface PostRow {
  kind: PostKind;
  item_id: string;
  channel_id: string;
  message_id: string;
  posted_version: number;
  posted_at: Date | string;
  deleted_at: Date | string | null;
}

const MESSAGE_DELETED = 'The message was deleted in Discord: send the panel again.';

const iso = (value: Date | string) => new Date(value).toISOString();

/** The item of a configuration a post shows, with the message it posts; null when there is no such item. */
export function itemMessage(config: ServerConfig, kind: PostKind, id: string): { name: string; payload: DiscordMessagePayload } | null {
  if (kind === 'panel') {
    const panel = config.panels.find((p) => p.id === id);
    return panel ? { name: `Panel “${panel.name}”`, payload: buildPanelMessage(panel) } : null;
  }
  const multi = config.multiPanels.find((m) => m.id === id);
  if (!multi) return null;
  try {
    return { name: `Multi-panel “${multi.name}”`, payload: buildMultiPanelMessage(multi, config.panels) };
  } catch {
    // A multi-panel offering a panel the configuration lacks (the schema refuses it on save).
    return null;
  }
}

/** The name of a configuration's panel or multi-panel (as typed in the Panel Menu), or null. */
function itemName(config: ServerConfig | undefined, kind: PostKind, id: string): string | null {
  const items: Array<{ id: string; name: string }> = kind === 'panel' ? (config?.panels ?? []) : (config?.multiPanels ?? []);
  return items.find((item) => item.id === id)?.name ?? null;
}

const KIND_WORDS: Record<ServerChannel['kind'], string> = {
  category: 'a category',
  text: 'a text channel',
  announcement: 'an announcement channel',
  forum: 'a forum channel',
  voice: 'a voice channel',
  other: 'not a text channel',
};

const itemWord = (kind: PostKind) => (kind === 'panel' ? 'panel' : 'multi-panel');

/**
 * The panels and multi-panels the bot has posted in a server: which message shows which item, from
 * which configuration version; sending one (the bot posts the message built from the live
 * configuration) and updating it in place (the bot edits the message). Each change writes its Web
 * Logs entry with the post, in one transaction, after Discord has accepted the message.
 */
export class PanelPosts {
  /** One send or update of the same item at a time, per instance. */
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bot: DiscordBot,
    private readonly configs: ServerConfigs,
    private readonly resources: ServerResourcesCache,
  ) {}

  /**
   * The server's posts with their state: 'deleted' (Discord said the message or its channel is gone),
   * 'outdated' (the live configuration builds another message than the posted version did), else
   * 'posted'. A post whose item is no longer in the live configuration is left out (its row stays:
   * a restore bringing the item back brings it back).
   */
  async list(guildId: string): Promise<PanelPost[]> {
    const { rows } = await this.db.query<PostRow>(
      'SELECT kind, item_id, channel_id, message_id, posted_version, posted_at, deleted_at FROM panel_posts WHERE guild_id = $1 ORDER BY kind, item_id',
      [guildId],
    );
    if (rows.length === 0) return [];
    const live = await this.configs.live(guildId);
    const versions = [...new Set(rows.map((r) => r.posted_version))];
    const { rows: posted } = await this.db.query<{ version: number; config: ServerConfig }>(
      'SELECT version, config FROM server_config_versions WHERE guild_id = $1 AND version = ANY($2::integer[])',
      [guildId, versions],
    );
    const configs = new Map(posted.map((r) => [r.version, r.config]));
    const out: PanelPost[] = [];
    for (const row of rows) {
      const now = itemMessage(live.config, row.kind, row.item_id);
      if (!now) continue;
      let state: PanelPost['state'] = 'posted';
      if (row.deleted_at !== null) state = 'deleted';
      else if (row.posted_version !== live.version) {
        const config = configs.get(row.posted_version);
        const then = config ? itemMessage(config, row.kind, row.item_id) : null;
        if (!then || canonicalJson(then.payload) !== canonicalJson(now.payload)) state = 'outdated';
      }
      out.push(this.#answer(row, state));
    }
    return out;
  }

  /**
   * The posted panels and multi-panels (not deleted in Discord) whose message the live configuration
   * no longer builds: changed, or gone from it (after a reset). Named (as typed) as in the version
   * they were posted from. The Panel Menu shows the ones still in the configuration as needing an update.
   */
  async notMatching(guildId: string): Promise<Array<PanelPost & { name: string }>> {
    const { rows } = await this.db.query<PostRow>(
      'SELECT kind, item_id, channel_id, message_id, posted_version, posted_at, deleted_at FROM panel_posts WHERE guild_id = $1 AND deleted_at IS NULL ORDER BY kind, item_id',
      [guildId],
    );
    if (rows.length === 0) return [];
    const live = await this.configs.live(guildId);
    const { rows: posted } = await this.db.query<{ version: number; config: ServerConfig }>(
      'SELECT version, config FROM server_config_versions WHERE guild_id = $1 AND version = ANY($2::integer[])',
      [guildId, [...new Set(rows.map((r) => r.posted_version))]],
    );
    const configs = new Map(posted.map((r) => [r.version, r.config]));
    const out: Array<PanelPost & { name: string }> = [];
    for (const row of rows) {
      const now = itemMessage(live.config, row.kind, row.item_id);
      const config = configs.get(row.posted_version);
      const then = config ? itemMessage(config, row.kind, row.item_id) : null;
      if (now && then && canonicalJson(then.payload) === canonicalJson(now.payload)) continue;
      out.push({ ...this.#answer(row, 'outdated'), name: itemName(config, row.kind, row.item_id) ?? itemName(live.config, row.kind, row.item_id) ?? row.item_id });
    }
    return out;
  }

  /**
   * The bot posts the item's message, built from the live configuration, in `channelId`: a text or
   * announcement channel of this server where it has View Channel, Send Messages and Embed Links
   * (checked before Discord is asked). The post replaces the item's earlier one (that message is
   * left in Discord).
   */
  send(options: { guildId: string; kind: PostKind; id: string; channelId: string; actor: ConfigActor }): Promise<PanelPost> {
    const { guildId, kind, id, channelId, actor } = options;
    return this.#exclusive(`${guildId}:${kind}:${id}`, async () => {
      const live = await this.configs.live(guildId);
      const item = this.#buildLive(live.config, kind, id);
      const channel = await this.#channel(guildId, channelId);
      if (!canHoldPanel(channel.kind)) {
        throw new ApiHttpError('VALIDATION_FAILED', {
          message: `channelId: #${channel.name} is ${KIND_WORDS[channel.kind]}: a panel is posted in a text or announcement channel.`,
        });
      }
      if (!channel.botCanPost) throw new ApiHttpError('DISCORD_REFUSED', { message: cannotPost(channel.name, channel.botMissing as PermissionName[]) });

      let messageId: string;
      try {
        messageId = (await this.bot.createMessage(channelId, item.payload as Record<string, unknown>)).id;
      } catch (error) {
        throw await this.#refusal(error, guildId, channelId);
      }

      const at = new Date(this.clock()).toISOString();
      return this.db.transaction(async (tx) => {
        const before = await this.#row(tx, guildId, kind, id);
        await tx.query(
          `INSERT INTO panel_posts (guild_id, kind, item_id, channel_id, message_id, posted_version, posted_at, deleted_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
           ON CONFLICT (guild_id, kind, item_id) DO UPDATE SET channel_id = EXCLUDED.channel_id, message_id = EXCLUDED.message_id,
             posted_version = EXCLUDED.posted_version, posted_at = EXCLUDED.posted_at, deleted_at = NULL`,
          [guildId, kind, id, channelId, messageId, live.version, at],
        );
        const previous = before ? this.#channelName(guildId, before.channel_id) : null;
        const changes: ConfigFieldChange[] = [{ path: 'channel', ...(previous ? { before: previous } : {}), after: `#${channel.name}` }];
        await insertWebLog(tx, { guildId, at, actor, action: 'panel.send', target: `${item.name} in #${channel.name}`, version: live.version, changes });
        return { kind, id, channelId, messageId, postedVersion: live.version, postedAt: at, state: 'posted' as const };
      });
    });
  }

  /**
   * The bot edits the item's posted message to show the live configuration. When Discord says the
   * message or its channel is gone, the post is marked deleted and the answer is 1014.
   */
  update(options: { guildId: string; kind: PostKind; id: string; actor: ConfigActor }): Promise<PanelPost> {
    const { guildId, kind, id, actor } = options;
    return this.#exclusive(`${guildId}:${kind}:${id}`, async () => {
      const row = await this.#row(this.db, guildId, kind, id);
      if (!row) throw new ApiHttpError('NOT_FOUND', { message: `This ${itemWord(kind)} has not been sent yet: send it first.` });
      if (row.deleted_at !== null) throw new ApiHttpError('DISCORD_REFUSED', { message: MESSAGE_DELETED });
      const live = await this.configs.live(guildId);
      const item = this.#buildLive(live.config, kind, id);
      try {
        await this.bot.editMessage(row.channel_id, row.message_id, item.payload as Record<string, unknown>);
      } catch (error) {
        if (error instanceof DiscordBotError && error.kind === 'refused') {
          if (error.code === RESTJSONErrorCodes.UnknownMessage) {
            await this.#markDeleted(guildId, kind, id);
            throw new ApiHttpError('DISCORD_REFUSED', { message: MESSAGE_DELETED, cause: error });
          }
          if (error.code === RESTJSONErrorCodes.UnknownChannel) {
            const name = this.#channelName(guildId, row.channel_id);
            this.resources.invalidate(guildId);
            await this.#markDeleted(guildId, kind, id);
            throw new ApiHttpError('DISCORD_REFUSED', {
              message: `The channel ${name ?? 'the panel was posted in'} was deleted in Discord: send the panel again.`,
              cause: error,
            });
          }
        }
        throw await this.#refusal(error, guildId, row.channel_id);
      }

      const at = new Date(this.clock()).toISOString();
      return this.db.transaction(async (tx) => {
        await tx.query('UPDATE panel_posts SET posted_version = $4, posted_at = $5 WHERE guild_id = $1 AND kind = $2 AND item_id = $3', [guildId, kind, id, live.version, at]);
        const where = this.#channelName(guildId, row.channel_id);
        const changes: ConfigFieldChange[] = [{ path: 'version', before: row.posted_version, after: live.version }];
        await insertWebLog(tx, { guildId, at, actor, action: 'panel.update', target: where ? `${item.name} in ${where}` : item.name, version: live.version, changes });
        return { kind, id, channelId: row.channel_id, messageId: row.message_id, postedVersion: live.version, postedAt: at, state: 'posted' as const };
      });
    });
  }

  /** The live item's message, checked against Discord's message limits: 1002 without the item, 1001 when it breaks a limit. */
  #buildLive(config: ServerConfig, kind: PostKind, id: string) {
    const item = itemMessage(config, kind, id);
    if (!item) throw new ApiHttpError('NOT_FOUND', { message: `This server's configuration has no ${itemWord(kind)} “${id}”: save it first.` });
    const issue = validateMessagePayload(item.payload)[0];
    if (issue) throw new ApiHttpError('VALIDATION_FAILED', { message: `${issue.path.join('.') || 'message'}: ${issue.message}` });
    return item;
  }

  /** The channel of this server (the cached list first, then Discord's, in case it is new); 1014 when there is none. */
  async #channel(guildId: string, channelId: string): Promise<ServerChannel> {
    const cached = (await this.resources.get(guildId)).channels.find((c) => c.id === channelId);
    if (cached) return cached;
    const fresh = (await this.resources.get(guildId, { refresh: true })).channels.find((c) => c.id === channelId);
    if (fresh) return fresh;
    throw new ApiHttpError('DISCORD_REFUSED', { message: 'That channel is not in this server (it may have been deleted): choose another channel.' });
  }

  /** `#name` of a channel from the cached resources, without asking Discord; null when unknown. */
  #channelName(guildId: string, channelId: string): string | null {
    const channel = this.resources.peek(guildId)?.channels.find((c) => c.id === channelId);
    return channel ? `#${channel.name}` : null;
  }

  /**
   * Discord refused to post or edit: the catalogue's answer. For a missing permission or access, the
   * server's resources are read again to name what the bot lacks in that channel.
   */
  async #refusal(error: unknown, guildId: string, channelId: string): Promise<unknown> {
    if (!(error instanceof DiscordBotError) || error.kind !== 'refused') return discordAnswer(error);
    const code = error.code;
    if (code === RESTJSONErrorCodes.MissingPermissions || code === RESTJSONErrorCodes.MissingAccess) {
      this.resources.invalidate(guildId);
      const channel = await this.resources
        .get(guildId, { refresh: true })
        .then((r) => r.channels.find((c) => c.id === channelId) ?? null)
        .catch(() => null);
      const missing = (channel?.botMissing ?? []) as PermissionName[];
      const message =
        channel && missing.length > 0
          ? cannotPost(channel.name, missing)
          : `Discord refused the bot in ${channel ? `#${channel.name}` : 'that channel'} (${code === RESTJSONErrorCodes.MissingAccess ? 'Missing Access' : 'Missing Permissions'}): it needs ${describePermissions(PANEL_POST_PERMISSIONS)} there.`;
      return new ApiHttpError('DISCORD_REFUSED', { message, cause: error });
    }
    if (code === RESTJSONErrorCodes.UnknownChannel) {
      this.resources.invalidate(guildId);
      return new ApiHttpError('DISCORD_REFUSED', { message: 'That channel was deleted in Discord: choose another channel.', cause: error });
    }
    // Anything else Discord refused (50035 Invalid Form Body: e.g. a custom emoji deleted from the server).
    const detail = (error.discordMessage ?? '').replace(/\s*\n\s*/g, '; ').slice(0, 300);
    return new ApiHttpError('DISCORD_REFUSED', { message: `Discord refused the message: ${detail || `HTTP ${error.status}`}${code ? ` (code ${code})` : ''}.`, cause: error });
  }

  async #row(queryable: Queryable, guildId: string, kind: PostKind, id: string): Promise<PostRow | null> {
    const { rows } = await queryable.query<PostRow>(
      'SELECT kind, item_id, channel_id, message_id, posted_version, posted_at, deleted_at FROM panel_posts WHERE guild_id = $1 AND kind = $2 AND item_id = $3',
      [guildId, kind, id],
    );
    return rows[0] ?? null;
  }

  async #markDeleted(guildId: string, kind: PostKind, id: string): Promise<void> {
    await this.db.query('UPDATE panel_posts SET deleted_at = $4 WHERE guild_id = $1 AND kind = $2 AND item_id = $3 AND deleted_at IS NULL', [
      guildId,
      kind,
      id,
      new Date(this.clock()).toISOString(),
    ]);
  }

  #answer(row: PostRow, state: PanelPost['state']): PanelPost {
    return {
      kind: row.kind,
      id: row.item_id,
      channelId: row.channel_id,
      messageId: row.message_id,
      postedVersion: row.posted_version,
      postedAt: iso(row.posted_at),
      state,
    };
  }

  async #exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#locks.get(key) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(fn);
    const tail = run.catch(() => undefined);
    this.#locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#locks.get(key) === tail) this.#locks.delete(key);
    }
  }
}

/** "The bot cannot post in #staff-only: it lacks Send Messages." */
function cannotPost(channelName: string, missing: readonly PermissionName[]): string {
  return `The bot cannot post in #${channelName}: it lacks ${describePermissions(missing)}.`;
}

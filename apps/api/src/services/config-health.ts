import type { ConfigHealth, ConfigProblem, ConfigProblemField, PostKind, ServerChannel, ServerConfig, ServerResources } from '@tickety/api-contract';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { Db } from '../db/driver';
import type { Clock } from '../lib/clock';
import { type DiscordBot, DiscordBotError } from '../lib/discord-bot';
import type { ServerConfigs } from './server-config';
import { canHoldPanel, type ServerResourcesCache } from './server-resources';

/** Discord's most channels in one category. */
export const CATEGORY_CHANNELS_MAX = 50;
/** Posted messages one check asks Discord about at most (the rest keep what is stored about them). */
export const MESSAGE_CHECKS_MAX = 50;
/** Messages asked about at once. */
const MESSAGE_CHECKS_AT_ONCE = 5;
/** How long the answer about a posted message is kept: as long as the server's resources are. */
const MESSAGE_TTL_MS = 60_000;
/** Servers whose message checks are kept at most (the least recently checked go first). */
const MESSAGE_MAX_GUILDS = 1_000;

interface PostRow {
  kind: PostKind;
  item_id: string;
  channel_id: string;
  message_id: string;
  deleted_at: Date | string | null;
}

/** Whether a posted message is still in Discord: true, false (gone) or null (Discord did not say). */
type MessageState = boolean | null;

interface MessageChecks {
  at: number;
  states: Map<string, MessageState>;
}

type Setting = ConfigProblem['setting'];

/** The Panel Menu's address of a setting (or the Automation page's, for the blocklist). */
function hrefOf(guildId: string, setting: Setting): string {
  const base = `/dashboard/${guildId}/configs`;
  if (setting.scope === 'blocklist') return `${base}/automation?tab=blocklist`;
  if (setting.scope === 'general' || setting.scope === 'access') return `${base}?tab=settings`;
  // A post is sent again from the list; anything else of an item is in its editor.
  if (setting.field === 'post') return base;
  return `${base}?edit=${setting.scope === 'panel' ? 'panel' : 'multi'}&id=${encodeURIComponent(setting.id ?? '')}`;
}

/**
 * Checks a server's live configuration against what the bot sees in Discord: the server's resources
 * (channels, roles, the bot's permissions: the resources cache, at most a minute old) and, for each
 * posted panel, whether its message is still there (asked of Discord, at most `MESSAGE_CHECKS_MAX`
 * per check, the answers kept as long as the resources). What is checked and why: docs/behaviour.md.
 */
export class ConfigHealthCheck {
  readonly #messages = new Map<string, MessageChecks>();
  readonly #flights = new Map<string, Promise<ConfigHealth>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bot: DiscordBot,
    private readonly configs: ServerConfigs,
    private readonly resources: ServerResourcesCache,
  ) {}

  /** The server's problems now (concurrent checks of a server share one). */
  check(guildId: string): Promise<ConfigHealth> {
    const flying = this.#flights.get(guildId);
    if (flying) return flying;
    const flight = this.#check(guildId).finally(() => this.#flights.delete(guildId));
    this.#flights.set(guildId, flight);
    return flight;
  }

  async #check(guildId: string): Promise<ConfigHealth> {
    const [live, resources, { rows: posts }] = await Promise.all([
      this.configs.live(guildId),
      this.resources.get(guildId),
      this.db.query<PostRow>('SELECT kind, item_id, channel_id, message_id, deleted_at FROM panel_posts WHERE guild_id = $1 ORDER BY kind, item_id', [guildId]),
    ]);
    const problems = configProblems(guildId, live.config, resources);
    const { problems: postProblems, checkedAt } = await this.#postProblems(guildId, live.config, resources, posts);
    problems.push(...postProblems);
    const oldest = Math.min(Date.parse(resources.fetchedAt), checkedAt);
    return { version: live.version, problems, checkedAt: new Date(oldest).toISOString() };
  }

  /** The posted items' problems: their message deleted, their channel gone or closed to the bot. */
  async #postProblems(guildId: string, config: ServerConfig, resources: ServerResources, rows: PostRow[]): Promise<{ problems: ConfigProblem[]; checkedAt: number }> {
    const channels = new Map(resources.channels.map((c) => [c.id, c]));
    const items = rows.flatMap((row) => {
      const item = row.kind === 'panel' ? config.panels.find((p) => p.id === row.item_id) : config.multiPanels.find((m) => m.id === row.item_id);
      // A post of an item no longer in the configuration is not shown anywhere: nothing to fix.
      return item ? [{ row, setting: { scope: row.kind, id: item.id, name: item.name, field: 'post' } satisfies Setting }] : [];
    });
    const toAsk = items.filter(({ row }) => row.deleted_at === null && channels.get(row.channel_id)?.botMissing.includes('VIEW_CHANNEL') === false);
    const { states, at } = await this.#messageStates(guildId, toAsk.map(({ row }) => row).slice(0, MESSAGE_CHECKS_MAX));
    const problems: ConfigProblem[] = [];
    for (const { row, setting } of items) {
      const channel = channels.get(row.channel_id);
      const add = (kind: ConfigProblem['kind'], target: ServerChannel | null, missing: string[] = []) =>
        problems.push({ kind, setting, target: { id: target?.id ?? row.channel_id, name: target?.name ?? null }, missing, href: hrefOf(guildId, setting) });
      if (!channel || !canHoldPanel(channel.kind)) add('channel-missing', channel ?? null);
      else if (row.deleted_at !== null || states.get(row.message_id) === false) add('message-deleted', channel);
      else if (!channel.botCanPost) add('channel-cannot-post', channel, channel.botMissing);
    }
    return { problems, checkedAt: at };
  }

  /**
   * Whether each posted message is still there, from the answers of the last minute or from Discord
   * (a few at a time). Discord's other answers (no access, unavailable) say nothing and are not kept.
   */
  async #messageStates(guildId: string, rows: PostRow[]): Promise<MessageChecks> {
    const now = this.clock();
    let checks = this.#messages.get(guildId);
    if (!checks || now - checks.at >= MESSAGE_TTL_MS || now < checks.at) checks = { at: now, states: new Map() };
    const known = checks.states;
    const unknown = rows.filter((row) => !known.has(row.message_id));
    for (let start = 0; start < unknown.length; start += MESSAGE_CHECKS_AT_ONCE) {
      const batch = unknown.slice(start, start + MESSAGE_CHECKS_AT_ONCE);
      const answers = await Promise.all(batch.map((row) => this.#messageState(row)));
      batch.forEach((row, index) => {
        const state = answers[index] ?? null;
        if (state !== null) known.set(row.message_id, state);
      });
    }
    this.#messages.delete(guildId);
    this.#messages.set(guildId, checks);
    while (this.#messages.size > MESSAGE_MAX_GUILDS) this.#messages.delete(this.#messages.keys().next().value!);
    return checks;
  }

  async #messageState(row: PostRow): Promise<MessageState> {
    try {
      await this.bot.message(row.channel_id, row.message_id);
      return true;
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'refused') {
        if (error.code === RESTJSONErrorCodes.UnknownMessage || error.code === RESTJSONErrorCodes.UnknownChannel) return false;
      }
      return null;
    }
  }
}

/** The configuration's own problems against the server's channels and roles. */
export function configProblems(guildId: string, config: ServerConfig, resources: ServerResources): ConfigProblem[] {
  const channels = new Map(resources.channels.map((c) => [c.id, c]));
  const roles = new Set(resources.roles.map((r) => r.id));
  const inCategory = new Map<string, number>();
  for (const channel of resources.channels) if (channel.parentId) inCategory.set(channel.parentId, (inCategory.get(channel.parentId) ?? 0) + 1);
  const problems: ConfigProblem[] = [];
  const add = (kind: ConfigProblem['kind'], setting: Setting, target: { id: string; name: string | null } | null, missing: string[] = []) =>
    problems.push({ kind, setting, target, missing, href: hrefOf(guildId, setting) });

  const category = (setting: Setting, id: string | null) => {
    if (id === null) return;
    const found = channels.get(id);
    if (found?.kind !== 'category') add('category-missing', setting, { id, name: found?.name ?? null });
    else if ((inCategory.get(id) ?? 0) >= CATEGORY_CHANNELS_MAX) add('category-full', setting, { id, name: found.name });
  };
  const postsIn = (setting: Setting, id: string | null) => {
    if (id === null) return;
    const found = channels.get(id);
    if (!found || !canHoldPanel(found.kind)) add('channel-missing', setting, { id, name: found?.name ?? null });
    else if (!found.botCanPost) add('channel-cannot-post', setting, { id, name: found.name }, found.botMissing);
  };
  const rolesIn = (setting: Setting, ids: readonly string[]) => {
    for (const id of ids) if (!roles.has(id)) add('role-missing', setting, { id, name: null });
  };

  const general = (field: ConfigProblemField): Setting => ({ scope: 'general', id: null, name: null, field });
  category(general('defaultCategoryId'), config.general.defaultCategoryId);
  postsIn(general('transcriptChannelId'), config.general.transcriptChannelId);
  postsIn(general('logChannelId'), config.general.logChannelId);

  for (const panel of config.panels) {
    const setting = (field: ConfigProblemField): Setting => ({ scope: 'panel', id: panel.id, name: panel.name, field });
    rolesIn(setting('supportRoleIds'), panel.supportRoleIds);
    rolesIn(setting('additionalRoleIds'), panel.additionalRoleIds);
    rolesIn(setting('pingRoleIds'), panel.pingRoleIds);
    category(setting('categoryId'), panel.categoryId);
    postsIn(setting('transcriptChannelId'), panel.transcriptChannelId);
    if (panel.supportHours !== null && !panel.supportRoleIds.some((id) => roles.has(id))) add('support-hours-no-team', setting('supportHours'), null);
  }

  for (const rule of config.access) rolesIn({ scope: 'access', id: null, name: null, field: 'roleId' }, [rule.roleId]);
  const blockedRoles = config.blocklist.filter((entry) => entry.kind === 'role').map((entry) => entry.id);
  rolesIn({ scope: 'blocklist', id: null, name: null, field: 'roleId' }, blockedRoles);
  return problems;
}

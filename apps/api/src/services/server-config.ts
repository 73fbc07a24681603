import {
  type BlockEntry,
  type ConfigActor,
  type ConfigFieldChange,
  FREE_BLOCKLIST_LIMIT,
  FREE_PANEL_LIMIT,
  FREE_TAG_LIMIT,
  defaultAutoCloseRules,
  defaultFeedbackSettings,
  defaultServerConfig,
  diffConfig,
  type Plan,
  type ServerConfig,
  serverConfigSchema,
  type WebLogEntry,
} from '@tickety/api-contract';
import { announce, type Db, type Queryable } from '../db/driver';
import type { Clock } from '../lib/clock';
import type { SessionCache } from '../lib/session-cache';
import { ApiHttpError } from '../lib/errors';
import { serverHasPremium } from './premium';

/** What a server may have: whether it has premium and how many panels, tags and blocklist entries that allows. */
export interface ServerLimits {
  premium: boolean;
  panelLimit: number;
  tagLimit: number;
  blocklistLimit: number;
}

export interface LiveConfig {
  version: number;
  config: ServerConfig;
  savedAt: string | null;
  savedBy: ConfigActor | null;
}

interface VersionRow {
  version: number;
  config: ServerConfig;
  summary: string;
  actor_id: string;
  actor_name: string;
  actor_avatar_url: string | null;
  restored_from: number | null;
  created_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const actorOf = (row: { actor_id: string; actor_name: string; actor_avatar_url: string | null }): ConfigActor => ({
  id: row.actor_id,
  name: row.actor_name,
  avatarUrl: row.actor_avatar_url,
});

/** The unique-key violation a second save of the same version meets (PostgreSQL and PGlite). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Writes one Web Logs entry (inside the transaction of the change it describes). */
export async function insertWebLog(
  queryable: Queryable,
  entry: { guildId: string; at: string; actor: ConfigActor; action: WebLogEntry['action']; target: string; version: number | null; changes: ConfigFieldChange[] },
): Promise<void> {
  await queryable.query(
    `INSERT INTO web_logs (guild_id, at, actor_id, actor_name, actor_avatar_url, action, target, version, changes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [entry.guildId, entry.at, entry.actor.id, entry.actor.name, entry.actor.avatarUrl, entry.action, entry.target, entry.version, JSON.stringify(entry.changes)],
  );
}

/** "Panel “Support” and 2 more", from the changes' paths: what the save was about, for lists. */
export function describeChanges(before: ServerConfig, after: ServerConfig, changes: ConfigFieldChange[]): string {
  const names = new Map<string, string>();
  for (const panel of [...before.panels, ...after.panels]) names.set(`panels[${panel.id}]`, `Panel “${panel.name}”`);
  for (const multi of [...before.multiPanels, ...after.multiPanels]) names.set(`multiPanels[${multi.id}]`, `Multi-panel “${multi.name}”`);
  const targets = [
    ...new Set(
      changes.map((change) => {
        const head = /^(panels|multiPanels)\[[^\]]+\]/.exec(change.path)?.[0];
        if (head) return names.get(head) ?? head;
        if (change.path.startsWith('panels.order') || change.path.startsWith('multiPanels.order')) return 'Panel order';
        if (change.path.startsWith('general')) return 'General settings';
        if (change.path.startsWith('access')) return 'Dashboard access';
        if (change.path.startsWith('labels')) return 'Ticket labels';
        if (change.path.startsWith('autoClose')) return 'Auto-close';
        if (change.path.startsWith('blocklist')) return 'Blocklist';
        return 'Configuration';
      }),
    ),
  ];
  if (targets.length === 0) return 'No changes';
  return targets.length === 1 ? targets[0]! : `${targets[0]} and ${targets.length - 1} more`;
}

/**
 * A stored configuration as it reads today: versions saved before labels and the automation settings
 * existed get their defaults (not a missing key, which a diff would call a change).
 */
export function asToday(config: ServerConfig): ServerConfig {
  const stored = config as Partial<ServerConfig> & ServerConfig;
  const panelsCurrent = stored.panels.every((panel) => 'autoClose' in panel && 'feedback' in panel);
  if (
    Array.isArray(stored.labels) &&
    stored.autoClose !== undefined &&
    Array.isArray(stored.tags) &&
    Array.isArray(stored.blocklist) &&
    stored.feedback !== undefined &&
    panelsCurrent
  ) {
    return config;
  }
  return {
    ...config,
    panels: panelsCurrent ? config.panels : config.panels.map((panel) => ({ ...panel, autoClose: panel.autoClose ?? null, feedback: panel.feedback ?? null })),
    labels: stored.labels ?? [],
    autoClose: stored.autoClose ?? defaultAutoCloseRules(),
    tags: stored.tags ?? [],
    blocklist: stored.blocklist ?? [],
    feedback: stored.feedback ?? defaultFeedbackSettings(),
  };
}

/**
 * The blocklist as saved: `addedBy` and `addedAt` are the server's word. An entry already in the live
 * configuration (same kind and id) keeps its stored values, whatever the client sent; a new one gets
 * `carried` (a restore: the version's own stamps, written by this server) or the acting user and now.
 */
export function stampBlocklist(live: readonly BlockEntry[], next: readonly BlockEntry[], actorId: string, at: string, carried: readonly BlockEntry[] = []): BlockEntry[] {
  const key = (entry: BlockEntry) => `${entry.kind}:${entry.id}`;
  const stored = new Map([...carried, ...live].map((entry) => [key(entry), entry]));
  return next.map((entry) => {
    const kept = stored.get(key(entry));
    return kept ? { ...entry, addedBy: kept.addedBy, addedAt: kept.addedAt } : { ...entry, addedBy: actorId, addedAt: at };
  });
}

/** A reset is confirmed by typing the server's name (both trimmed, case-sensitive): else 1001. */
export function assertResetConfirmed(guildName: string, confirmName: string): void {
  const name = guildName.trim();
  if (confirmName.trim() === name) return;
  throw new ApiHttpError('VALIDATION_FAILED', { message: `confirmName: Type the server's name, “${name}”, exactly as Discord shows it, to confirm. Nothing was reset.` });
}

/** Configurations longer than this (JSON characters) are not kept in the cache (most are a few KB; the limit is 512 KB). */
const CACHED_CONFIG_MAX_CHARS = 64 * 1024;

/**
 * A server's configuration: read the live version, save a new one (validated, against the version
 * the editor started from, with its Web Logs entry, in one transaction), list and restore versions,
 * read the Web Logs. The one write path of the server dashboard.
 */
export class ServerConfigs {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: Plan[],
    private readonly cache: SessionCache | null = null,
  ) {}

  /** Whether the server has premium (a subscription that grants it covers the server) and its panel limit. */
  async limits(guildId: string, queryable: Queryable = this.db): Promise<ServerLimits> {
    const { rows } = await queryable.query<{ premium: boolean }>(`SELECT ${serverHasPremium('$1', '$2::timestamptz')} AS premium`, [guildId, iso(new Date(this.clock()))]);
    return this.limitsFor(rows[0]?.premium === true);
  }

  private limitsFor(premium: boolean): ServerLimits {
    const plan = this.plans.find((p) => p.id === (premium ? 'premium' : 'free')) ?? this.plans.find((p) => !premium || p.limits.panels > 3);
    return {
      premium,
      panelLimit: plan?.limits.panels ?? FREE_PANEL_LIMIT,
      tagLimit: plan?.limits.tags ?? FREE_TAG_LIMIT,
      blocklistLimit: plan?.limits.blocklist ?? FREE_BLOCKLIST_LIMIT,
    };
  }

  /** The schema a save must pass on this server. */
  schemaFor(limits: ServerLimits, savedPanels?: number) {
    const premiumPlan = this.plans.find((p) => p.id === 'premium');
    return serverConfigSchema({
      panelLimit: limits.panelLimit,
      premium: limits.premium,
      tagLimit: limits.tagLimit,
      blocklistLimit: limits.blocklistLimit,
      ...(savedPanels === undefined ? {} : { savedPanels }),
      ...(premiumPlan
        ? { premiumPanelLimit: premiumPlan.limits.panels, premiumTagLimit: premiumPlan.limits.tags, premiumBlocklistLimit: premiumPlan.limits.blocklist }
        : {}),
    });
  }

  /**
   * The live configuration and the server's limits together, in one query (what `GET /config`
   * answers: the Panel Menu opens on it).
   */
  /**
   * The live configuration and the server's limits, as its dashboard page reads them: from the cache
   * while it holds them (a save, or a change to any premium, drops them on every instance), else one query.
   */
  async read(guildId: string): Promise<LiveConfig & ServerLimits> {
    const cached = this.cache?.server<LiveConfig & ServerLimits>(guildId);
    if (cached) return cached;
    const ticket = this.cache?.ticket() ?? 0;
    const answer = await this.#read(guildId);
    // A large configuration is read from the database each time: the cache's memory stays bounded by its count.
    if (this.cache && JSON.stringify(answer.config).length <= CACHED_CONFIG_MAX_CHARS) this.cache.fillServer(guildId, answer, ticket);
    return answer;
  }

  async #read(guildId: string): Promise<LiveConfig & ServerLimits> {
    const queryable = this.db;
    const { rows } = await queryable.query<Partial<VersionRow> & { premium: boolean }>(
      `SELECT v.version, v.config, v.summary, v.actor_id, v.actor_name, v.actor_avatar_url, v.restored_from, v.created_at,
              ${serverHasPremium('$1', '$2::timestamptz')} AS premium
         FROM (SELECT 1) AS one
         LEFT JOIN LATERAL (
           SELECT * FROM server_config_versions WHERE guild_id = $1 ORDER BY version DESC LIMIT 1
         ) AS v ON true`,
      [guildId, iso(new Date(this.clock()))],
    );
    const row = rows[0];
    const limits = this.limitsFor(row?.premium === true);
    if (!row || row.version === null || row.version === undefined) return { version: 0, config: defaultServerConfig(), savedAt: null, savedBy: null, ...limits };
    const saved = row as VersionRow;
    return { version: saved.version, config: asToday(saved.config), savedAt: iso(saved.created_at), savedBy: actorOf(saved), ...limits };
  }

  async live(guildId: string, queryable: Queryable = this.db): Promise<LiveConfig> {
    const { rows } = await queryable.query<VersionRow>(
      'SELECT version, config, summary, actor_id, actor_name, actor_avatar_url, restored_from, created_at FROM server_config_versions WHERE guild_id = $1 ORDER BY version DESC LIMIT 1',
      [guildId],
    );
    const row = rows[0];
    if (!row) return { version: 0, config: defaultServerConfig(), savedAt: null, savedBy: null };
    return { version: row.version, config: asToday(row.config), savedAt: iso(row.created_at), savedBy: actorOf(row) };
  }

  /**
   * Saves `config` as the version after `expectedVersion`: refused with 1013 when the live version is
   * newer (someone else saved), with 1001 when it does not pass the server's schema. Writes the version
   * and its Web Logs entry in one transaction; a failure leaves neither.
   */
  async save(options: {
    guildId: string;
    expectedVersion: number;
    config: unknown;
    actor: ConfigActor;
    action?: WebLogEntry['action'];
    restoredFrom?: number;
    /** A restore: the restored version's blocklist, whose stamps its entries new to the live one keep. */
    carriedBlocklist?: readonly BlockEntry[];
  }): Promise<LiveConfig> {
    return this.db.transaction(async (tx) => {
      const limits = await this.limits(options.guildId, tx);
      const live = await this.live(options.guildId, tx);
      const parsed = this.schemaFor(limits, live.config.panels.length).safeParse(options.config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ApiHttpError('VALIDATION_FAILED', { message: `${issue.path.join('.') || 'config'}: ${issue.message}` });
      }
      if (live.version !== options.expectedVersion) throw this.conflict(live, await this.savedSince(options.guildId, options.expectedVersion, tx));
      const at = new Date(this.clock()).toISOString();
      const next = { ...parsed.data, blocklist: stampBlocklist(live.config.blocklist, parsed.data.blocklist, options.actor.id, at, options.carriedBlocklist) };
      const changes = diffConfig(live.config, next);
      const target = describeChanges(live.config, next, changes);
      const version = live.version + 1;
      try {
        await tx.query(
          `INSERT INTO server_config_versions (guild_id, version, config, summary, actor_id, actor_name, actor_avatar_url, restored_from, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [options.guildId, version, JSON.stringify(next), target, options.actor.id, options.actor.name, options.actor.avatarUrl, options.restoredFrom ?? null, at],
        );
      } catch (error) {
        // Another save of the same version committed between our read and our write.
        if (isUniqueViolation(error)) throw this.conflict(null);
        throw error;
      }
      await insertWebLog(tx, { guildId: options.guildId, at, actor: options.actor, action: options.action ?? 'config.update', target, version, changes });
      announce(tx, { kind: 'server', id: options.guildId });
      return { version, config: next, savedAt: at, savedBy: options.actor };
    });
  }

  /**
   * Resets the configuration to the defaults (Restore Configs › Reset to defaults): saved as a new version (logged
   * `config.reset`, restorable like any other), once `confirmName` is the server's name (trimmed,
   * case-sensitive); else 1001 and nothing is written. A stale `expectedVersion` is 1013.
   */
  async reset(options: { guildId: string; guildName: string; expectedVersion: number; confirmName: string; actor: ConfigActor }): Promise<LiveConfig> {
    assertResetConfirmed(options.guildName, options.confirmName);
    return this.save({ guildId: options.guildId, expectedVersion: options.expectedVersion, config: defaultServerConfig(), actor: options.actor, action: 'config.reset' });
  }

  /** What the versions after `version` were about ("Panel “Support”"), oldest first, at most five. */
  private async savedSince(guildId: string, version: number, queryable: Queryable): Promise<string[]> {
    const { rows } = await queryable.query<{ summary: string }>(
      'SELECT summary FROM server_config_versions WHERE guild_id = $1 AND version > $2 ORDER BY version LIMIT 5',
      [guildId, version],
    );
    return [...new Set(rows.map((row) => row.summary))];
  }

  /** 1013, naming who saved the live version and what the newer versions changed. */
  conflict(live: LiveConfig | null, changed: string[] = []): ApiHttpError {
    const who = live?.savedBy ? `${live.savedBy.name} saved version ${live.version}` : 'Someone saved a newer version';
    const what = changed.length > 0 ? ` (changed: ${changed.join('; ')})` : '';
    return new ApiHttpError('CONFIG_CONFLICT', {
      message: `${who} while you were editing${what}. Your changes were not saved: reload to see theirs, then make yours again.`,
    });
  }

  /** The versions, newest first, `limit` at a time (`cursor`: the last version of the previous page). */
  async versions(guildId: string, options: { cursor?: number; limit: number }) {
    const { rows } = await this.db.query<VersionRow>(
      `SELECT version, summary, actor_id, actor_name, actor_avatar_url, restored_from, created_at
         FROM server_config_versions WHERE guild_id = $1 AND ($2::integer IS NULL OR version < $2) ORDER BY version DESC LIMIT $3`,
      [guildId, options.cursor ?? null, options.limit + 1],
    );
    const page = rows.slice(0, options.limit);
    return {
      versions: page.map((row) => ({ version: row.version, savedAt: iso(row.created_at), savedBy: actorOf(row), summary: row.summary, restoredFrom: row.restored_from })),
      nextCursor: rows.length > options.limit ? String(page.at(-1)!.version) : null,
    };
  }

  /** One version with what it changes against the live configuration; null when there is none. */
  async version(guildId: string, version: number) {
    const { rows } = await this.db.query<VersionRow>(
      'SELECT version, config, summary, actor_id, actor_name, actor_avatar_url, restored_from, created_at FROM server_config_versions WHERE guild_id = $1 AND version = $2',
      [guildId, version],
    );
    const row = rows[0];
    if (!row) return null;
    const live = await this.live(guildId);
    return {
      version: row.version,
      savedAt: iso(row.created_at),
      savedBy: actorOf(row),
      summary: row.summary,
      restoredFrom: row.restored_from,
      config: asToday(row.config),
      changes: diffConfig(live.config, asToday(row.config)),
    };
  }

  /** Web Logs, newest first, filtered, `limit` at a time (`cursor`: the last id of the previous page). */
  async logs(guildId: string, options: { cursor?: string; actor?: string; action?: string; from?: string; to?: string; limit: number }) {
    const { rows } = await this.db.query<{
      id: string;
      at: Date | string;
      actor_id: string;
      actor_name: string;
      actor_avatar_url: string | null;
      action: WebLogEntry['action'];
      target: string;
      version: number | null;
      changes: ConfigFieldChange[];
    }>(
      `SELECT id::text AS id, at, actor_id, actor_name, actor_avatar_url, action, target, version, changes FROM web_logs
        WHERE guild_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR actor_id = $3) AND ($4::text IS NULL OR action = $4)
          AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at <= $6)
        ORDER BY web_logs.id DESC LIMIT $7`,
      [guildId, options.cursor ?? null, options.actor ?? null, options.action ?? null, options.from ?? null, options.to ?? null, options.limit + 1],
    );
    const page = rows.slice(0, options.limit);
    return {
      entries: page.map((row) => ({ id: row.id, at: iso(row.at), actor: actorOf(row), action: row.action, target: row.target, version: row.version, changes: row.changes })),
      nextCursor: rows.length > options.limit ? page.at(-1)!.id : null,
    };
  }

  /** Everyone who appears in the server's Web Logs, with the name and avatar of their latest entry, by name. */
  async logActors(guildId: string): Promise<ConfigActor[]> {
    const { rows } = await this.db.query<{ actor_id: string; actor_name: string; actor_avatar_url: string | null }>(
      `SELECT * FROM (
         SELECT DISTINCT ON (actor_id) actor_id, actor_name, actor_avatar_url FROM web_logs WHERE guild_id = $1 ORDER BY actor_id, id DESC
       ) AS latest ORDER BY lower(actor_name), actor_id`,
      [guildId],
    );
    return rows.map(actorOf);
  }
}

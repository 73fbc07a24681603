import {
  type AuthenticatedMe,
  canManageGuild,
  type Guild,
  STAFF_PERMISSIONS,
  type StaffInfo,
  type SubscriptionSummary,
} from '@tickety/api-contract';
import { announce, type Db, type Queryable } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { avatarUrl, type DiscordPartialGuild, type DiscordUser, guildIconUrl } from '../lib/discord';
import type { SessionCache, UserState } from '../lib/session-cache';
import { coveredServers, subscriptionGrants } from './premium';

interface GuildRow {
  id: string;
  name: string;
  icon: string | null;
  bot_in_guild: boolean;
  owner: boolean;
  permissions: string;
  can_manage: boolean;
  role_access: boolean;
}

interface MeRow {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  guilds_refreshed_at: unknown;
  guilds: unknown;
  staff_permissions: unknown;
  subscriptions: unknown;
}

/** A json column: the drivers hand it over parsed (pg, PGlite), or as text. */
function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * Users, their stored guild lists, staff flags and subscription summary. With a cache, a user's state
 * (what @me shows, and the guilds a read's access check needs) is read from the database at most once
 * per cache TTL; every change to it is announced (db/driver.ts, announce) once it commits.
 */
export class Accounts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cdnBase: string,
    private readonly staffOwnerIds: ReadonlySet<string>,
    private readonly cache: SessionCache | null = null,
  ) {}

  async upsertUser(queryable: Queryable, user: DiscordUser): Promise<void> {
    const now = iso(this.clock());
    await queryable.query(
      `INSERT INTO users (id, username, global_name, avatar, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz)
       ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, global_name = EXCLUDED.global_name,
         avatar = EXCLUDED.avatar, updated_at = EXCLUDED.updated_at`,
      [user.id, user.username, user.global_name, user.avatar, now],
    );
    announce(queryable, { kind: 'user', id: user.id });
  }

  /** Replaces a user's stored guild list (a refresh), in a transaction of its own. */
  async storeGuilds(userId: string, guilds: DiscordPartialGuild[], botGuilds: Set<string> | null): Promise<void> {
    await this.db.transaction((tx) => this.replaceGuilds(tx, userId, guilds, botGuilds));
  }

  /**
   * Replaces the user's stored guild list with what Discord sent. `botGuilds` null means the bot's
   * list is unknown right now: keep what is stored for each guild.
   */
  async replaceGuilds(queryable: Queryable, userId: string, guilds: DiscordPartialGuild[], botGuilds: Set<string> | null): Promise<void> {
    const now = iso(this.clock());
    // One replacement per user at a time (sign-in, refresh and access checks may overlap): the user's
    // row is locked until the transaction ends, so their delete-then-insert never interleave.
    await queryable.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const unique = [...new Map(guilds.map((g) => [g.id, g])).values()];
    if (unique.length > 0) {
      await queryable.query(
        `INSERT INTO guilds (id, name, icon, bot_in_guild, updated_at)
         SELECT id, name, icon, COALESCE(bot, false), $5::timestamptz
           FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[]) AS t(id, name, icon, bot)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, updated_at = EXCLUDED.updated_at,
           bot_in_guild = CASE WHEN $6::boolean THEN EXCLUDED.bot_in_guild ELSE guilds.bot_in_guild END`,
        [
          unique.map((g) => g.id),
          unique.map((g) => g.name),
          unique.map((g) => g.icon),
          unique.map((g) => (botGuilds ? botGuilds.has(g.id) : null)),
          now,
          botGuilds !== null,
        ],
      );
    }
    // Role access is the bot's finding (services/server-access.ts), not Discord's list: kept for the
    // servers still listed (as non-manager) until it is checked again.
    const kept = await queryable.query<{ guild_id: string }>('SELECT guild_id FROM user_guilds WHERE user_id = $1 AND role_access', [userId]);
    const roleAccess = new Set(kept.rows.map((r) => r.guild_id));
    await queryable.query('DELETE FROM user_guilds WHERE user_id = $1', [userId]);
    if (unique.length > 0) {
      const manages = unique.map((g) => canManageGuild(g.owner, g.permissions));
      await queryable.query(
        `INSERT INTO user_guilds (user_id, guild_id, position, owner, permissions, can_manage, role_access)
         SELECT $1, guild_id, position, owner, permissions, can_manage, role_access
           FROM unnest($2::text[], $3::int[], $4::boolean[], $5::text[], $6::boolean[], $7::boolean[])
             AS t(guild_id, position, owner, permissions, can_manage, role_access)`,
        [
          userId,
          unique.map((g) => g.id),
          unique.map((_, i) => i),
          unique.map((g) => g.owner),
          unique.map((g) => g.permissions),
          manages,
          unique.map((g, i) => !manages[i] && roleAccess.has(g.id)),
        ],
      );
    }
    await queryable.query('UPDATE users SET guilds_refreshed_at = $2::timestamptz WHERE id = $1', [userId, now]);
    announce(queryable, { kind: 'user', id: userId });
  }

  /**
   * Claims the user's guild-refresh slot (at most one refresh per `intervalMs`, across instances).
   * Returns 0 when claimed, else the seconds to wait.
   */
  async claimRefresh(userId: string, intervalMs: number): Promise<number> {
    const now = this.clock();
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE users SET guilds_refresh_attempted_at = $2::timestamptz
        WHERE id = $1 AND (guilds_refresh_attempted_at IS NULL OR guilds_refresh_attempted_at <= $3::timestamptz
                           OR guilds_refresh_attempted_at > $2::timestamptz)
        RETURNING id`,
      [userId, iso(now), iso(now - intervalMs)],
    );
    if (rows.length > 0) return 0;
    const last = await this.db.query<{ at: unknown }>('SELECT guilds_refresh_attempted_at AS at FROM users WHERE id = $1', [userId]);
    const at = toMs(last.rows[0]?.at) ?? now;
    return Math.max(1, Math.ceil((at + intervalMs - now) / 1000));
  }

  async guilds(userId: string): Promise<Guild[]> {
    const { rows } = await this.db.query<GuildRow>(
      `SELECT g.id, g.name, g.icon, g.bot_in_guild, ug.owner, ug.permissions, ug.can_manage, ug.role_access
         FROM user_guilds ug JOIN guilds g ON g.id = ug.guild_id
        WHERE ug.user_id = $1
        ORDER BY ug.position`,
      [userId],
    );
    return rows.map((r) => this.#guild(r));
  }

  /** One of the user's stored guilds, or null when it is not in their list. */
  async guild(userId: string, guildId: string): Promise<Guild | null> {
    const { rows } = await this.db.query<GuildRow>(
      `SELECT g.id, g.name, g.icon, g.bot_in_guild, ug.owner, ug.permissions, ug.can_manage, ug.role_access
         FROM user_guilds ug JOIN guilds g ON g.id = ug.guild_id
        WHERE ug.user_id = $1 AND ug.guild_id = $2`,
      [userId, guildId],
    );
    return rows[0] ? this.#guild(rows[0]) : null;
  }

  /**
   * A server as the product knows it (the `guilds` row: name, icon, whether the bot is in it), seen
   * by no member: a staff member's read-only view (`via: 'staff'`). Null when the product never saw it.
   */
  async knownGuild(guildId: string): Promise<Guild | null> {
    const { rows } = await this.db.query<GuildRow>(
      `SELECT g.id, g.name, g.icon, g.bot_in_guild, false AS owner, '0' AS permissions, false AS can_manage, false AS role_access
         FROM guilds g WHERE g.id = $1`,
      [guildId],
    );
    return rows[0] ? this.#guild(rows[0]) : null;
  }

  /**
   * What an access check needs, in one query: when the user's stored list was fetched from Discord
   * (epoch ms, null if never) and the guild from it (null when not in the list). A read (`cached`)
   * takes it from the user's cached state when there is one.
   */
  async guildAccess(userId: string, guildId: string, options: { cached?: boolean } = {}): Promise<{ refreshedAt: number | null; guild: Guild | null }> {
    if (options.cached && this.cache?.enabled) {
      const state = await this.state(userId);
      return { refreshedAt: state?.refreshedAt ?? null, guild: state?.guilds.get(guildId) ?? null };
    }
    const { rows } = await this.db.query<GuildRow & { guilds_refreshed_at: unknown; listed: boolean }>(
      `SELECT u.guilds_refreshed_at, g.id IS NOT NULL AS listed,
              g.id, g.name, g.icon, g.bot_in_guild, ug.owner, ug.permissions, ug.can_manage, ug.role_access
         FROM users u
         LEFT JOIN user_guilds ug ON ug.user_id = u.id AND ug.guild_id = $2
         LEFT JOIN guilds g ON g.id = ug.guild_id
        WHERE u.id = $1`,
      [userId, guildId],
    );
    const row = rows[0];
    if (!row) return { refreshedAt: null, guild: null };
    return { refreshedAt: toMs(row.guilds_refreshed_at), guild: row.listed ? this.#guild(row) : null };
  }

  #guild(row: GuildRow): Guild {
    return {
      id: row.id,
      name: row.name,
      icon: row.icon,
      iconUrl: guildIconUrl(this.cdnBase, row.id, row.icon),
      owner: row.owner,
      permissions: row.permissions,
      canManage: row.can_manage,
      botInGuild: row.bot_in_guild,
      roleAccess: !row.can_manage && row.role_access === true,
    };
  }

  /**
   * Records what the bot found about the user's role access (services/server-access.ts): `granted`
   * servers get it, the other `checked` ones lose it; servers not in either keep their stored value.
   * Returns whether anything changed.
   */
  async setRoleAccess(userId: string, checked: readonly string[], granted: readonly string[]): Promise<boolean> {
    if (checked.length === 0) return false;
    const { rows } = await this.db.query<{ guild_id: string }>(
      `UPDATE user_guilds SET role_access = (guild_id = ANY($3::text[]) AND NOT can_manage)
        WHERE user_id = $1 AND guild_id = ANY($2::text[]) AND role_access IS DISTINCT FROM (guild_id = ANY($3::text[]) AND NOT can_manage)
        RETURNING guild_id`,
      [userId, [...checked], [...granted]],
    );
    if (rows.length > 0) announce(this.db, { kind: 'user', id: userId });
    return rows.length > 0;
  }

  /**
   * The user's servers the bot is in that they do not manage, with the access rules of each one's
   * live configuration (only those that have rules): the servers where a role may give access.
   */
  async roleAccessCandidates(userId: string): Promise<{ withRules: Array<{ guildId: string; rules: unknown }>; without: string[] }> {
    const { rows } = await this.db.query<{ guild_id: string; rules: unknown }>(
      `SELECT ug.guild_id, v.config->'access' AS rules
         FROM user_guilds ug
         JOIN guilds g ON g.id = ug.guild_id
         LEFT JOIN LATERAL (
           SELECT config FROM server_config_versions WHERE guild_id = ug.guild_id ORDER BY version DESC LIMIT 1
         ) AS v ON true
        WHERE ug.user_id = $1 AND NOT ug.can_manage AND g.bot_in_guild
        ORDER BY ug.position`,
      [userId],
    );
    const withRules: Array<{ guildId: string; rules: unknown }> = [];
    const without: string[] = [];
    for (const row of rows) {
      const rules = json<unknown>(row.rules);
      if (Array.isArray(rules) && rules.length > 0) withRules.push({ guildId: row.guild_id, rules });
      else without.push(row.guild_id);
    }
    return { withRules, without };
  }

  /** Staff flags: STAFF_OWNER_IDS hold every flag; others come from staff_members. */
  async team(userId: string): Promise<StaffInfo> {
    if (this.staffOwnerIds.has(userId)) return this.#team(userId, null);
    const { rows } = await this.db.query<{ permissions: string[] }>('SELECT permissions FROM staff_members WHERE user_id = $1', [userId]);
    return this.#team(userId, rows[0]?.permissions ?? null);
  }

  #team(userId: string, granted: string[] | null): StaffInfo {
    if (this.staffOwnerIds.has(userId)) return { permissions: [...STAFF_PERMISSIONS], owner: true };
    if (!granted) return null;
    const permissions = STAFF_PERMISSIONS.filter((p) => granted.includes(p));
    return permissions.length > 0 ? { permissions, owner: false } : null;
  }

  /** Subscription summary: null without subscription records. */
  async sub(userId: string): Promise<SubscriptionSummary> {
    const { rows } = await this.db.query<{ premium: boolean; servers: string[] }>(
      `SELECT ${subscriptionGrants('s', '$2::timestamptz')} AS premium, ${coveredServers('s', '$2::timestamptz')} AS servers FROM subscriptions s WHERE s.user_id = $1`,
      [userId, iso(this.clock())],
    );
    return this.#sub(rows);
  }

  #sub(rows: Array<{ premium: boolean; servers: string[] }>): SubscriptionSummary {
    if (rows.length === 0) return null;
    const premium = rows.some((r) => r.premium);
    const servers = [...new Set(rows.filter((r) => r.premium).flatMap((r) => r.servers))];
    return { premium, servers };
  }

  /** The authenticated /api/auth/@me answer (see state). */
  async me(userId: string): Promise<AuthenticatedMe | null> {
    return (await this.state(userId))?.me ?? null;
  }

  /**
   * The user's state from stored data only (never calls Discord): the cached one, else one query (the
   * user, their guilds in Discord's order, staff flags and subscriptions), kept in the cache. The
   * hottest read: every page's @me.
   */
  async state(userId: string): Promise<UserState | null> {
    const cached = this.cache?.user(userId);
    if (cached) return cached;
    const ticket = this.cache?.ticket() ?? 0;
    const { rows } = await this.db.query<MeRow>(
      `SELECT u.id, u.username, u.global_name, u.avatar, u.guilds_refreshed_at,
              COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'icon', g.icon, 'bot_in_guild', g.bot_in_guild,
                                                          'owner', ug.owner, 'permissions', ug.permissions, 'can_manage', ug.can_manage,
                                                          'role_access', ug.role_access)
                                        ORDER BY ug.position)
                          FROM user_guilds ug JOIN guilds g ON g.id = ug.guild_id WHERE ug.user_id = u.id), '[]'::json) AS guilds,
              (SELECT to_json(sm.permissions) FROM staff_members sm WHERE sm.user_id = u.id) AS staff_permissions,
              COALESCE((SELECT json_agg(json_build_object('premium', ${subscriptionGrants('s', '$2::timestamptz')}, 'servers', ${coveredServers('s', '$2::timestamptz')}))
                          FROM subscriptions s WHERE s.user_id = u.id), '[]'::json) AS subscriptions
         FROM users u WHERE u.id = $1`,
      [userId, iso(this.clock())],
    );
    const row = rows[0];
    if (!row) return null;
    const refreshed = toMs(row.guilds_refreshed_at);
    const guilds = json<GuildRow[]>(row.guilds).map((r) => this.#guild(r));
    const state: UserState = {
      me: {
        isAuthenticated: true,
        user: { id: row.id, username: row.username, globalName: row.global_name, avatar: row.avatar, avatarUrl: avatarUrl(this.cdnBase, row.id, row.avatar) },
        guilds,
        team: this.#team(row.id, json<string[] | null>(row.staff_permissions)),
        sub: this.#sub(json<Array<{ premium: boolean; servers: string[] }>>(row.subscriptions)),
        guildsRefreshedAt: refreshed === null ? null : iso(refreshed),
      },
      refreshedAt: refreshed,
      guilds: new Map(guilds.map((guild) => [guild.id, guild])),
    };
    this.cache?.fillUser(userId, state, ticket);
    return state;
  }
}

import {
  isSnowflake,
  SEARCH_MATCHES,
  type SearchMatch,
  type ServerConfig,
  STAFF_CARD_TICKETS,
  STAFF_CARD_WEB_LOGS,
  STAFF_SEARCH_LIMIT,
  type StaffSearchAnswer,
  type StaffServerCard,
  type StaffTicket,
  type StaffUserCard,
} from '@tickety/api-contract';
import type { Db } from '../db/driver';
import { type Clock, iso } from '../lib/clock';
import { avatarUrl, guildIconUrl } from '../lib/discord';
import type { BillingAccounts } from './billing/accounts';
import { subscriptionGrants } from './premium';
import type { ServerConfigs } from './server-config';
import type { SessionStore } from './sessions';
import { writeStaffAudit } from './staff-audit';

/** Queries shorter than this (folded) are matched on the start of names only: trigrams need three letters. */
const SUBSTRING_MIN_LENGTH = 3;

type Stamp = Date | string;
const isoOf = (v: Stamp | null | undefined): string | null => (v === null || v === undefined ? null : new Date(v).toISOString());

/** `%`, `_` and `\` taken literally in a LIKE pattern (backslash is LIKE's escape). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, '\\$&');
/** The text taken literally in a POSIX regular expression. */
const regexLiteral = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The rank of a folded name (column `n`) against the query's parameters: 1 the whole name,
 * 2 its start, 3 the start of a word in it, 4 anywhere in it, 5 only similar. (0 is the id.)
 */
const rankOf = (n: string) => `CASE WHEN ${n} = $1 THEN 1 WHEN ${n} LIKE $2 THEN 2 WHEN ${n} ~ $3 THEN 3 WHEN ${n} LIKE $4 THEN 4 ELSE 5 END`;

/** Candidates each branch of the search brings at most (the best `limit` of them are answered). */
const PREFIX_CANDIDATES = 100;
const SUBSTRING_CANDIDATES = 200;
const SIMILAR_CANDIDATES = 200;

/**
 * The ids of the rows of `table` whose folded names (`columns`) may match, each branch on an index and
 * capped, so a common prefix ("a") or substring ("er") over 100,000 names costs a capped read, not
 * a rank of thousands: names starting with the query, in index order (shortest prefix matches come
 * first); for three letters or more, names containing it (trigrams); with `similar`, names similar to it.
 */
function candidateIds(table: string, columns: string[], include: { id: boolean; name: boolean; long: boolean; similar: boolean }): string {
  const branches: string[] = [];
  if (include.id) branches.push(`(SELECT id FROM ${table} WHERE id = $5)`);
  if (include.name) {
    for (const c of columns) branches.push(`(SELECT id FROM ${table} WHERE ${c} LIKE $2 ORDER BY ${c} USING ~<~ LIMIT ${PREFIX_CANDIDATES})`);
    if (include.long) for (const c of columns) branches.push(`(SELECT id FROM ${table} WHERE ${c} LIKE $4 LIMIT ${SUBSTRING_CANDIDATES})`);
    if (include.similar) for (const c of columns) branches.push(`(SELECT id FROM ${table} WHERE support_similar(${c}, $1) LIMIT ${SIMILAR_CANDIDATES})`);
  }
  return branches.length > 0 ? branches.join(' UNION ') : 'SELECT NULL::text WHERE false';
}

interface TicketRow {
  guild_id: string;
  guild_name: string | null;
  ticket_id: string;
  number: number | null;
  panel_id: string | null;
  opener_id: string | null;
  opened_at: Stamp | null;
  closed_at: Stamp | null;
  rating: number | null;
  file_id: string | null;
}

/**
 * A person's tickets or a server's (`column`: `opener_id` or `guild_id`), newest first: the tickets the
 * bot reported, each with its stored transcript, and stored transcripts whose ticket the API never
 * heard of (their events lost).
 */
const TICKETS = (column: 'opener_id' | 'guild_id') => `
  SELECT * FROM (
    (SELECT k.guild_id, g.name AS guild_name, k.ticket_id, k.number, k.panel_id, k.opener_id, k.opened_at, k.closed_at, k.rating::int AS rating,
            tr.file_id, coalesce(k.opened_at, k.updated_at) AS sort_at
       FROM tickets k
       LEFT JOIN transcripts tr ON tr.guild_id = k.guild_id AND tr.file_id = k.transcript_id
       LEFT JOIN guilds g ON g.id = k.guild_id
      WHERE k.${column} = $1
      ORDER BY k.opened_at DESC NULLS LAST LIMIT $2)
    UNION ALL
    (SELECT tr.guild_id, g.name, tr.ticket_id, tr.number, tr.panel_id, tr.opener_id, tr.opened_at, tr.closed_at, NULL::int,
            tr.file_id, tr.opened_at
       FROM transcripts tr
       LEFT JOIN guilds g ON g.id = tr.guild_id
      WHERE tr.${column} = $1
        AND NOT EXISTS (SELECT 1 FROM tickets k WHERE k.bot_id = tr.bot_id AND k.guild_id = tr.guild_id AND k.ticket_id = tr.ticket_id)
      ORDER BY tr.closed_at DESC LIMIT $2)
  ) AS t ORDER BY sort_at DESC, guild_id, ticket_id LIMIT $2`;

const ticketOf = (row: TicketRow): StaffTicket => ({
  serverId: row.guild_id,
  serverName: row.guild_name,
  ticketId: row.ticket_id,
  number: row.number === null ? null : Number(row.number),
  panelId: row.panel_id,
  openerId: row.opener_id,
  openedAt: isoOf(row.opened_at),
  closedAt: isoOf(row.closed_at),
  rating: row.rating === null ? null : Number(row.rating),
  transcriptId: row.file_id,
});

interface StaffSearchOptions {
  db: Db;
  clock: Clock;
  cdnBase: string;
  billing: BillingAccounts;
  configs: ServerConfigs;
  sessions: SessionStore;
}

/**
 * Support search: users and servers by id or by name, and their cards (staff read-only views).
 * Names are compared folded (`support_fold`: lower case, accents removed; stored beside each name,
 * migration 018) and found through indexes on the folded names: prefixes by btree, substrings and similar names by trigrams,
 * so an answer takes a few milliseconds over 100,000 of each (bench/support-search.mjs).
 */
export class StaffSearch {
  readonly #o: StaffSearchOptions;

  constructor(options: StaffSearchOptions) {
    this.#o = options;
  }

  /** Whether this user has ever signed in to the dashboard. */
  async isKnownUser(userId: string): Promise<boolean> {
    const { rows } = await this.#o.db.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    return rows.length > 0;
  }

  /** Ends every live session of a user, in the transaction of its audit row (`user.sessions.end`); answers how many. */
  async endSessions(staffId: string, userId: string): Promise<number> {
    return this.#o.db.transaction(async (tx) => {
      const ended = await this.#o.sessions.revokeAllOf(tx, userId);
      await writeStaffAudit(tx, { at: this.#o.clock(), staffId, action: 'user.sessions.end', target: `user ${userId}`, after: { ended } });
      return ended;
    });
  }

  async search(raw: string, limit = STAFF_SEARCH_LIMIT): Promise<StaffSearchAnswer> {
    const query = raw.trim();
    const db = this.#o.db;
    // An id is looked up as an id (no name has 17 digits in a row worth finding that way).
    const id = isSnowflake(query) ? query : null;
    // Folded by the database (the stored columns' own function), spaces collapsed.
    const folded = id !== null ? '' : ((await db.query<{ f: string | null }>('SELECT support_fold($1) AS f', [query])).rows[0]?.f ?? '').replace(/\s+/g, ' ').trim();
    if (folded === '' && id === null) return { q: query, users: [], servers: [] };
    const long = [...folded].length >= SUBSTRING_MIN_LENGTH;
    const literal = likeLiteral(folded);
    // $1 the folded query, $2 its prefix pattern, $3 a word start (regex), $4 anywhere, $5 the id, $6 the limit.
    const params = [folded, `${literal}%`, `(^|[^[:alnum:]])${regexLiteral(folded)}`, `%${literal}%`, id, limit];
    const username = 'u.search_username';
    const globalName = 'u.search_global_name';
    const name = 'g.search_name';
    type UserRow = { id: string; username: string; global_name: string | null; avatar: string | null; rank: number };
    type ServerRow = { id: string; name: string; icon: string | null; bot_in_guild: boolean; rank: number };
    const options = (similar: boolean) => ({ id: id !== null, name: folded !== '', long, similar });
    const findUsers = (similar: boolean) =>
      db.query<UserRow>(
        `SELECT u.id, u.username, u.global_name, u.avatar,
                CASE WHEN u.id = $5 THEN 0 ELSE least(${rankOf(username)}, ${rankOf(globalName)}) END AS rank
           FROM users u
          WHERE u.id = ANY (ARRAY(${candidateIds('users', ['search_username', 'search_global_name'], options(similar))}))
          ORDER BY rank, greatest(support_similarity(${username}, $1), coalesce(support_similarity(${globalName}, $1), 0)) DESC,
                   length(coalesce(u.global_name, u.username)), lower(coalesce(u.global_name, u.username)), u.id
          LIMIT $6`,
        params,
      );
    const findServers = (similar: boolean) =>
      db.query<ServerRow>(
        `SELECT g.id, g.name, g.icon, g.bot_in_guild, CASE WHEN g.id = $5 THEN 0 ELSE ${rankOf(name)} END AS rank
           FROM guilds g
          WHERE g.id = ANY (ARRAY(${candidateIds('guilds', ['search_name'], options(similar))}))
          ORDER BY rank, support_similarity(${name}, $1) DESC, length(g.name), lower(g.name), g.id
          LIMIT $6`,
        params,
      );
    // Similar names (a typo, a letter missing) are looked for when the query itself finds nothing:
    // the costlier read (every name sharing two of its trigrams is compared), and the lowest rank.
    const [u, s] = await Promise.all([
      findUsers(false).then((r) => (long && r.rows.length === 0 ? findUsers(true) : r)),
      findServers(false).then((r) => (long && r.rows.length === 0 ? findServers(true) : r)),
    ]);
    const cdn = this.#o.cdnBase;
    const matchOf = (rank: number): SearchMatch => SEARCH_MATCHES[Number(rank)] ?? 'similar';
    return {
      q: query,
      users: u.rows.map((r) => ({ id: r.id, username: r.username, globalName: r.global_name, avatarUrl: avatarUrl(cdn, r.id, r.avatar), match: matchOf(r.rank) })),
      servers: s.rows.map((r) => ({ id: r.id, name: r.name, iconUrl: guildIconUrl(cdn, r.id, r.icon), botInGuild: r.bot_in_guild, match: matchOf(r.rank) })),
    };
  }

  /** A user's card (without `canViewBilling`, the route's to say), or null when no such user ever signed in. */
  async userCard(userId: string): Promise<Omit<StaffUserCard, 'canViewBilling' | 'sessions'> | null> {
    const { db, cdnBase: cdn } = this.#o;
    const { rows } = await db.query<{ id: string; username: string; global_name: string | null; avatar: string | null; created_at: Stamp; updated_at: Stamp; guilds_refreshed_at: Stamp | null }>(
      'SELECT id, username, global_name, avatar, created_at, updated_at, guilds_refreshed_at FROM users WHERE id = $1',
      [userId],
    );
    const user = rows[0];
    if (!user) return null;
    const [servers, subscriptions, tickets] = await Promise.all([
      db.query<{ id: string; name: string; icon: string | null; owner: boolean; bot_in_guild: boolean }>(
        `SELECT g.id, g.name, g.icon, ug.owner, g.bot_in_guild FROM user_guilds ug JOIN guilds g ON g.id = ug.guild_id
          WHERE ug.user_id = $1 AND ug.can_manage ORDER BY ug.position, g.id`,
        [userId],
      ),
      this.#o.billing.list(userId),
      db.query<TicketRow>(TICKETS('opener_id'), [userId, STAFF_CARD_TICKETS]),
    ]);
    return {
      user: {
        id: user.id,
        username: user.username,
        globalName: user.global_name,
        avatarUrl: avatarUrl(cdn, user.id, user.avatar),
        createdAt: iso(new Date(user.created_at).getTime()),
        updatedAt: iso(new Date(user.updated_at).getTime()),
        guildsRefreshedAt: isoOf(user.guilds_refreshed_at),
      },
      servers: servers.rows.map((g) => ({ id: g.id, name: g.name, iconUrl: guildIconUrl(cdn, g.id, g.icon), owner: g.owner, botInGuild: g.bot_in_guild })),
      subscriptions,
      tickets: tickets.rows.map(ticketOf),
    };
  }

  /** A server's card (without `canViewBilling`), or null when no user who signed in lists it. */
  async serverCard(guildId: string): Promise<Omit<StaffServerCard, 'canViewBilling'> | null> {
    const { db, cdnBase: cdn, billing, configs } = this.#o;
    const { rows } = await db.query<{ id: string; name: string; icon: string | null; bot_in_guild: boolean; updated_at: Stamp }>(
      'SELECT id, name, icon, bot_in_guild, updated_at FROM guilds WHERE id = $1',
      [guildId],
    );
    const guild = rows[0];
    if (!guild) return null;
    const [cover, live, managers, logs, tickets] = await Promise.all([
      db.query<{ provider: 'paddle' | 'fastspring' | 'discord' | 'chargebee'; provider_subscription_id: string; slot: number; user_id: string; username: string | null; global_name: string | null; avatar: string | null }>(
        `SELECT s.provider, s.provider_subscription_id, p.slot, s.user_id, u.username, u.global_name, u.avatar
           FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id LEFT JOIN users u ON u.id = s.user_id
          WHERE p.guild_id = $1 AND p.slot <= s.slots AND ${subscriptionGrants('s', '$2::timestamptz')}
          ORDER BY s.created_at, s.id LIMIT 1`,
        [guildId, iso(this.#o.clock())],
      ),
      configs.live(guildId),
      db.query<{ id: string; username: string; global_name: string | null; avatar: string | null; owner: boolean }>(
        `SELECT u.id, u.username, u.global_name, u.avatar, ug.owner FROM user_guilds ug JOIN users u ON u.id = ug.user_id
          WHERE ug.guild_id = $1 AND ug.can_manage ORDER BY ug.owner DESC, lower(coalesce(u.global_name, u.username)), u.id LIMIT 50`,
        [guildId],
      ),
      configs.logs(guildId, { limit: STAFF_CARD_WEB_LOGS }),
      db.query<TicketRow>(TICKETS('guild_id'), [guildId, STAFF_CARD_TICKETS]),
    ]);
    const coverRow = cover.rows[0];
    const subscription = coverRow ? await billing.find(coverRow.provider, coverRow.provider_subscription_id) : null;
    const config = live.config as ServerConfig;
    return {
      server: { id: guild.id, name: guild.name, iconUrl: guildIconUrl(cdn, guild.id, guild.icon), botInGuild: guild.bot_in_guild, updatedAt: iso(new Date(guild.updated_at).getTime()) },
      premium: {
        active: coverRow !== undefined,
        coveredBy:
          coverRow && subscription
            ? { subscription, owner: { id: coverRow.user_id, name: coverRow.global_name ?? coverRow.username ?? coverRow.user_id, avatarUrl: avatarUrl(cdn, coverRow.user_id, coverRow.avatar) }, slot: Number(coverRow.slot) }
            : null,
      },
      config: { version: live.version, savedAt: live.savedAt, panels: config.panels?.length ?? 0, multiPanels: config.multiPanels?.length ?? 0 },
      managers: managers.rows.map((m) => ({ id: m.id, name: m.global_name ?? m.username, avatarUrl: avatarUrl(cdn, m.id, m.avatar), owner: m.owner })),
      webLogs: logs.entries,
      tickets: tickets.rows.map(ticketOf),
    };
  }
}

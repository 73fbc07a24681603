import {
  OWNER_ONLY_STAFF_PERMISSIONS,
  STAFF_PERMISSIONS,
  type StaffAuditAnswer,
  type StaffAuditEntry,
  type StaffAuditQuery,
  type StaffGrant,
  type StaffLookupAnswer,
  type StaffPermission,
  type StaffPerson,
  type StaffTeamMember,
  type StaffTeamPutAnswer,
} from '@tickety/api-contract';
import { announce, type Db, type Queryable } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { avatarUrl } from '../lib/discord';
import { type DiscordBot, DiscordBotError } from '../lib/discord-bot';
import { ApiHttpError } from '../lib/errors';
import { STAFF_AUDIT_ACTIONS, type StaffAuditAction, writeStaffAudit } from './staff-audit';

/** A flag's grant as `staff_members.grants` keeps it. */
interface GrantRecord {
  by: string | null;
  at: string | null;
}

interface MemberRow {
  user_id: string;
  permissions: string[];
  grants: unknown;
  added_by: string | null;
  created_at: unknown;
  username: string | null;
  global_name: string | null;
  avatar: string | null;
}

interface ProfileRow {
  id: string;
  username: string | null;
  global_name: string | null;
  avatar: string | null;
}

/** Discord's profile of a user: what the users row or Discord says. */
interface Profile {
  username: string | null;
  globalName: string | null;
  avatar: string | null;
}

interface StaffTeamOptions {
  db: Db;
  clock: Clock;
  cdnBase: string;
  ownerIds: ReadonlySet<string>;
  bot: DiscordBot;
}

/** A json(b) column: the drivers hand it over parsed (pg, PGlite), or as text. */
function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** Known flags only, in the order of STAFF_PERMISSIONS. */
function flagsOf(values: readonly string[] | null | undefined): StaffPermission[] {
  const set = new Set(values ?? []);
  return STAFF_PERMISSIONS.filter((p) => set.has(p));
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (ESCAPE '\'). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The audit's cursor: the entry's time to the microsecond, as PostgreSQL prints it in UTC, and its id. */
const CURSOR_AT = `to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The team manager (docs/api.md#staff): the staff members with who granted each flag, adding / editing /
 * removing one under the rules (nobody grants or revokes a flag they do not hold, nobody changes
 * their own flags, owners are never edited), each change written with its `staff_audit` row in one
 * transaction; and the audit log, newest first, a page at a time. `requireStaff` reads
 * `staff_members` on every request, so a change holds from the member's very next request.
 */
export class StaffTeam {
  readonly #o: StaffTeamOptions;

  constructor(options: StaffTeamOptions) {
    this.#o = options;
  }

  isOwner(userId: string): boolean {
    return this.#o.ownerIds.has(userId);
  }

  #person(id: string, profile: Profile | null): StaffPerson {
    const name = profile?.globalName || profile?.username || null;
    return { id, name, username: profile?.username ?? null, avatarUrl: avatarUrl(this.#o.cdnBase, id, profile?.avatar ?? null) };
  }

  /** Profiles of these users: their users row (written at sign-in), else the one stored when they were added. */
  async #profiles(queryable: Queryable, ids: Iterable<string>): Promise<Map<string, Profile>> {
    const wanted = [...new Set(ids)];
    const found = new Map<string, Profile>();
    if (wanted.length === 0) return found;
    const { rows } = await queryable.query<ProfileRow & { source: number }>(
      `SELECT id, username, global_name, avatar, 0 AS source FROM users WHERE id = ANY($1::text[])
       UNION ALL
       SELECT user_id, username, global_name, avatar, 1 AS source FROM staff_members WHERE user_id = ANY($1::text[]) AND username IS NOT NULL
       ORDER BY source`,
      [wanted],
    );
    for (const r of rows) {
      if (!found.has(r.id)) found.set(r.id, { username: r.username, globalName: r.global_name, avatar: r.avatar });
    }
    return found;
  }

  /** The staff member's flags as stored now (owners: every flag; not staff: none). */
  async #held(queryable: Queryable, userId: string): Promise<StaffPermission[]> {
    if (this.isOwner(userId)) return [...STAFF_PERMISSIONS];
    const { rows } = await queryable.query<{ permissions: string[] }>('SELECT permissions FROM staff_members WHERE user_id = $1', [userId]);
    return flagsOf(rows[0]?.permissions);
  }

  #member(row: MemberRow, profiles: Map<string, Profile>): StaffTeamMember {
    const permissions = flagsOf(row.permissions);
    const grants = json<Record<string, GrantRecord> | null>(row.grants) ?? {};
    const personOf = (id: string | null) => (id ? this.#person(id, profiles.get(id) ?? null) : null);
    const own: Profile = { username: row.username, globalName: row.global_name, avatar: row.avatar };
    return {
      ...this.#person(row.user_id, profiles.get(row.user_id) ?? (row.username ? own : null)),
      owner: false,
      permissions,
      grants: permissions.map(
        (permission): StaffGrant => ({
          permission,
          grantedBy: personOf(grants[permission]?.by ?? null),
          grantedAt: grants[permission]?.at ? iso(toMs(grants[permission]!.at)!) : null,
        }),
      ),
      addedBy: personOf(row.added_by),
      addedAt: row.created_at ? iso(toMs(row.created_at)!) : null,
    };
  }

  async #memberRows(queryable: Queryable, userId?: string): Promise<MemberRow[]> {
    const { rows } = await queryable.query<MemberRow>(
      `SELECT user_id, permissions, grants, added_by, created_at, username, global_name, avatar
         FROM staff_members WHERE ($1::text IS NULL OR user_id = $1)`,
      [userId ?? null],
    );
    return rows.filter((r) => !this.isOwner(r.user_id));
  }

  async #withPeople(queryable: Queryable, rows: MemberRow[], extra: Iterable<string> = []): Promise<{ members: StaffTeamMember[]; profiles: Map<string, Profile> }> {
    const ids = new Set<string>(extra);
    for (const r of rows) {
      ids.add(r.user_id);
      if (r.added_by) ids.add(r.added_by);
      for (const g of Object.values(json<Record<string, GrantRecord> | null>(r.grants) ?? {})) if (g?.by) ids.add(g.by);
    }
    const profiles = await this.#profiles(queryable, ids);
    return { members: rows.map((r) => this.#member(r, profiles)), profiles };
  }

  /** Every staff member: owners first (every flag, from STAFF_OWNER_IDS), then the others, by name. */
  async list(): Promise<StaffTeamMember[]> {
    const owners = [...this.#o.ownerIds];
    const { members, profiles } = await this.#withPeople(this.#o.db, await this.#memberRows(this.#o.db), owners);
    const ownerMembers = owners.map(
      (id): StaffTeamMember => ({
        ...this.#person(id, profiles.get(id) ?? null),
        owner: true,
        permissions: [...STAFF_PERMISSIONS],
        grants: STAFF_PERMISSIONS.map((permission) => ({ permission, grantedBy: null, grantedAt: null })),
        addedBy: null,
        addedAt: null,
      }),
    );
    const byName = (a: StaffTeamMember, b: StaffTeamMember) =>
      (a.name ?? '\uffff').localeCompare(b.name ?? '\uffff', 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id);
    return [...ownerMembers.sort(byName), ...members.sort(byName)];
  }

  /** Discord's profile of a user the dashboard never saw: 404 when Discord knows no such user, 503 when it cannot be asked. */
  async #discordProfile(userId: string): Promise<Profile> {
    try {
      const user = await this.#o.bot.user(userId);
      return { username: user.username, globalName: user.global_name ?? null, avatar: user.avatar ?? null };
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'refused' && (error.status === 404 || error.code === 10013)) {
        throw new ApiHttpError('NOT_FOUND', { message: `Discord knows no user with the id ${userId}: check the id and try again.` });
      }
      if (error instanceof DiscordBotError && error.kind === 'unavailable') {
        throw new ApiHttpError('DISCORD_UNAVAILABLE', {
          message: 'Discord is not answering right now, so this user cannot be looked up: nothing was changed. Try again shortly.',
          retryAfter: error.retryAfter ?? undefined,
        });
      }
      throw new ApiHttpError('DISCORD_UNAVAILABLE', { message: 'Discord could not be asked who this user is: nothing was changed. Try again shortly.', cause: error });
    }
  }

  /** What the dashboard knows of a user (users row, or the staff row's stored profile); null when nothing. */
  async #storedProfile(userId: string): Promise<Profile | null> {
    return (await this.#profiles(this.#o.db, [userId])).get(userId) ?? null;
  }

  /** Who a Discord id is, before adding them: stored data first, else Discord (through the bot). */
  async lookup(userId: string): Promise<StaffLookupAnswer> {
    const profile = (await this.#storedProfile(userId)) ?? (await this.#discordProfile(userId));
    const owner = this.isOwner(userId);
    const member = owner || (await this.#memberRows(this.#o.db, userId)).length > 0;
    return { ...this.#person(userId, profile), member, owner };
  }

  /** The refusals every change checks first: an owner, oneself. */
  #refuseLocked(actorId: string, targetId: string): void {
    if (this.isOwner(targetId)) throw new ApiHttpError('STAFF_OWNER_LOCKED');
    if (actorId === targetId) throw new ApiHttpError('STAFF_SELF_EDIT');
  }

  /**
   * 1026 when the change touches flags the actor does not hold, naming them; 1029 when it touches
   * SPECIAL_TEAM_MANAGER_WRITE and the actor is not an owner. Who manages the team is the owners'
   * call alone, so a manager's grants were always made by someone an owner trusted with them, and
   * demoting a manager cannot leave managers they made behind.
   */
  #refuseUnheld(actorId: string, changed: readonly StaffPermission[], held: readonly StaffPermission[]): void {
    if (!this.isOwner(actorId) && changed.some((p) => OWNER_ONLY_STAFF_PERMISSIONS.includes(p))) throw new ApiHttpError('STAFF_MANAGER_OWNER_ONLY');
    const missing = changed.filter((p) => !held.includes(p));
    if (missing.length === 0) return;
    throw new ApiHttpError('STAFF_GRANT_FORBIDDEN', {
      message: `You do not hold ${missing.join(', ')}, so you cannot grant or revoke ${missing.length === 1 ? 'it' : 'them'}: nothing was changed.`,
    });
  }

  /** The actor must still hold SPECIAL_TEAM_MANAGER_WRITE inside the change's transaction. */
  #refuseNoWrite(held: readonly StaffPermission[]): void {
    if (!held.includes('SPECIAL_TEAM_MANAGER_WRITE')) {
      throw new ApiHttpError('STAFF_PERMISSION_REQUIRED', {
        message: 'This needs the staff permission SPECIAL_TEAM_MANAGER_WRITE, which your account does not have.',
      });
    }
  }

  async #lock(tx: Queryable, userId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('tickety-staff-member:' || $1, 0))`, [userId]);
  }

  /**
   * The editor's and the member's locks, in id order (two editors removing each other at once take
   * turns, never deadlock): the editor's flags read after it are the ones that hold until commit.
   */
  async #lockBoth(tx: Queryable, actorId: string, targetId: string): Promise<void> {
    for (const id of [actorId, targetId].sort()) await this.#lock(tx, id);
  }

  #target(userId: string, profile: Profile | null): string {
    const name = profile?.globalName || profile?.username;
    return name ? `user ${userId} (${name})` : `user ${userId}`;
  }

  async #audit(tx: Queryable, at: string, actorId: string, action: StaffAuditAction, target: string, before: unknown, after: unknown): Promise<void> {
    await writeStaffAudit(tx, { at: toMs(at)!, staffId: actorId, action, target, before, after });
  }

  /**
   * Adds a member with these flags, or sets an existing member's flags. Refused, nothing written:
   * an owner (1028), oneself (1027), a flag granted or revoked that the actor does not hold (1026),
   * SPECIAL_TEAM_MANAGER_WRITE granted or revoked by someone who is not an owner (1029), an unknown
   * Discord user (404). The same flags again: answered, nothing written.
   */
  async set(actorId: string, targetId: string, wanted: readonly StaffPermission[]): Promise<StaffTeamPutAnswer> {
    this.#refuseLocked(actorId, targetId);
    const permissions = flagsOf(wanted);
    let profile = await this.#storedProfile(targetId);
    const known = (await this.#memberRows(this.#o.db, targetId))[0];
    if (!known) {
      // A new member: every flag is granted now. Refused before asking Discord who they are.
      this.#refuseUnheld(actorId, permissions, await this.#held(this.#o.db, actorId));
      profile ??= await this.#discordProfile(targetId);
    }
    const now = iso(this.#o.clock());
    const result = await this.#o.db.transaction(async (tx) => {
      await this.#lockBoth(tx, actorId, targetId);
      const held = await this.#held(tx, actorId);
      this.#refuseNoWrite(held);
      const row = (await this.#memberRows(tx, targetId))[0];
      const before = row ? flagsOf(row.permissions) : [];
      const changed = STAFF_PERMISSIONS.filter((p) => before.includes(p) !== permissions.includes(p));
      this.#refuseUnheld(actorId, changed, held);
      if (row && changed.length === 0) return { added: false, changed: false };
      const grants: Record<string, GrantRecord> = row ? { ...(json<Record<string, GrantRecord> | null>(row.grants) ?? {}) } : {};
      for (const p of STAFF_PERMISSIONS) {
        if (!permissions.includes(p)) delete grants[p];
        else if (!before.includes(p) || !grants[p]) grants[p] = { by: actorId, at: now };
      }
      if (row) {
        await tx.query('UPDATE staff_members SET permissions = $2::text[], grants = $3::jsonb, updated_at = $4 WHERE user_id = $1', [
          targetId,
          permissions,
          JSON.stringify(grants),
          now,
        ]);
      } else {
        await tx.query(
          `INSERT INTO staff_members (user_id, permissions, grants, added_by, created_at, updated_at, username, global_name, avatar)
           VALUES ($1, $2::text[], $3::jsonb, $4, $5, $5, $6, $7, $8)`,
          [targetId, permissions, JSON.stringify(grants), actorId, now, profile?.username ?? null, profile?.globalName ?? null, profile?.avatar ?? null],
        );
      }
      await this.#audit(
        tx,
        now,
        actorId,
        row ? 'team.update' : 'team.add',
        this.#target(targetId, profile),
        row ? { permissions: before } : null,
        { permissions },
      );
      // The member's @me (staff flags) changes.
      announce(tx, { kind: 'user', id: targetId });
      return { added: !row, changed: true };
    });
    const rows = await this.#memberRows(this.#o.db, targetId);
    const member = (await this.#withPeople(this.#o.db, rows)).members[0];
    if (!member) throw new ApiHttpError('NOT_FOUND', { message: 'This staff member was removed in the meantime.' });
    return { member, ...result };
  }

  /** Removes a member (every flag revoked): the same refusals as `set`; 404 when they are no member. */
  async remove(actorId: string, targetId: string): Promise<void> {
    this.#refuseLocked(actorId, targetId);
    const profile = await this.#storedProfile(targetId);
    await this.#o.db.transaction(async (tx) => {
      await this.#lockBoth(tx, actorId, targetId);
      const held = await this.#held(tx, actorId);
      this.#refuseNoWrite(held);
      const row = (await this.#memberRows(tx, targetId))[0];
      if (!row) throw new ApiHttpError('NOT_FOUND', { message: `The user ${targetId} is not a staff member (removed already?).` });
      const before = flagsOf(row.permissions);
      this.#refuseUnheld(actorId, before, held);
      await tx.query('DELETE FROM staff_members WHERE user_id = $1', [targetId]);
      announce(tx, { kind: 'user', id: targetId });
      await this.#audit(tx, iso(this.#o.clock()), actorId, 'team.remove', this.#target(targetId, profile), { permissions: before }, null);
    });
  }

  /** The staff audit, newest first, filtered, a page at a time (`nextCursor` continues it). */
  async audit(query: StaffAuditQuery): Promise<StaffAuditAnswer> {
    const { staff, action, target, cursor, limit } = query;
    const [cursorAt, cursorId] = cursor ? cursor.split('_') : [null, null];
    const { rows } = await this.#o.db.query<{
      id: string;
      cursor_at: string;
      at: unknown;
      staff_id: string;
      action: string;
      target: string;
      before: unknown;
      after: unknown;
    }>(
      `SELECT a.id::text AS id, ${CURSOR_AT} AS cursor_at, a.at, a.staff_id, a.action, a.target, a.before, a.after
         FROM staff_audit a
        WHERE ($1::text IS NULL OR a.staff_id = $1)
          AND ($2::text IS NULL OR a.action = $2 OR a.action LIKE $3 ESCAPE '\\')
          AND ($4::text IS NULL OR a.target ILIKE $4 ESCAPE '\\')
          AND ($5::timestamptz IS NULL OR (a.at, a.id) < ($5::timestamptz, $6::bigint))
        ORDER BY a.at DESC, a.id DESC
        LIMIT $7`,
      [
        staff ?? null,
        action ?? null,
        action ? `${likeLiteral(action)}.%` : null,
        target ? `%${likeLiteral(target)}%` : null,
        cursorAt,
        cursorId,
        limit + 1,
      ],
    );
    const page = rows.slice(0, limit);
    const profiles = await this.#profiles(
      this.#o.db,
      page.map((r) => r.staff_id),
    );
    const entries = page.map(
      (row): StaffAuditEntry => ({
        id: row.id,
        at: iso(toMs(row.at)!),
        staff: this.#person(row.staff_id, profiles.get(row.staff_id) ?? null),
        action: row.action,
        target: row.target,
        before: json<Record<string, unknown> | null>(row.before) ?? null,
        after: json<Record<string, unknown> | null>(row.after) ?? null,
      }),
    );
    const last = page.at(-1);
    return { entries, nextCursor: rows.length > limit && last ? `${last.cursor_at}_${last.id}` : null, actions: [...STAFF_AUDIT_ACTIONS] };
  }
}

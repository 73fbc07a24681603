import { announce, type Db, type Queryable } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { randomToken, type SecretBox, SecretUndecryptableError, sha256Hex } from '../lib/crypto';
import type { DiscordTokens } from '../lib/discord';
import type { SessionCache } from '../lib/session-cache';

/** A live session (the token itself is never kept: only its sha256 is stored). */
export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** The session's last staff request (epoch ms; written at most every TOUCH_INTERVAL_MS), or null: none yet. */
  staffSeenAt: number | null;
}

export interface StoredDiscordTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  scope: string;
}

interface TokenColumns {
  discord_access_token: string | null;
  discord_refresh_token: string | null;
  discord_token_expires_at: unknown;
  discord_scope: string | null;
}

/** Where SessionStore reports stored tokens it cannot decrypt (never with the values). */
export interface SessionLog {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** SESSIONS_PER_USER_MAX's default. */
const DEFAULT_SESSIONS_PER_USER = 20;

interface SessionRow {
  id: string;
  user_id: string;
  created_at: unknown;
  last_seen_at: unknown;
  expires_at: unknown;
  revoked_at: unknown;
  staff_seen_at: unknown;
}

/** How often last_seen_at is written at most (ms). */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * Server-side sessions: random 256-bit token in the cookie, its sha256 in the database, idle and
 * absolute expiry, revocable, at most `maxPerUser` live ones per user. Discord tokens live on the
 * session, AES-256-GCM encrypted with the session id as associated data; tokens that no configured
 * key decrypts any more (key changed or lost) count as an ended Discord grant. With a cache, a live
 * session is read from the database at most once per cache TTL (lib/session-cache.ts); every change
 * that ends one is announced (db/driver.ts, announce) once it commits.
 */
export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly idleMs: number,
    private readonly maxAgeMs: number,
    private readonly maxPerUser: number = DEFAULT_SESSIONS_PER_USER,
    private readonly log: SessionLog | null = null,
    private readonly cache: SessionCache | null = null,
  ) {}

  /**
   * Creates a session (a new token on every sign-in). Returns the token for the cookie. Run it in the
   * sign-in's transaction: it locks the user's row, so concurrent sign-ins of one user take turns, and
   * revokes the user's oldest live sessions beyond `maxPerUser` (their Discord tokens wiped; their
   * grants are not revoked at Discord, they lapse there).
   */
  async create(
    queryable: Queryable,
    userId: string,
    tokens: DiscordTokens,
    userAgent: string | undefined,
  ): Promise<{ token: string; session: Session }> {
    const now = this.clock();
    const token = randomToken(32);
    const id = randomToken(16);
    const expiresAt = now + this.maxAgeMs;
    await queryable.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    await queryable.query(
      `INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at,
         discord_access_token, discord_refresh_token, discord_token_expires_at, discord_scope, user_agent)
       VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz, $5::timestamptz, $6, $7, $8::timestamptz, $9, $10)`,
      [
        id,
        sha256Hex(token),
        userId,
        iso(now),
        iso(expiresAt),
        this.box.encrypt(tokens.accessToken, id),
        this.box.encrypt(tokens.refreshToken, id),
        iso(now + tokens.expiresIn * 1000),
        tokens.scope,
        userAgent?.slice(0, 300) ?? null,
      ],
    );
    // Live sessions (not revoked, not past either expiry), newest first: all but the newest
    // maxPerUser - 1 others (plus this one) end now. Dead unrevoked ones are left to purge().
    const evicted = await queryable.query<{ id: string }>(
      `UPDATE sessions SET revoked_at = $3::timestamptz, discord_access_token = NULL, discord_refresh_token = NULL
        WHERE id IN (SELECT id FROM sessions
                      WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2
                        AND expires_at > $3::timestamptz AND last_seen_at > $4::timestamptz
                      ORDER BY created_at DESC, id DESC
                      OFFSET $5
                        FOR UPDATE)
        RETURNING id`,
      [userId, id, iso(now), iso(now - this.idleMs), Math.max(0, this.maxPerUser - 1)],
    );
    for (const row of evicted.rows) announce(queryable, { kind: 'session', id: row.id });
    return { token, session: { id, userId, createdAt: now, lastSeenAt: now, expiresAt, staffSeenAt: null } };
  }

  /**
   * The live session for a cookie token, or null (unknown, revoked, idle or past its absolute expiry).
   * From the cache when it holds the session and it is live by what the cache knows; `fresh` reads the
   * database whatever the cache holds (a decision the cached copy would refuse).
   */
  async resolve(token: string, options: { fresh?: boolean } = {}): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const hash = sha256Hex(token);
    const now = this.clock();
    const cached = options.fresh ? null : this.cache?.session(hash);
    // Live as far as this copy knows (another instance may have seen it since: the database decides otherwise).
    if (cached && now < cached.expiresAt && now - cached.lastSeenAt < this.idleMs) {
      return (await this.#touch(cached, now)) ? cached : null;
    }
    const ticket = this.cache?.ticket() ?? 0;
    const { rows } = await this.db.query<SessionRow>(
      'SELECT id, user_id, created_at, last_seen_at, expires_at, revoked_at, staff_seen_at FROM sessions WHERE token_hash = $1',
      [hash],
    );
    const row = rows[0];
    if (!row || row.revoked_at !== null) return null;
    const session: Session = {
      id: row.id,
      userId: row.user_id,
      createdAt: toMs(row.created_at)!,
      lastSeenAt: toMs(row.last_seen_at)!,
      expiresAt: toMs(row.expires_at)!,
      staffSeenAt: toMs(row.staff_seen_at),
    };
    if (now >= session.expiresAt || now - session.lastSeenAt >= this.idleMs) return null;
    if (!(await this.#touch(session, now))) return null;
    this.cache?.fillSession(hash, session, ticket);
    return session;
  }

  /** Writes last_seen_at when it is TOUCH_INTERVAL_MS old; false when the session turns out ended. */
  async #touch(session: Session, now: number): Promise<boolean> {
    if (now - session.lastSeenAt < TOUCH_INTERVAL_MS) return true;
    const { rows } = await this.db.query<{ id: string }>(
      'UPDATE sessions SET last_seen_at = $2::timestamptz WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [session.id, iso(now)],
    );
    if (rows.length === 0) {
      this.cache?.invalidate({ kind: 'session', id: session.id });
      return false;
    }
    session.lastSeenAt = now;
    return true;
  }

  /** How many live sessions (not revoked, not past either expiry) the user has. */
  async countLive(userId: string): Promise<number> {
    const now = this.clock();
    const { rows } = await this.db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM sessions
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2::timestamptz AND last_seen_at > $3::timestamptz`,
      [userId, iso(now), iso(now - this.idleMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Ends every live session of a user (staff, from support search): revoked, Discord tokens wiped
   * (their grants are not revoked at Discord; they lapse there). Run it in the transaction of its audit
   * row. Returns how many were live.
   */
  async revokeAllOf(queryable: Queryable, userId: string): Promise<number> {
    const now = this.clock();
    // The user's row, as a sign-in takes it (create): one under way finishes first, and is ended here too.
    await queryable.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows } = await queryable.query<{ live: boolean }>(
      `UPDATE sessions SET revoked_at = $2::timestamptz, discord_access_token = NULL, discord_refresh_token = NULL
        WHERE user_id = $1 AND revoked_at IS NULL
        RETURNING (expires_at > $2::timestamptz AND last_seen_at > $3::timestamptz) AS live`,
      [userId, iso(now), iso(now - this.idleMs)],
    );
    announce(queryable, { kind: 'user-sessions', id: userId });
    return rows.filter((r) => r.live).length;
  }

  /**
   * Records a staff request on the session (at most every TOUCH_INTERVAL_MS): the start of the staff
   * idle window (auth.ts, requireStaffSession).
   */
  async touchStaff(session: Session, now: number): Promise<void> {
    if (session.staffSeenAt !== null && now - session.staffSeenAt < TOUCH_INTERVAL_MS && now >= session.staffSeenAt) return;
    await this.db.query('UPDATE sessions SET staff_seen_at = $2::timestamptz WHERE id = $1 AND revoked_at IS NULL', [session.id, iso(now)]);
    session.staffSeenAt = now;
  }

  /**
   * Ends a session server-side: marks it revoked and wipes its Discord tokens. Returns the tokens it
   * held (decrypted) so the caller can revoke the grant at Discord, or null if it was already ended
   * or its tokens no longer decrypt (the session is revoked all the same).
   */
  async revoke(sessionId: string, queryable: Queryable = this.db): Promise<StoredDiscordTokens | null> {
    const { rows } = await queryable.query<TokenColumns>(
      `UPDATE sessions s SET revoked_at = $2::timestamptz, discord_access_token = NULL, discord_refresh_token = NULL
         FROM (SELECT id, discord_access_token, discord_refresh_token, discord_token_expires_at, discord_scope
                 FROM sessions WHERE id = $1 AND revoked_at IS NULL FOR UPDATE) old
        WHERE s.id = old.id
        RETURNING old.discord_access_token, old.discord_refresh_token, old.discord_token_expires_at, old.discord_scope`,
      [sessionId, iso(this.clock())],
    );
    announce(queryable, { kind: 'session', id: sessionId });
    const row = rows[0];
    if (!row?.discord_access_token || !row.discord_refresh_token) return null;
    return this.#open(sessionId, row, 'revoke')?.tokens ?? null;
  }

  /**
   * The session's Discord tokens, decrypted; null when it has none, is ended, or they no longer
   * decrypt (an ended grant: the caller signs the user out). Tokens sealed with a previous key are
   * sealed again with the current one.
   */
  async tokens(sessionId: string): Promise<StoredDiscordTokens | null> {
    const { rows } = await this.db.query<TokenColumns>(
      'SELECT discord_access_token, discord_refresh_token, discord_token_expires_at, discord_scope FROM sessions WHERE id = $1 AND revoked_at IS NULL',
      [sessionId],
    );
    const row = rows[0];
    if (!row?.discord_access_token || !row.discord_refresh_token) return null;
    const opened = this.#open(sessionId, row, 'tokens');
    if (!opened) return null;
    if (opened.stale) {
      // Only if nothing replaced them meanwhile (a concurrent refresh's saveTokens wins).
      await this.db.query(
        `UPDATE sessions SET discord_access_token = $4, discord_refresh_token = $5
          WHERE id = $1 AND revoked_at IS NULL AND discord_access_token = $2 AND discord_refresh_token = $3`,
        [
          sessionId,
          row.discord_access_token,
          row.discord_refresh_token,
          this.box.encrypt(opened.tokens.accessToken, sessionId),
          this.box.encrypt(opened.tokens.refreshToken, sessionId),
        ],
      );
    }
    return opened.tokens;
  }

  async saveTokens(sessionId: string, tokens: DiscordTokens): Promise<void> {
    await this.db.query(
      `UPDATE sessions SET discord_access_token = $2, discord_refresh_token = $3, discord_token_expires_at = $4::timestamptz, discord_scope = $5
        WHERE id = $1 AND revoked_at IS NULL`,
      [
        sessionId,
        this.box.encrypt(tokens.accessToken, sessionId),
        this.box.encrypt(tokens.refreshToken, sessionId),
        iso(this.clock() + tokens.expiresIn * 1000),
        tokens.scope,
      ],
    );
  }

  /** Removes sessions that ended more than 30 days ago (called now and then on sign-in). */
  async purge(queryable: Queryable = this.db): Promise<void> {
    const cutoff = iso(this.clock() - 30 * 24 * 3600 * 1000);
    await queryable.query('DELETE FROM sessions WHERE expires_at < $1::timestamptz OR revoked_at < $1::timestamptz', [cutoff]);
  }

  /** The decrypted tokens (and whether a previous key sealed them), or null when they do not decrypt. */
  #open(sessionId: string, row: TokenColumns, during: 'tokens' | 'revoke'): { tokens: StoredDiscordTokens; stale: boolean } | null {
    try {
      const access = this.box.open(row.discord_access_token!, sessionId);
      const refresh = this.box.open(row.discord_refresh_token!, sessionId);
      return {
        tokens: {
          accessToken: access.plaintext,
          refreshToken: refresh.plaintext,
          expiresAt: toMs(row.discord_token_expires_at) ?? 0,
          scope: row.discord_scope ?? '',
        },
        stale: access.stale || refresh.stale,
      };
    } catch (error) {
      if (!(error instanceof SecretUndecryptableError)) throw error;
      this.log?.warn(
        { sessionId, during, reason: error.reason, keyId: error.keyId },
        'stored Discord tokens do not decrypt (token encryption key changed or lost?): treated as an ended grant',
      );
      return null;
    }
  }
}

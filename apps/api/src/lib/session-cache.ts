import type { AuthenticatedMe, Guild } from '@tickety/api-contract';
import type { Session } from '../services/sessions';
import type { Clock } from './clock';
import type { DataChange } from '../db/driver';
import type { InvalidationBus } from './invalidation-bus';

/** A user's state as @me shows it, with their guilds by id for access checks. */
export interface UserState {
  me: AuthenticatedMe;
  /** When the stored guild list was fetched from Discord (epoch ms), or null: never. */
  refreshedAt: number | null;
  guilds: ReadonlyMap<string, Guild>;
}

interface Entry<V> {
  value: V;
  storedAt: number;
}

/** A snapshot of the cache's invalidation count, taken before a read of the database (see fill). */
export type FillTicket = number;

export interface SessionCacheLimits {
  /** How long an entry is used without asking the database again (ms); 0 turns the cache off. */
  ttlMs: number;
  maxSessions: number;
  maxUsers: number;
}

/**
 * This instance's memory of sessions (by token hash), user states (by user id) and servers' live
 * configurations as their page reads them (by server id), each kept at most
 * `ttlMs`. Whatever ends a session or changes a user's state calls `invalidate` once it has committed:
 * applied here at once and published on the bus for the other instances, which apply it as it
 * arrives. A read that began before an invalidation (its FillTicket) is never stored: it may hold
 * the rows from before the change. Over its size limits the oldest entries go first.
 */
export class SessionCache {
  readonly #sessions = new Map<string, Entry<Session>>();
  readonly #hashOfSession = new Map<string, string>();
  readonly #hashesOfUser = new Map<string, Set<string>>();
  readonly #users = new Map<string, Entry<UserState>>();
  readonly #servers = new Map<string, Entry<object>>();
  #invalidations = 0;

  constructor(
    private readonly limits: SessionCacheLimits,
    private readonly clock: Clock,
    private readonly bus: InvalidationBus,
  ) {
    bus.subscribe((change) => this.#apply(change));
  }

  get enabled(): boolean {
    return this.limits.ttlMs > 0;
  }

  /** Taken before reading the database for a fill. */
  ticket(): FillTicket {
    return this.#invalidations;
  }

  session(tokenHash: string): Session | null {
    return this.#fresh(this.#sessions, tokenHash);
  }

  fillSession(tokenHash: string, session: Session, ticket: FillTicket): void {
    if (!this.enabled || ticket !== this.#invalidations) return;
    this.#dropSession(tokenHash);
    this.#store(this.#sessions, tokenHash, session, this.limits.maxSessions, (evicted) => this.#dropSession(evicted));
    this.#hashOfSession.set(session.id, tokenHash);
    const hashes = this.#hashesOfUser.get(session.userId) ?? new Set<string>();
    hashes.add(tokenHash);
    this.#hashesOfUser.set(session.userId, hashes);
  }

  user(userId: string): UserState | null {
    return this.#fresh(this.#users, userId);
  }

  fillUser(userId: string, state: UserState, ticket: FillTicket): void {
    if (!this.enabled || ticket !== this.#invalidations) return;
    this.#users.delete(userId);
    this.#store(this.#users, userId, state, this.limits.maxUsers, (evicted) => this.#users.delete(evicted));
  }

  /** A server's live configuration as its dashboard page reads it (services/server-config.ts). */
  server<V extends object>(guildId: string): V | null {
    return this.#fresh(this.#servers, guildId) as V | null;
  }

  fillServer(guildId: string, value: object, ticket: FillTicket): void {
    if (!this.enabled || ticket !== this.#invalidations) return;
    this.#servers.delete(guildId);
    this.#store(this.#servers, guildId, value, this.limits.maxUsers, (evicted) => this.#servers.delete(evicted));
  }

  /** Drops what changed here and tells the other instances. Call it after the change has committed. */
  invalidate(invalidation: DataChange): void {
    this.#apply(invalidation);
    this.bus.publish(invalidation);
  }

  /** Entries held now (for /api/status-like figures and tests). */
  get size(): { sessions: number; users: number; servers: number } {
    return { sessions: this.#sessions.size, users: this.#users.size, servers: this.#servers.size };
  }

  #apply(invalidation: DataChange): void {
    this.#invalidations++;
    switch (invalidation.kind) {
      case 'session': {
        const hash = this.#hashOfSession.get(invalidation.id);
        if (hash) this.#dropSession(hash);
        break;
      }
      case 'user-sessions':
        for (const hash of [...(this.#hashesOfUser.get(invalidation.id) ?? [])]) this.#dropSession(hash);
        break;
      case 'user':
        this.#users.delete(invalidation.id);
        break;
      case 'server':
        this.#servers.delete(invalidation.id);
        break;
      case 'servers':
        this.#servers.clear();
        break;
      case 'all':
        this.#sessions.clear();
        this.#hashOfSession.clear();
        this.#hashesOfUser.clear();
        this.#users.clear();
        this.#servers.clear();
        break;
    }
  }

  #dropSession(tokenHash: string): void {
    const entry = this.#sessions.get(tokenHash);
    if (!entry) return;
    this.#sessions.delete(tokenHash);
    this.#hashOfSession.delete(entry.value.id);
    const hashes = this.#hashesOfUser.get(entry.value.userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.#hashesOfUser.delete(entry.value.userId);
  }

  #fresh<V>(map: Map<string, Entry<V>>, key: string): V | null {
    if (!this.enabled) return null;
    const entry = map.get(key);
    if (!entry) return null;
    const age = this.clock() - entry.storedAt;
    // A clock that went back (tests, a corrected system clock) counts as expired, as an old entry does.
    if (age >= this.limits.ttlMs || age < 0) return null;
    return entry.value;
  }

  #store<V>(map: Map<string, Entry<V>>, key: string, value: V, max: number, evict: (key: string) => void): void {
    while (map.size >= max) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      evict(oldest);
    }
    map.set(key, { value, storedAt: this.clock() });
  }
}

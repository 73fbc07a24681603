/**
 * The tiny database driver interface the API uses (PostgreSQL dialect everywhere). Two
 * implementations: PGlite (embedded, a data folder or memory) and `pg` (a pool, DATABASE_URL).
 */
interface QueryResult<T> {
  rows: T[];
}

export interface Queryable {
  /** One statement with `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Tells the change's listeners (Db.onChange): inside a transaction once it commits, never if it rolls back; else at once. Use announce(). */
  announce?(change: DataChange): void;
}

/**
 * A change that caches of other rows must hear about (lib/session-cache.ts): a session ended, every
 * session of a user ended, a user's state (what @me shows) changed, a server's live configuration
 * changed, any server's premium may have, or anything may have.
 */
export type DataChange =
  | { kind: 'session'; id: string }
  | { kind: 'user-sessions'; id: string }
  | { kind: 'user'; id: string }
  | { kind: 'server'; id: string }
  | { kind: 'servers' }
  | { kind: 'all' };

/**
 * Announces what `queryable` wrote once it is visible to every other connection: after the commit of
 * the transaction it belongs to, or at once outside one. A cache told any earlier could read and keep
 * the rows from before the change.
 */
export function announce(queryable: Queryable, change: DataChange): void {
  queryable.announce?.(change);
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  close(): Promise<void>;
  /** The connection pool's use (PostgreSQL); absent for an embedded database (one connection). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /** Where announce()'s changes go (boundedDb only). */
  onChange?(listener: (change: DataChange) => void): void;
}

/** The database could not be reached (connection refused, timed out, shutting down...): answer 503. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable.', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // The disk under PGlite's data folder (or a socket) failing: not this query's fault.
  'ENOSPC',
  'EIO',
  'EROFS',
  'EMFILE',
  'ENFILE',
]);

/**
 * True for errors that mean "the database is not reachable right now" rather than "this query is
 * wrong": network errors, pool/connect timeouts, and PostgreSQL's connection (08), resource (53),
 * operator-intervention (57, e.g. admin shutdown, statement timeout) classes.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!error || typeof error !== 'object') return false;
  const failure = error as { code?: unknown; message?: unknown };
  if (typeof failure.code === 'string') {
    if (NETWORK_CODES.has(failure.code)) return true;
    if (/^(08|53|57)/.test(failure.code)) return true;
  }
  // PGlite is PostgreSQL in WebAssembly: an abort (out of memory, a trap) leaves it unusable.
  if ((error as { name?: unknown }).name === 'RuntimeError') return true;
  const message = typeof failure.message === 'string' ? failure.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|Query read timeout|Aborted\(|database queue is full/i.test(
    message,
  );
}

/**
 * Fails fast instead of piling up: at most `max` database calls (a transaction counts once) wait or
 * run at once; past that a call fails at once with DatabaseUnavailableError (503, Retry-After), so a
 * database that stalls (a black-holed server, a wedged PGlite) cannot gather every request. It
 * delivers announce()'s changes to its onChange listeners, a transaction's once it has committed.
 */
export function boundedDb<T extends Db>(db: T, max: number): T & { readonly pending: number } {
  let pending = 0;
  const listeners: Array<(change: DataChange) => void> = [];
  const tell = (change: DataChange) => {
    for (const listener of listeners) listener(change);
  };
  const run = async <R>(fn: () => Promise<R>): Promise<R> => {
    if (pending >= max) throw new DatabaseUnavailableError(new Error(`The database queue is full (${max} calls waiting or running).`));
    pending++;
    try {
      return await fn();
    } finally {
      pending--;
    }
  };
  return {
    ...db,
    query: (sql, params) => run(() => db.query(sql, params)),
    exec: (sql) => run(() => db.exec(sql)),
    transaction: async (fn) => {
      const committed: DataChange[] = [];
      const result = await run(() =>
        db.transaction((tx) => fn({ query: (sql, params) => tx.query(sql, params), exec: (sql) => tx.exec(sql), announce: (change) => committed.push(change) })),
      );
      for (const change of committed) tell(change);
      return result;
    },
    announce: (change) => tell(change),
    onChange: (listener) => listeners.push(listener),
    close: () => db.close(),
    get pending() {
      return pending;
    },
  };
}

/** Wraps a driver call so unreachable-database errors become DatabaseUnavailableError. */
export async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUnavailable(error) && !(error instanceof DatabaseUnavailableError)) throw new DatabaseUnavailableError(error);
    throw error;
  }
}

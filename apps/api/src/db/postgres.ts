import { createHash } from 'node:crypto';
import pg from 'pg';
import { type Db, guard, isUnavailable, type Queryable } from './driver';

interface PostgresOptions {
  url: string;
  /** Schema to use (search_path); created when missing. Tests isolate each suite this way. */
  schema?: string | null;
  max?: number;
  /** How long to wait for a connection before answering 503 (ms). */
  connectionTimeoutMs?: number;
  /** Per-statement limit (ms), so a stuck database never hangs requests. */
  statementTimeoutMs?: number;
  onError?: (error: Error) => void;
  /** Queries with parameters as named prepared statements (default); off behind a proxy that pools by transaction. */
  namedStatements?: boolean;
}

/** Named statements a pool prepares at most (each connection keeps the ones it ran); past it, queries go unnamed. */
const NAMED_STATEMENTS_MAX = 2_000;
const statementNames = new Map<string, string>();

/**
 * The name a query with parameters is prepared under: the same for the same SQL text, so each
 * connection parses and plans it once and then only binds and runs it (planning a server's
 * configuration read took six times as long as running it). None past NAMED_STATEMENTS_MAX texts.
 */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < NAMED_STATEMENTS_MAX) {
    name = `tickety_${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
    statementNames.set(sql, name);
  }
  // '': this SQL's plan went stale once (see isStalePlan); it runs unprepared from then on.
  return name || undefined;
}

/** PostgreSQL's refusal to run a prepared statement whose result type changed since it was planned. */
function isStalePlan(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown } | null;
  return failure?.code === '0A000' && /cached plan must not change result type/.test(String(failure.message));
}

/** A `pg` pool. Connection errors become DatabaseUnavailableError (503 with Retry-After). */
export async function createPostgresDb(options: PostgresOptions): Promise<Db> {
  const schema = options.schema ?? null;
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // Server side: PostgreSQL cancels a statement running longer. Client side: a server that stops
    // answering (black-holed network) fails the query after a little more, and TCP keep-alive finds
    // dead idle connections.
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    query_timeout: (options.statementTimeoutMs ?? 15_000) + 2_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', (error) => options.onError?.(error));
  if (schema) await guard(() => pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`));

  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: (sql, params) =>
      guard(async () => {
        const name = params === undefined || options.namedStatements === false ? undefined : statementName(sql);
        if (!name) return { rows: (await client.query({ text: sql, values: params })).rows };
        try {
          return { rows: (await client.query({ name, text: sql, values: params })).rows };
        } catch (error) {
          // A migration changed what the statement answers while this connection kept its plan
          // (an instance of the previous release during a rolling deploy): run it unprepared.
          if (!isStalePlan(error)) throw error;
          statementNames.set(sql, '');
          return { rows: (await client.query({ text: sql, values: params })).rows };
        }
      }),
    exec: (sql) => guard(async () => void (await client.query(sql))),
  });
  const base = wrap(pool);
  let closed = false;
  const max = options.max ?? 10;
  return {
    kind: 'postgres',
    ...base,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    transaction: (fn) =>
      guard(async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const result = await fn(wrap(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // A connection that failed (reset, timed out) is not given back to the pool.
          broken = isUnavailable(error);
          if (!broken) await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
          throw error;
        } finally {
          client.release(broken);
        }
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

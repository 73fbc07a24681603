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
    query: (sql, params) => guard(async () => ({ rows: (await client.query(sql, params as unknown[] | undefined)).rows })),
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

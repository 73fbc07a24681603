import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { guard, type Queryable } from '../../src/db/driver';
import { createPostgresDb } from '../../src/db/postgres';
import type { SuiteDb, TestDatabase } from './db';

/**
 * A database that fails on demand, wrapped around a suite's database.
 * - `failWhen(sql => error)`: a query whose SQL matches throws that error (e.g. a bug-like 42P01);
 * - `down()` / `up()`: an outage. On PostgreSQL the connections really go through a TCP proxy that is
 *   cut (open connections reset, new ones dropped); on PGlite (in process, nothing to cut) every call
 *   fails the way a closed PGlite does, through the driver's own error mapping.
 */
export interface FaultyDb extends SuiteDb {
  failWhen(rule: ((sql: string) => Error | null) | null): void;
  down(): void;
  up(): void;
  /**
   * A database that stops answering without closing anything (a black-holed network): on
   * PostgreSQL the proxy keeps every connection open but forwards nothing; `up()` ends it. PGlite is
   * in process and has no network to lose: there this is `down()`.
   */
  blackhole(): void;
  /** Closes what the wrapper opened (proxy, pool). */
  dispose(): Promise<void>;
}

interface Proxy {
  port: number;
  cut(): void;
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

async function tcpProxy(host: string, port: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let open = true;
  let holes = false;
  const server: Server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    sockets.add(client);
    if (holes) {
      // Accept and never answer.
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = connect(port, host);
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk) => {
      if (!holes) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!holes) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    blackhole: () => {
      holes = true;
    },
    restore: () => {
      open = true;
      if (holes) {
        // Connections that lost bytes are unusable: drop them, new ones work.
        holes = false;
        for (const s of sockets) s.destroy();
        sockets.clear();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function faultyDb(db: SuiteDb, database: TestDatabase, options: { statementTimeoutMs?: number } = {}): Promise<FaultyDb> {
  let rule: ((sql: string) => Error | null) | null = null;
  let isDown = false;
  let inner: SuiteDb = db;
  let proxy: Proxy | null = null;
  let pool: Awaited<ReturnType<typeof createPostgresDb>> | null = null;
  if (database.name === 'postgres') {
    const url = new URL(database.url!);
    proxy = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    pool = await createPostgresDb({
      url: url.toString(),
      schema: db.schema,
      max: 4,
      connectionTimeoutMs: 2_000,
      ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
    });
    inner = { ...pool, schema: db.schema, kill: () => pool!.close() };
  }
  const closedPglite = () => guard(() => Promise.reject(new Error('PGlite is closed')));
  const check = async (sql: string): Promise<void> => {
    const error = rule?.(sql);
    if (error) throw error;
    if (isDown && database.name === 'pglite') await closedPglite();
  };
  const wrap = (inner: Queryable): Queryable => ({
    query: async (sql, params) => {
      await check(sql);
      return inner.query(sql, params);
    },
    exec: async (sql) => {
      await check(sql);
      return inner.exec(sql);
    },
  });
  return {
    kind: db.kind,
    schema: db.schema,
    ...wrap(inner),
    transaction: async (fn) => {
      if (isDown && database.name === 'pglite') await closedPglite();
      return inner.transaction((tx) => fn(wrap(tx)));
    },
    close: async () => undefined,
    kill: () => inner.kill(),
    failWhen: (r) => {
      rule = r;
    },
    down: () => {
      isDown = true;
      proxy?.cut();
    },
    blackhole: () => {
      if (proxy) proxy.blackhole();
      else isDown = true;
    },
    up: () => {
      isDown = false;
      proxy?.restore();
    },
    dispose: async () => {
      await pool?.close();
      await proxy?.close();
    },
  };
}

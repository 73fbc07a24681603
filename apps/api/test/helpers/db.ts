import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../src/db/driver';
import { PGLITE_EXTENSIONS, pgliteDb } from '../../src/db/pglite';
import { createPostgresDb } from '../../src/db/postgres';

/**
 * The databases every database test runs against: PGlite always, PostgreSQL too when
 * TEST_DATABASE_URL is set. Use as `describe.each(databases())('... on $name', (database) => ...)`.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** PostgreSQL only. */
  url: string | null;
}

export function databases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'pglite', url: null }];
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (url) list.push({ name: 'postgres', url });
  return list;
}

/** A suite's database: its own schema, migrated by the app (or the test). */
export interface SuiteDb extends Db {
  readonly schema: string;
  /** Takes the database away for real (PGlite closed, pool ended): every later query fails. */
  kill(): Promise<void>;
}

export function schemaName(): string {
  return `t_${process.pid}_${randomBytes(5).toString('hex')}`;
}

// One PGlite per test worker (it boots slowly): each suite gets its own schema in it, so suites and
// files never see each other's data. Files in a worker share modules (vitest `isolate: false`), hence
// this instance; it lives as long as the worker (in memory, nothing to clean up).
let sharedPglite: Promise<PGlite> | null = null;

function pgliteInstance(): Promise<PGlite> {
  sharedPglite ??= PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  return sharedPglite;
}

export async function closeSharedPglite(): Promise<void> {
  if (!sharedPglite) return;
  const instance = await sharedPglite;
  sharedPglite = null;
  if (!instance.closed) await instance.close();
}

/** The URL of a superuser-ish connection for creating and dropping schemas. */
const adminPools = new Map<string, pg.Pool>();

function adminPool(url: string): pg.Pool {
  let pool = adminPools.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined);
    adminPools.set(url, pool);
  }
  return pool;
}

export async function closeAdminPools(): Promise<void> {
  const pools = [...adminPools.values()];
  adminPools.clear();
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
}

/**
 * Opens a fresh, empty database for one suite: a new schema in the file's PGlite (search_path set
 * to it; suites in a file run one after another), or a new PostgreSQL schema through the driver's
 * DATABASE_SCHEMA support. `drop()` removes it.
 */
export async function openSuiteDb(database: TestDatabase): Promise<{ db: SuiteDb; drop(): Promise<void> }> {
  const schema = schemaName();
  if (database.name === 'pglite') {
    const instance = await pgliteInstance();
    await instance.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    const inner = pgliteDb(instance);
    let killed = false;
    const db: SuiteDb = {
      ...inner,
      schema,
      // The app does not close a database it was given; the file's instance outlives the suite.
      close: async () => undefined,
      kill: async () => {
        killed = true;
        await instance.close();
        if (sharedPglite) sharedPglite = null;
      },
    };
    return {
      db,
      drop: async () => {
        if (killed || instance.closed) return;
        await instance.exec(`SET search_path TO public; DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    };
  }
  const url = database.url!;
  const inner = await createPostgresDb({ url, schema, max: 4, connectionTimeoutMs: 3_000 });
  const db: SuiteDb = { ...inner, schema, kill: () => inner.close() };
  return {
    db,
    drop: async () => {
      await inner.close();
      await adminPool(url).query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/** Registers beforeAll/afterAll in the current describe: a fresh database for the suite. */
export function useSuiteDb(database: TestDatabase): { readonly db: SuiteDb } {
  let opened: Awaited<ReturnType<typeof openSuiteDb>> | null = null;
  beforeAll(async () => {
    opened = await openSuiteDb(database);
  });
  afterAll(async () => {
    await opened?.drop();
    opened = null;
  });
  return {
    get db() {
      if (!opened) throw new Error('The suite database is not open (use it inside tests or hooks).');
      return opened.db;
    },
  };
}

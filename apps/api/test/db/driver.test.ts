import { describe, expect, it } from 'vitest';
import { announce, boundedDb, DatabaseUnavailableError, type DataChange, type Db, guard, isUnavailable } from '../../src/db/driver';
import { createPostgresDb } from '../../src/db/postgres';
import { databases, schemaName, useSuiteDb } from '../helpers/db';

/** WebAssembly's own RuntimeError (what an aborting PGlite throws); its type is not in this project's lib. */
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly.RuntimeError;

describe('isUnavailable', () => {
  it('recognises network errors, connection/resource/operator SQLSTATE classes and pool/PGlite messages', () => {
    const unavailable: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      Object.assign(new Error('x'), { code: '08006' }), // connection failure
      Object.assign(new Error('x'), { code: '53300' }), // too many connections
      Object.assign(new Error('x'), { code: '57P01' }), // admin shutdown
      Object.assign(new Error('x'), { code: '57014' }), // statement timeout
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Cannot use a pool after calling end on the pool'),
      new Error('PGlite is closed'),
      new DatabaseUnavailableError(null),
      // PGlite's WebAssembly aborting (out of memory, a trap): it stays unusable.
      new WasmRuntimeError('Aborted(). Build with -sASSERTIONS for more info.'),
      new WasmRuntimeError('memory access out of bounds'),
      // The disk under PGlite's data folder failing.
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }),
      // pg's client-side read timeout: a server that stopped answering.
      new Error('Query read timeout'),
    ];
    for (const e of unavailable) expect(isUnavailable(e), String(e)).toBe(true);
  });

  it('leaves query errors alone (they are bugs: 500, logged)', () => {
    const errors: unknown[] = [
      Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new TypeError('x is undefined'),
      null,
      'string',
      42,
    ];
    for (const e of errors) expect(isUnavailable(e), String(e)).toBe(false);
  });
});

describe('boundedDb', () => {
  it('fails fast past its limit of calls in flight, counting a transaction once, and frees the slots', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inner: Db = {
      kind: 'pglite',
      query: async () => {
        await gate;
        return { rows: [] };
      },
      exec: async () => undefined,
      transaction: async (fn) => fn(inner),
      close: async () => undefined,
    };
    const db = boundedDb(inner, 2);
    const held = [db.query('SELECT 1'), db.transaction((tx) => tx.query('SELECT 1'))];
    expect(db.pending).toBe(2);
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    const refused = await db.exec('SELECT 1').catch((error: unknown) => error);
    expect(((refused as Error).cause as Error).message).toMatch(/queue is full \(2 calls/);
    release();
    await Promise.all(held);
    expect(db.pending).toBe(0);
    await expect(db.query('SELECT 1')).resolves.toEqual({ rows: [] });
  });
});

describe('guard', () => {
  it('wraps unavailable errors once and passes others through', async () => {
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    const wrapped = await guard(() => Promise.reject(refused)).catch((e: unknown) => e);
    expect(wrapped).toBeInstanceOf(DatabaseUnavailableError);
    expect((wrapped as Error).cause).toBe(refused);
    const again = await guard(() => Promise.reject(wrapped)).catch((e: unknown) => e);
    expect(again).toBe(wrapped);
    const bug = new Error('bug');
    expect(await guard(() => Promise.reject(bug)).catch((e: unknown) => e)).toBe(bug);
    expect(await guard(async () => 7)).toBe(7);
  });
});

describe('createPostgresDb', () => {
  it('answers DatabaseUnavailableError when PostgreSQL cannot be reached', async () => {
    // Port 1 on loopback: connection refused, at once.
    const attempt = createPostgresDb({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'x', connectionTimeoutMs: 2_000 });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseUnavailableError);
    const db = await createPostgresDb({ url: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMs: 2_000 });
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(db.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await db.close();
    await db.close();
  });

  it('refuses an unsafe schema name', async () => {
    await expect(createPostgresDb({ url: 'postgres://x@127.0.0.1:1/x', schema: 'a; DROP TABLE users' })).rejects.toThrow(/Invalid schema name/);
  });
});

describe.each(databases())('announce on $name', (database) => {
  const suite = useSuiteDb(database);

  it("tells a transaction's changes once it has committed, never when it rolled back, and others at once", async () => {
    const db = boundedDb(suite.db, 10);
    const heard: DataChange[] = [];
    db.onChange?.((change) => heard.push(change));

    await db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      announce(tx, { kind: 'user', id: 'committed' });
      // Not yet: other connections cannot see the transaction's rows before its commit.
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([{ kind: 'user', id: 'committed' }]);

    // A real failure (division by zero) rolls the transaction back: nothing changed, nothing is told.
    const failed = db.transaction(async (tx) => {
      announce(tx, { kind: 'user', id: 'rolled back' });
      await tx.query('SELECT 1 / 0');
    });
    await expect(failed).rejects.toThrow(/division by zero/);
    expect(heard).toHaveLength(1);

    announce(db, { kind: 'session', id: 'outside' });
    expect(heard.at(-1)).toEqual({ kind: 'session', id: 'outside' });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('prepared statements on PostgreSQL', () => {
  it('plans a query once per connection, and runs it unprepared once a migration changed its result type', async () => {
    const schema = schemaName();
    const db = await createPostgresDb({ url: process.env.TEST_DATABASE_URL!, schema, max: 1 });
    try {
      await db.exec('CREATE TABLE prepared_probe (id int PRIMARY KEY, label int); INSERT INTO prepared_probe VALUES (1, 7)');
      const read = 'SELECT label FROM prepared_probe WHERE id = $1';
      expect((await db.query(read, [1])).rows).toEqual([{ label: 7 }]);
      const prepared = await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1', [read]);
      expect(Number(prepared.rows[0]!.n)).toBe(1);
      // What a rolling deploy does under an old instance's connection: the column changes type.
      await db.exec("ALTER TABLE prepared_probe ALTER COLUMN label TYPE text USING label::text; UPDATE prepared_probe SET label = 'seven'");
      expect((await db.query(read, [1])).rows).toEqual([{ label: 'seven' }]);
      expect((await db.query(read, [1])).rows).toEqual([{ label: 'seven' }]);
    } finally {
      await db.exec(`SET search_path TO public; DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await db.close();
    }
  });

  it('runs every query unnamed when asked to (a proxy that pools by transaction)', async () => {
    const db = await createPostgresDb({ url: process.env.TEST_DATABASE_URL!, max: 1, namedStatements: false });
    try {
      expect((await db.query<{ one: number }>('SELECT $1::int AS one', [1])).rows).toEqual([{ one: 1 }]);
      const prepared = await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements');
      expect(Number(prepared.rows[0]!.n)).toBe(0);
    } finally {
      await db.close();
    }
  });
});

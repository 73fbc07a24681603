import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, guard, isUnavailable } from '../../src/db/driver';
import { createPostgresDb } from '../../src/db/postgres';

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

import { randomBytes } from 'node:crypto';
import { beforeAll } from 'vitest';
import { migrate } from '../../src/db/migrate';
import { SecretBox } from '../../src/lib/crypto';
import { MIGRATIONS_DIR } from '../../src/plugins/app/db';
import { testClock } from '../helpers/clock';
import { type TestDatabase, useSuiteDb } from '../helpers/db';

/** A migrated suite database, a clock and a SecretBox: what the services are built from. */
export function useServiceDeps(database: TestDatabase) {
  const suite = useSuiteDb(database);
  const clock = testClock();
  const box = new SecretBox(randomBytes(32));
  beforeAll(async () => {
    await migrate(suite.db, MIGRATIONS_DIR);
  });
  return {
    get db() {
      return suite.db;
    },
    clock,
    box,
  };
}

export async function insertUser(db: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, id: string): Promise<void> {
  await db.query(
    `INSERT INTO users (id, username, created_at, updated_at) VALUES ($1, $2, now(), now()) ON CONFLICT (id) DO NOTHING`,
    [id, `user${id.slice(-4)}`],
  );
}

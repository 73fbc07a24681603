import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate';
import { createPostgresDb } from '../../src/db/postgres';
import { MIGRATIONS_DIR } from '../../src/plugins/app/db';
import { databases, useSuiteDb } from '../helpers/db';

/** The real migrations, in order. */
const ALL = readdirSync(MIGRATIONS_DIR)
  .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
  .sort();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickety-migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

async function tables(db: { query: (sql: string) => Promise<{ rows: Array<{ t: string }> }> }): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  return rows.map((r) => r.t);
}

describe.each(databases())('migrations on $name', (database) => {
  describe('the real migrations', () => {
    const suite = useSuiteDb(database);

    it('apply once, and a second run is a no-op', async () => {
      const first = await migrate(suite.db, MIGRATIONS_DIR);
      expect(first).toEqual({ applied: ALL, total: ALL.length });
      expect(ALL.slice(0, 2)).toEqual(['001_init.sql', '002_sessions_hardening.sql']);
      expect(await tables(suite.db)).toEqual([
        'announcements',
        'billing_checkouts',
        'billing_customers',
        'blob_deletions',
        'blobs',
        'bot_commands',
        'bot_keys',
        'bot_servers',
        'bot_shards',
        'guilds',
        'oauth_states',
        'panel_posts',
        'premium_slots',
        'schema_migrations',
        'server_config_versions',
        'sessions',
        'staff_audit',
        'staff_members',
        'subscriptions',
        'tag_uses',
        'ticket_attachments',
        'ticket_events',
        'ticket_messages',
        'ticket_slots',
        'tickets',
        'transcript_attachments',
        'transcripts',
        'user_guilds',
        'users',
        'web_logs',
        'webhook_events',
      ]);
      const second = await migrate(suite.db, MIGRATIONS_DIR);
      expect(second).toEqual({ applied: [], total: ALL.length });
      const { rows } = await suite.db.query<{ version: string; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows).toEqual(ALL.map((f) => ({ version: f.slice(0, 3), name: f.slice(4, -4) })));
    });
  });

  describe('new migrations', () => {
    const suite = useSuiteDb(database);

    it('apply in order, only the new ones, ignoring other files', async () => {
      const v1 = migrationsDir({ '001_a.sql': 'CREATE TABLE a (id int);', 'README.md': 'not a migration', '01_bad_name.sql': 'nope' });
      expect((await migrate(suite.db, v1)).applied).toEqual(['001_a.sql']);
      const v2 = migrationsDir({
        '001_a.sql': 'CREATE TABLE a (id int);',
        '003_c.sql': 'ALTER TABLE b ADD COLUMN note text;',
        '002_b.sql': 'CREATE TABLE b (id int); INSERT INTO b VALUES (1);',
      });
      expect((await migrate(suite.db, v2)).applied).toEqual(['002_b.sql', '003_c.sql']);
      expect((await suite.db.query('SELECT id, note FROM b')).rows).toEqual([{ id: 1, note: null }]);
    });

    it('roll the whole run back when one fails', async () => {
      const dir = migrationsDir({
        '001_a.sql': 'CREATE TABLE a (id int);',
        '002_b.sql': 'CREATE TABLE b (id int); INSERT INTO b VALUES (1);',
        '003_c.sql': 'ALTER TABLE b ADD COLUMN note text;',
        '004_d.sql': 'CREATE TABLE d (id int);',
        '005_e.sql': 'INSERT INTO missing_table VALUES (1);',
      });
      await expect(migrate(suite.db, dir)).rejects.toThrow(/missing_table/);
      expect(await tables(suite.db)).not.toContain('d');
      const { rows } = await suite.db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(['001', '002', '003']);
    });

    it('refuse two migrations with the same number', async () => {
      const dir = migrationsDir({ '006_x.sql': 'SELECT 1;', '006_y.sql': 'SELECT 1;' });
      await expect(migrate(suite.db, dir)).rejects.toThrow(/share a number/);
    });
  });

  describe('instances starting at once', () => {
    const suite = useSuiteDb(database);

    it('wait for each other: every migration applies exactly once', async () => {
      // PostgreSQL: separate pools (as N API instances would have); PGlite: one connection, serialised.
      const others =
        database.name === 'postgres'
          ? await Promise.all([1, 2, 3].map(() => createPostgresDb({ url: database.url!, schema: suite.db.schema, max: 1 })))
          : [suite.db, suite.db, suite.db];
      try {
        const results = await Promise.all([suite.db, ...others].map((db) => migrate(db, MIGRATIONS_DIR)));
        expect(results.flatMap((r) => r.applied)).toEqual(ALL);
        const { rows } = await suite.db.query<{ n: string | number }>('SELECT count(*) AS n FROM schema_migrations');
        expect(Number(rows[0]!.n)).toBe(ALL.length);
      } finally {
        if (database.name === 'postgres') await Promise.all(others.map((db) => db.close()));
      }
    });
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './driver';

const FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;

interface MigrationResult {
  applied: string[];
  total: number;
}

/**
 * Applies `migrations/NNN_name.sql` in order, once each, in one transaction under an advisory lock
 * (so N instances starting at once on the same PostgreSQL wait for each other instead of racing).
 * A failing migration rolls everything of this run back.
 */
export async function migrate(db: Db, dir: string): Promise<MigrationResult> {
  const files = readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort();
  const versions = files.map((f) => f.slice(0, 3));
  if (new Set(versions).size !== versions.length) throw new Error(`Two migrations share a number in ${dir}`);
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':tickety-migrations'))`);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const applied: string[] = [];
    for (const file of files) {
      const [, version, name] = FILE.exec(file)!;
      if (done.has(version!)) continue;
      await tx.exec(readFileSync(join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, name]);
      applied.push(file);
    }
    return { applied, total: files.length };
  });
}

import pg from 'pg';

/**
 * Once per run: when TEST_DATABASE_URL is set, check PostgreSQL answers (a clear message instead of
 * every suite timing out) and drop schemas left by earlier runs whose process is gone.
 */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer at ${url}: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-f]{10}$'`);
    for (const { nspname } of rows) {
      const pid = Number(nspname.split('_')[1]);
      if (alive(pid)) continue;
      await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    }
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

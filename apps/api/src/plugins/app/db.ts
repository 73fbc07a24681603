import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_DIR } from '../../config';
import { boundedDb, type Db } from '../../db/driver';
import { migrate } from '../../db/migrate';
import { createPgliteDb } from '../../db/pglite';
import { createPostgresDb } from '../../db/postgres';

export const MIGRATIONS_DIR = join(API_DIR, 'migrations');

/** Opens the configured database (PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR). */
async function openDb(config: FastifyInstance['config'], onError?: (error: Error) => void): Promise<Db> {
  if (config.database.url) {
    return createPostgresDb({
      url: config.database.url,
      schema: config.database.schema,
      max: config.database.poolMax,
      statementTimeoutMs: config.database.statementTimeoutMs,
      namedStatements: !config.database.unnamedStatements,
      ...(onError ? { onError } : {}),
    });
  }
  return createPgliteDb(config.database.dataDir);
}

/**
 * `app.db`: the driver, migrated before the app is ready, with a bounded queue (DATABASE_QUEUE_MAX). A database given by the caller (tests) is
 * migrated but not closed by the app.
 */
export default fp(
  async function db(app: FastifyInstance, opts: { db?: Db | undefined }) {
    const owned = !opts.db;
    const instance = opts.db ?? (await openDb(app.config, (e) => app.logThrottle.warn(app.log, { err: e.message }, 'database connection error', e.message)));
    try {
      const result = await migrate(instance, MIGRATIONS_DIR);
      if (result.applied.length > 0) app.log.info({ applied: result.applied }, 'database migrated');
    } catch (error) {
      if (owned) await instance.close().catch(() => undefined);
      throw error;
    }
    app.decorate('db', boundedDb(instance, app.config.database.queueMax));
    if (owned) app.addHook('onClose', async () => instance.close());
  },
  { name: 'tickety-db' },
);

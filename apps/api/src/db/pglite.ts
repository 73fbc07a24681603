import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { type Db, guard, type Queryable } from './driver';

/** The extensions the migrations create (support search: trigram indexes on accent-folded names). */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/** Embedded PostgreSQL (WASM) in a data folder, or `memory://` for tests. One connection, in process. */
export async function createPgliteDb(dataDir: string): Promise<Db> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  return pgliteDb(await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS }));
}

/** The driver over an open PGlite instance; `close()` closes it. */
export function pgliteDb(pg: PGlite): Db {
  const wrap = (client: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: (sql, params) => guard(async () => ({ rows: (await client.query(sql, params as unknown[] | undefined)).rows as never[] })),
    exec: (sql) => guard(async () => void (await client.exec(sql))),
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn) => guard(() => pg.transaction((tx) => fn(wrap(tx)))),
    close: async () => {
      if (!pg.closed) await pg.close();
    },
  };
}

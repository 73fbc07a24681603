// @ts-check
/**
 * Support search over 100,000 users and 100,000 servers on PostgreSQL: the built all-in-one server on
 * BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) in a schema of its own (dropped
 * afterwards). SEARCH_ROWS users and as many servers (default 100,000 each) are written straight into
 * the tables (accented first names and surnames, handles, adjectives and nouns, mixed case), then Sam
 * (an owner) searches as staff type: partial names of 1 to 12 letters, accented and unaccented, whole
 * names, ids, typos and names that match nothing, SEARCH_RUNS times each (default 20, after a warm-up).
 * Printed: p50 and p95 of the whole HTTP answer per query and over all. Target: <= 50 ms p95.
 * SEARCH_KEEP=1 keeps the loaded schema (bench_search_keep) for the next run, which then skips the load.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn, startServer, table } from './lib.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const ROWS = Number(process.env.SEARCH_ROWS ?? 100_000);
const RUNS = Number(process.env.SEARCH_RUNS ?? 20);
const TARGET_MS = 50;
const KEEP = process.env.SEARCH_KEEP === '1';
const SCHEMA = KEEP ? 'bench_search_keep' : `bench_search_${process.pid}`;
const USER_BASE = 1600000000000000000n;
const SERVER_BASE = 1610000000000000000n;

/** Queries as staff type them: what, and why it is realistic. */
const QUERIES = [
  ['a', 'one letter'],
  ['zo', 'two letters'],
  ['ren', 'three letters'],
  ['renée', 'accented'],
  ['renee', 'unaccented'],
  ['ZOË', 'upper case'],
  ['lukasz', 'Łukasz unaccented'],
  ['müller', 'surname'],
  ['chloé garcía', 'whole name'],
  ['pixel', 'word in handles and servers'],
  ['café crew', 'server name'],
  ['arcade', 'second word'],
  ['amelei', 'typo'],
  ['xqzvw', 'no match'],
  [String(USER_BASE + 4242n), 'user id'],
  [String(SERVER_BASE + 777n), 'server id'],
];

const LOAD = `
WITH a AS (SELECT
  ARRAY['Zoë','Renée','José','Ava','Ben','Cleo','Nico','Sam','Björn','Chloé','Amélie','Jürgen','Søren','Łukasz','Mia','Noah','Liam','Emma','Olivia','Lucas',
        'Mateo','Léa','Inès','Zoé','Hugo','Jules','Maëlle','François','Ana','João','Ömer','Ayşe','Dvořák','Pía','Nuño','Siân','Eoin','Aoife','Kai','Yuki',
        'Hana','Ravi','Priya','Ingrid','Ólafur','Elif','Tomás','Raphaël','Noémie','Aurélie','Benoît','Clémence','Dagný','Émile','Fañch','Gaëlle','Håkon','Íris',
        'Jérôme','Kübra','Loïc','Mélanie','Nadège','Océane','Pål','Quentin','Rémi','Sélène','Thaïs','Ulrike'] f,
  ARRAY['Smith','García','Müller','Dubois','Rossi','Novák','Kowalski','Jensen','Silva','Nguyen','Kim','Tanaka','Ivanova','López','Martin','Bernard','Weiß',
        'Schäfer','Öztürk','Hansen','Johansson','Murphy','Kelly','Costa','Ferreira','Lefèvre','Girard','Fernández','Pérez','Sánchez','Łęcki','Håland',
        'Þórsson','Çelik','Dąbrowski','Nowak','Svoboda','Horváth','Popescu','Ionescu'] l,
  ARRAY['gamer','pixel','shadow','wolf','cat','fox','dragon','ninja','star','moon','coffee','byte','retro','arcade','lofi','craft','tiger','panda','ghost','storm',
        'sky','river','ember','frost','echo','nova','blaze','drift','orbit','quill'] w,
  ARRAY['Café','Pixel','Retro','Cozy','Study','Midnight','Golden','Crimson','Silent','Lucky','Electric','Frozen','Hidden','Royal','Wild','Tiny','Mega',
        'Crystal','Neon','Forêt','Éternel','Rêve','Süß','Grün','Blå','Øst','Señor','Mañana'] adj,
  ARRAY['Crew','Pals','Arcade','Corner','Hall','Guild','Club','Hub','Den','Lounge','Workshop','Garden','Kingdom','Squad','Collective','Society','Lab','Tavern',
        'Café','Station','Haven','Nest','Forge','Harbor','Outpost','Academy','Council','Circle'] noun)
, u AS (
  INSERT INTO users (id, username, global_name, avatar, created_at, updated_at)
  SELECT (${USER_BASE} + i)::text,
         lower(f[1 + (i * 13) % 70]) || (ARRAY['', '_', '.', ''])[1 + i % 4] || w[1 + (i * 13) % 30] || (i % 997)::text,
         CASE WHEN i % 9 = 0 THEN NULL WHEN i % 5 = 0 THEN upper(f[1 + (i * 13) % 70]) ELSE f[1 + (i * 13) % 70] || ' ' || l[1 + (i * 11) % 40] END,
         NULL, now(), now()
    FROM generate_series(1, ${ROWS}) AS i, a
  RETURNING 1)
INSERT INTO guilds (id, name, icon, bot_in_guild, updated_at)
SELECT (${SERVER_BASE} + i)::text,
       CASE WHEN i % 4 = 0 THEN f[1 + (i * 3) % 70] || '''s ' || noun[1 + (i * 5) % 28]
            WHEN i % 7 = 0 THEN lower(adj[1 + (i * 5) % 28] || ' ' || noun[1 + (i * 11) % 28])
            ELSE adj[1 + (i * 5) % 28] || ' ' || noun[1 + (i * 11) % 28] END || CASE WHEN i % 3 = 0 THEN ' ' || (i % 1009)::text ELSE '' END,
       NULL, i % 2 = 0, now()
  FROM generate_series(1, ${ROWS}) AS i, a;`;

function psql(/** @type {string} */ sql) {
  execFileSync('psql', [DATABASE_URL, '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  });
}

/** Users already in the kept schema (0 when there is none). */
function loaded() {
  try {
    return Number(execFileSync('psql', [DATABASE_URL, '-Atc', `SELECT count(*) FROM ${SCHEMA}.users`], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
  } catch {
    return 0;
  }
}

/** The quantile at `fraction` (0..1) of the values, nearest rank. */
function quantile(/** @type {number[]} */ values, /** @type {number} */ fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]);
}

const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({ staticRoot: site, env: { DATABASE_URL, DATABASE_SCHEMA: SCHEMA, DEMO_BOT: 'off' } });
try {
  // 1. The people and servers (the server migrated the schema when it started).
  const started = performance.now();
  if (!KEEP || loaded() < ROWS) {
    psql(`SET search_path TO ${SCHEMA}, public; ${LOAD}`);
    // As autovacuum would have by then: statistics for the planner, the visibility map.
    psql(`VACUUM ANALYZE ${SCHEMA}.users, ${SCHEMA}.guilds`);
  }
  console.log(`Loaded ${ROWS.toLocaleString('en')} users and ${ROWS.toLocaleString('en')} servers in ${((performance.now() - started) / 1000).toFixed(0)} s.\n`);

  // 2. Sam searches.
  const jar = await signIn(server.url, 'sam');
  /** @type {number[]} */
  const all = [];
  /** @type {Array<Array<string | number>>} */
  const rows = [];
  for (const [q, what] of QUERIES) {
    /** @type {number[]} */
    const times = [];
    let found = '';
    for (let run = 0; run < RUNS + 1; run++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/staff/search?q=${encodeURIComponent(q)}`, { headers: { cookie: jar.header() } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`search "${q}" answered ${res.status}: ${body.slice(0, 300)}`);
      if (run === 0) {
        const answer = JSON.parse(body);
        found = `${answer.users.length} / ${answer.servers.length}`;
        continue; // the first search warms the caches
      }
      times.push(performance.now() - t0);
    }
    all.push(...times);
    rows.push([`${q} (${what})`, found, quantile(times, 0.5).toFixed(1), quantile(times, 0.95).toFixed(1)]);
  }
  table(['query', 'users / servers', 'p50 ms', 'p95 ms'], rows);
  const p95 = quantile(all, 0.95);
  console.log(
    `\nAll ${all.length} searches: p50 ${quantile(all, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (HTTP round trip, one at a time, on ${os.availableParallelism()} CPUs). Target: p95 <= ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'within the target' : 'ABOVE the target'}.`,
  );
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  if (!KEEP) psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

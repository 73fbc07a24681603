// @ts-check
/**
 * A soak: N instances of the built all-in-one server (production, demo mode) on one fresh PostgreSQL
 * database and Redis, behind the round-robin balancer (balancer.mjs), with signed-in sessions of the
 * demo users browsing the dashboard like people (pages and weights in PAGES, a think time between
 * pages), for a while. Prints errors by request kind, status and code; p50/p99 per request kind;
 * throughput; each instance's RSS before, at its peak and after; Redis keys; PostgreSQL's growth.
 *   node bench/soak.mjs [--duration 300] [--instances 2] [--sessions 200] [--think 1500] [--pinned-sign-in]
 * Not in run-all (5 minutes by default). Sign-ins go through the balancer (every instance's PUBLIC_URL
 * is it); --pinned-sign-in sends them and guild refreshes to instance 1. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBalancer } from './balancer.mjs';
import { deploySite, freePort, freshDatabase, kb, pidOnPort, signIn, startServer, table } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '300' },
    instances: { type: 'string', default: '2' },
    sessions: { type: 'string', default: '200' },
    think: { type: 'string', default: '1500' },
    'pinned-sign-in': { type: 'boolean', default: false },
  },
});
const DURATION_S = Number(args.duration);
const INSTANCES = Number(args.instances);
const SESSIONS = Number(args.sessions);
const THINK_MS = Number(args.think);
const SHARED_SIGN_IN = !args['pinned-sign-in'];
/** A Redis database index of the soak's own (redis://host:port/<index>), so its keys are countable. */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
const USERS = /** @type {const} */ (['ava', 'ben', 'cleo', 'sam', 'nico']);
/** The API refuses a second guild refresh of a user within 10 s (routes/auth/index.ts); the dashboard's control waits too. */
const REFRESH_GAP_MS = 12_000;
const ENCODINGS = 'gzip, deflate, br';
const MIB = 1024 * 1024;

/**
 * The page mix: weight, and the server area it needs (null: none). A page is one or more requests, as
 * the dashboard makes them (a server page first reads the server itself, then its data).
 */
const PAGES = [
  { page: 'dashboard', weight: 30, area: null },
  { page: 'server list', weight: 15, area: null },
  { page: 'server config', weight: 18, area: 'panels' },
  { page: 'statistics', weight: 10, area: 'statistics' },
  { page: 'logs', weight: 10, area: 'logs' },
  { page: 'transcripts', weight: 8, area: 'logs' },
  { page: 'my transcripts', weight: 3, area: null },
  { page: 'config save', weight: 4, area: 'panels' },
  { page: 'guild refresh', weight: 2, area: null },
];
const TOTAL_WEIGHT = PAGES.reduce((sum, entry) => sum + entry.weight, 0);

/** @type {Map<string, number[]>} request kind → latencies (ms) */
const latencies = new Map();
/** @type {Map<string, number>} `kind status code` → count */
const errors = new Map();
let requestsDone = 0;
let pagesDone = 0;

/** VmRSS and VmHWM (peak) of a process, in bytes. @param {number} pid */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (/** @type {string} */ name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** The soak's Redis keys: how many, and their bytes (MEMORY USAGE, summed). */
function redisKeys() {
  const cli = (/** @type {string[]} */ ...command) => execFileSync('redis-cli', ['-u', REDIS_URL, ...command]).toString().trim();
  const keys = cli('--scan').split('\n').filter(Boolean);
  let bytes = 0;
  for (const key of keys) bytes += Number(cli('MEMORY', 'USAGE', key)) || 0;
  // The sessions' addresses are 10.x.y.z (the rest: the probe, sign-ins from 127.0.0.1).
  return { keys: keys.length, bytes, sessionKeys: keys.filter((key) => key.includes(':10.')).length };
}

/** @param {string} kind @param {number} ms */
function record(kind, ms) {
  const list = latencies.get(kind) ?? [];
  if (!list.length) latencies.set(kind, list);
  list.push(ms);
  requestsDone++;
}

/** @param {string} key */
function countError(key) {
  errors.set(key, (errors.get(key) ?? 0) + 1);
}

/**
 * One session: a demo user's cookie, a client address of its own (x-forwarded-for: the rate limits
 * count per address), the servers it may open and what it may do there.
 * @typedef {{ user: string, cookie: string, address: string, servers: { id: string, areas: Record<string, string> }[] }} Session
 */

/**
 * One request, timed and checked; resolves to the parsed JSON answer, or null on an error (counted).
 * @param {Session} session @param {string} kind @param {string} url @param {{ method?: string, body?: unknown }} [options]
 */
async function call(session, kind, url, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { cookie: session.cookie, 'accept-encoding': ENCODINGS, 'x-forwarded-for': session.address };
  if (options.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-requested-with': 'tickety', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' });
  const started = performance.now();
  try {
    const res = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    record(kind, performance.now() - started);
    if (res.ok) return JSON.parse(text);
    let code = '';
    try {
      code = String(JSON.parse(text).code ?? '');
    } catch {
      code = text.slice(0, 40);
    }
    countError(`${kind}  ${res.status}  ${code}`);
  } catch (error) {
    record(kind, performance.now() - started);
    const failure = /** @type {Error & { cause?: { code?: string } }} */ (error);
    countError(`${kind}  network  ${failure.cause?.code ?? failure.message}`);
  }
  return null;
}

/** @param {Session} session @param {string | null} area */
function pickServer(session, area) {
  const allowed = area === null ? session.servers : session.servers.filter((server) => server.areas[area] === 'read' || server.areas[area] === 'write');
  return allowed.length ? allowed[Math.floor(Math.random() * allowed.length)] : undefined;
}

/** Servers whose configuration a session is saving now: one save per server at a time, as people take turns. */
const saving = new Set();
/** @type {Map<string, number>} user → when its last guild refresh was sent */
const refreshedAt = new Map();

/**
 * Opens one page of the mix. `api` is the balancer; `home` where the session signed in (instance 1,
 * whose Discord stand-in issued its tokens, so a guild refresh goes there; or the balancer).
 * @param {Session} session @param {(typeof PAGES)[number]} entry @param {string} api @param {string} home
 */
async function openPage(session, entry, api, home) {
  const server = entry.area === null ? undefined : pickServer(session, entry.area);
  const base = server ? `${api}/api/guilds/${server.id}` : '';
  switch (entry.page) {
    case 'dashboard':
    case 'server list':
      await call(session, '@me', `${api}/api/auth/@me`);
      return;
    case 'my transcripts':
      await call(session, 'transcripts mine', `${api}/api/transcripts/mine`);
      return;
    case 'guild refresh': {
      if (Date.now() - (refreshedAt.get(session.user) ?? 0) < REFRESH_GAP_MS) return call(session, '@me', `${api}/api/auth/@me`);
      refreshedAt.set(session.user, Date.now());
      await call(session, 'guild refresh', `${home}/api/auth/guilds/refresh`, { method: 'POST', body: {} });
      return;
    }
    default:
  }
  if (!server) return call(session, '@me', `${api}/api/auth/@me`);
  if (entry.page === 'config save') {
    if (server.areas.panels !== 'write' || saving.has(server.id)) return call(session, 'config', `${base}/config`);
    saving.add(server.id);
    try {
      const current = await call(session, 'config', `${base}/config`);
      if (current) await call(session, 'config save', `${base}/config`, { method: 'PUT', body: { expectedVersion: current.version, config: current.config } });
    } finally {
      saving.delete(server.id);
    }
    return;
  }
  await call(session, 'server', base);
  const path = { 'server config': 'config', statistics: 'statistics', logs: 'logs', transcripts: 'transcripts' }[entry.page];
  await call(session, path ?? entry.page, `${base}/${path}`);
}

function pickPage() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const entry of PAGES) {
    roll -= entry.weight;
    if (roll < 0) return entry;
  }
  return /** @type {(typeof PAGES)[number]} */ (PAGES[0]);
}

/** @param {number} ms */
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** @param {number[]} sorted @param {number} share */
const quantile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

const database = freshDatabase('soak');
const siteDir = mkdtempSync(join(tmpdir(), 'tickety-soak-site-'));
/** @type {Awaited<ReturnType<typeof startServer>>[]} */
const instances = [];
/** @type {Awaited<ReturnType<typeof startBalancer>> | undefined} */
let balancer;
try {
  deploySite(siteDir);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    // Every instance must read the others' sessions.
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_MAX: '1000000',
    AUTH_RATE_LIMIT_MAX: '1000000',
    // The balancer's x-forwarded-for carries each session's own address.
    TRUST_PROXY: '127.0.0.1',
  };
  const balancerPort = await freePort();
  if (SHARED_SIGN_IN) Object.assign(env, { PUBLIC_URL: `http://127.0.0.1:${balancerPort}` });
  // Else each instance's Discord stand-in knows only the tokens it issued: no access check may ask another's.
  else Object.assign(env, { GUILD_ACCESS_MAX_AGE_SECONDS: '86400', GUILD_WRITE_ACCESS_MAX_AGE_SECONDS: '86400' });
  // One after the other: the first migrates and seeds the demo data.
  for (let i = 0; i < INSTANCES; i++) instances.push(await startServer({ staticRoot: siteDir, env }));
  const pids = instances.map((instance) => pidOnPort(instance.port));
  balancer = await startBalancer({ upstreams: instances.map((instance) => instance.url), port: balancerPort });
  const api = balancer.url;
  // Where sign-ins and guild refreshes go: the balancer, or instance 1 with --pinned-sign-in.
  const home = SHARED_SIGN_IN ? api : /** @type {(typeof instances)[number]} */ (instances[0]).url;
  console.log(`${INSTANCES} instances (pids ${pids.join(', ')}) behind ${api}; PostgreSQL database ${database.name}; Redis ${REDIS_URL}`);

  const signInStarted = performance.now();
  /** @type {Session[]} */
  const sessions = [];
  for (let i = 0; i < SESSIONS; i++) {
    const user = /** @type {(typeof USERS)[number]} */ (USERS[i % USERS.length]);
    const cookie = (await signIn(home, user)).header();
    sessions.push({ user, cookie, address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, servers: [] });
  }
  const signInMs = performance.now() - signInStarted;
  // What each user may open: the servers of its list it manages or reads through a role, and the areas there.
  /** @type {Map<string, Session['servers']>} */
  const serversOf = new Map();
  for (const session of sessions) {
    if (!serversOf.has(session.user)) {
      const me = await call(session, 'setup', `${api}/api/auth/@me`);
      /** @type {Session['servers']} */
      const servers = [];
      for (const guild of me?.guilds ?? []) {
        if (!guild.canManage && !guild.roleAccess) continue;
        const server = await call(session, 'setup', `${api}/api/guilds/${guild.id}`);
        if (server?.access?.areas) servers.push({ id: guild.id, areas: server.access.areas });
      }
      serversOf.set(session.user, servers);
    }
    session.servers = serversOf.get(session.user) ?? [];
  }
  latencies.delete('setup');
  requestsDone = 0;
  console.log(`${SESSIONS} sessions signed in ${SHARED_SIGN_IN ? 'through the balancer' : 'on instance 1'} in ${(signInMs / 1000).toFixed(1)} s; servers per user: ${[...serversOf].map(([user, list]) => `${user} ${list.length}`).join(', ')}`);

  const memoryBefore = pids.map(memoryOf);
  const sizeBefore = database.size();
  const redisBefore = redisKeys();
  /** @type {{ at: number, bytes: number }[]} */
  const sizes = [{ at: 0, bytes: sizeBefore }];
  const started = Date.now();
  const deadline = started + DURATION_S * 1000;
  const sampler = setInterval(() => {
    sizes.push({ at: (Date.now() - started) / 1000, bytes: database.size() });
    console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${requestsDone} requests, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, RSS ${pids.map((pid) => `${(memoryOf(pid).rss / MIB).toFixed(0)} MiB`).join(' / ')}`);
  }, 30_000);
  console.log(`\nsoak: ${DURATION_S} s, think time ~${THINK_MS} ms (exponential) between pages\n`);
  await Promise.all(
    sessions.map(async (session) => {
      await sleep(Math.random() * THINK_MS);
      while (Date.now() < deadline) {
        await openPage(session, pickPage(), api, home);
        pagesDone++;
        await sleep(Math.min(-Math.log(1 - Math.random()) * THINK_MS, deadline - Date.now()));
      }
    }),
  );
  clearInterval(sampler);
  const elapsed = (Date.now() - started) / 1000;
  const memoryAfter = pids.map(memoryOf);
  const sizeAfter = database.size();
  const redisAfter = redisKeys();

  console.log(`\n${requestsDone} requests in ${elapsed.toFixed(0)} s: ${(requestsDone / elapsed).toFixed(0)} req/s through the balancer (per instance, with the set-up reads: ${balancer.counts.join(' / ')})\n`);
  table(
    ['request kind', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
    [...latencies].map(([kind, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return [kind, sorted.length, quantile(sorted, 0.5).toFixed(1), quantile(sorted, 0.99).toFixed(1), (sorted.at(-1) ?? 0).toFixed(0)];
    }),
  );
  const mean = (/** @type {number[]} */ list) => list.reduce((a, b) => a + b, 0) / (list.length || 1);
  const everyLatency = [...latencies.values()].flat();
  console.log(
    `\n${pagesDone} pages: ${(requestsDone / (pagesDone || 1)).toFixed(2)} requests per page; a request of the mix takes ${(mean(everyLatency) / mean(latencies.get('@me') ?? [])).toFixed(2)}x an @me's mean latency (the mix cost of bench/capacity.mjs)`,
  );
  const errorTotal = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`\nerrors: ${errorTotal} (target 0)`);
  if (errorTotal) table(['request kind  status  code', 'count'], [...errors]);
  console.log('');
  table(
    ['instance', 'RSS before', 'RSS after', 'RSS peak (VmHWM)'],
    pids.map((pid, i) => [`${i + 1} (pid ${pid})`, `${((memoryBefore[i]?.rss ?? 0) / MIB).toFixed(0)} MiB`, `${((memoryAfter[i]?.rss ?? 0) / MIB).toFixed(0)} MiB`, `${((memoryAfter[i]?.peak ?? 0) / MIB).toFixed(0)} MiB`]),
  );
  console.log('(heap figures: the server exposes none; RSS from /proc/<pid>/status)');
  sizes.push({ at: elapsed, bytes: sizeAfter });
  console.log(
    `\nPostgreSQL: ${kb(sizeBefore)} before, ${kb(sizeAfter)} after: +${kb(sizeAfter - sizeBefore)} in ${elapsed.toFixed(0)} s (${sizes.map((sample) => `${sample.at.toFixed(0)} s ${(sample.bytes / MIB).toFixed(1)} MiB`).join(', ')})`,
  );
  console.log(`Redis (${REDIS_URL}): ${redisBefore.keys} keys, ${kb(redisBefore.bytes)} before; ${redisAfter.keys} keys, ${kb(redisAfter.bytes)} after (rate-limit windows of the last minute)`);
  console.log(`  ${(redisAfter.sessionKeys / SESSIONS).toFixed(2)} keys per session's client address, ${(redisAfter.bytes / (redisAfter.keys || 1)).toFixed(0)} bytes per key`);
} finally {
  await balancer?.close();
  for (const instance of instances) await instance.stop();
  rmSync(siteDir, { recursive: true, force: true });
  database.drop();
}

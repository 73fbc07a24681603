// @ts-check
/**
 * How long the worst request bodies hold the server's event loop, as a client sees it: the built
 * all-in-one server (embedded database, the demo bot off, a bot key from configuration) gets each
 * heavy request below while a probe asks `GET /api/health` back to back; the probe's slowest answer
 * during the heavy request is the stall every other user felt. The same probe against the idle server
 * and against a bare node:http server in this run are the floor. Target (docs/api.md, "Request
 * bodies"): no request that fits the limits stalls the loop for more than 50 ms.
 *   node bench/request-bodies.mjs                                              (PGlite)
 *   BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test node bench/request-bodies.mjs
 */
import { execFileSync } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { signIn, startServer, table } from './lib.mjs';

const KEY = `tk_bot_benchkey_${'b'.repeat(43)}`;
const ARCADE = '1100000000000000001';
const TARGET_MS = 50;

/**
 * One HTTP request; resolves with its status and milliseconds.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: Buffer | string }} [options]
 * @returns {Promise<{ status: number, ms: number }>}
 */
function send(url, options = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(url, { method: options.method ?? 'GET', headers: { ...(options.body ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    if (options.body) req.write(options.body);
    req.end();
  });
}

/**
 * Probes `url` back to back while `work` runs; the slowest probe answer.
 * @param {string} url
 * @param {() => Promise<{ status: number, ms: number }>} work
 */
async function stallDuring(url, work) {
  let running = true;
  let worst = 0;
  const probe = (async () => {
    while (running) {
      const { ms } = await send(url);
      worst = Math.max(worst, ms);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const result = await work();
  await new Promise((resolve) => setTimeout(resolve, 30));
  running = false;
  await probe;
  return { ...result, worst };
}

const nested = (/** @type {number} */ depth, /** @type {number} */ bytes) => {
  const unit = `${'['.repeat(depth)}${']'.repeat(depth)},`;
  return `[${unit.repeat(Math.floor(bytes / unit.length))}0]`;
};

/** A valid transcript of `messages` messages of ~1 KB each (60,000 is the most one may have: ~64 MB of JSON). */
function transcript(/** @type {number} */ messages) {
  const at = (/** @type {number} */ i) => new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString();
  const users = ['1300000000000000200', '1000000000000000001'];
  return {
    version: 2,
    server: { id: ARCADE, name: 'Arcade', iconUrl: null },
    channel: { id: '1200000000000009001', name: 'ticket-1' },
    ticket: { id: 'bench-t', number: 1, panelId: 'support', openerId: users[0], openedAt: at(0), closedAt: at(messages + 1), closedBy: users[1], reason: null },
    users: users.map((id, i) => ({ id, username: `u${i}`, displayName: null, avatarUrl: null, bot: false, staff: i === 1, colour: null })),
    roles: [],
    channels: [],
    messages: Array.from({ length: messages }, (_, index) => ({
      id: String(1300000000000100000n + BigInt(index)),
      authorId: users[index % 2],
      content: `message ${index} ${'lorem ipsum '.repeat(60)}`,
      createdAt: at(index + 1),
      editedAt: null,
      system: null,
      replyTo: null,
      embeds: [],
      attachments: [],
      reactions: [],
      stickers: [],
    })),
  };
}

/** The largest batch: 1,000 opened events with a 700-character answer each (just under the 1 MiB of JSON a batch may be). */
function fullBatch() {
  const answers = [{ question: 'What happened?', answer: 'a'.repeat(700) }];
  const events = Array.from({ length: 1000 }, (_, i) => ({ id: `bench-${i}`, serverId: ARCADE, ticketId: `bench-t${i}`, at: new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString(), type: 'opened', panelId: 'support', openerId: '1300000000000000200', number: i + 1, answers }));
  return { events };
}

// The bare floor: node:http answering the same probe with nothing else to do.
const bare = createServer((_req, res) => res.end('{"status":"ok"}'));
await new Promise((resolve) => bare.listen(0, '127.0.0.1', () => resolve(undefined)));
const bareUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (bare.address()).port}/`;

// The embedded database by default (what `npm start` runs); PostgreSQL with BENCH_DATABASE_URL (in a
// schema of its own, dropped afterwards). PGlite runs in the server's own thread: its queries are
// part of the loop's time, a PostgreSQL server's are not.
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const SCHEMA = `bench_bodies_${process.pid}`;
const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({
  staticRoot: site,
  env: { BOT_API_KEY: KEY, BOT_RATE_LIMIT_MAX: '1000000', DEMO_BOT: 'off', ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : {}) },
});
console.log(`database: ${DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`);
try {
  const health = `${server.url}/api/health`;
  const jar = await signIn(server.url, 'ava');
  const cookie = jar.header();
  const json = { 'content-type': 'application/json', origin: server.url, 'x-requested-with': 'tickety' };
  const bot = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
  const mib = 1024 * 1024;
  // Every body is made before any is measured (making them would stall this process, not the server's).
  const bodies = {
    anonymousNested: '['.repeat(mib),
    nested: '['.repeat(512 * 1024),
    depth32: `{"expectedVersion":1,"config":${nested(30, 510 * 1024)}}`,
    flat: `{"expectedVersion":1,"config":[${'0,'.repeat(255 * 1024)}0]}`,
    nestedBot: gzipSync(Buffer.from(`{"events":${'['.repeat(mib - 16)}`)),
    bomb: gzipSync(Buffer.alloc(64 * mib, 32)),
    batch: gzipSync(Buffer.from(JSON.stringify(fullBatch()))),
    transcript: gzipSync(Buffer.from(JSON.stringify(transcript(60_000)))),
  };
  const put = (/** @type {string} */ body, /** @type {Record<string, string>} */ headers) => send(`${server.url}/api/guilds/${ARCADE}/config`, { method: 'PUT', headers, body });
  const four = (/** @type {() => Promise<{ status: number, ms: number }>} */ one) => Promise.all([one(), one(), one(), one()]).then((r) => /** @type {{ status: number, ms: number }} */ (r[0]));
  const cases = [
    ['idle (no heavy request)', () => new Promise((resolve) => setTimeout(() => resolve({ status: 0, ms: 0 }), 500))],
    ['anonymous PUT config, 1 MiB of nested [', () => put(bodies.anonymousNested, json)],
    ['signed-in PUT config, 512 KB of nested [ (4 at once)', () => four(() => put(bodies.nested, { ...json, cookie }))],
    ['signed-in PUT config, 512 KB at depth 30 (4 at once)', () => four(() => put(bodies.depth32, { ...json, cookie }))],
    ['signed-in PUT config, 512 KB flat array (4 at once)', () => four(() => put(bodies.flat, { ...json, cookie }))],
    ['bot events, gzip inflating to 1 MiB of [', () => send(`${server.url}/api/bot/v1/events`, { method: 'POST', headers: { ...bot, 'content-encoding': 'gzip' }, body: bodies.nestedBot })],
    ['bot transcript, 64 KB gzip bomb inflating to 64 MB', () => send(`${server.url}/api/bot/v1/servers/${ARCADE}/transcripts/bench-bomb`, { method: 'PUT', headers: { ...bot, 'content-encoding': 'gzip' }, body: bodies.bomb })],
    [`bot events, a full batch (1,000 events, ${(JSON.stringify(fullBatch()).length / 1024).toFixed(0)} KiB as JSON, gzipped)`, () => send(`${server.url}/api/bot/v1/events`, { method: 'POST', headers: { ...bot, 'content-encoding': 'gzip' }, body: bodies.batch })],
    ['bot transcript, 60,000 messages (~60 MB as JSON, gzipped)', () => send(`${server.url}/api/bot/v1/servers/${ARCADE}/transcripts/bench-1`, { method: 'PUT', headers: { ...bot, 'content-encoding': 'gzip' }, body: bodies.transcript })],
  ];
  /** @type {(string|number)[][]} */
  const rows = [];
  let worstHeavy = 0;
  const floor = await stallDuring(bareUrl, () => new Promise((resolve) => setTimeout(() => resolve({ status: 0, ms: 0 }), 500)));
  rows.push(['node:http, idle (the floor)', '-', '-', floor.worst.toFixed(1)]);
  for (const [name, work] of /** @type {Array<[string, () => Promise<{ status: number, ms: number }>]>} */ (cases)) {
    const result = await stallDuring(health, work);
    rows.push([name, result.status || '-', result.ms ? result.ms.toFixed(0) : '-', result.worst.toFixed(1)]);
    if (!name.startsWith('idle')) worstHeavy = Math.max(worstHeavy, result.worst);
  }
  table(['request', 'status', 'its ms', 'slowest probe ms'], rows);
  console.log(`\nworst stall another user felt: ${worstHeavy.toFixed(1)} ms (target <= ${TARGET_MS} ms): ${worstHeavy <= TARGET_MS ? 'met' : 'NOT met'}`);
} finally {
  await server.stop();
  bare.close();
  if (DATABASE_URL) execFileSync('psql', [DATABASE_URL, '-q', '-c', `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`], { stdio: 'ignore' });
}

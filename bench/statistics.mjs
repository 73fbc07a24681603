// @ts-check
/**
 * The Statistics queries over 1,000,000 ticket events on PostgreSQL: the built all-in-one server on
 * BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) in a schema of its own (dropped
 * afterwards), the demo bot off. STATS_EVENTS events (default 1,000,000: six per ticket, about
 * 167,000 tickets) go in through the bot API, all on one server (Ava's Arcade, premium) over the last
 * 365 days with three panels and six staff members. Then Ava reads Statistics for 7, 30 and 90 days
 * and a custom 365-day range, STATS_RUNS times each (default 5); the API's Server-Timing header gives
 * each of the six queries' time. Target: <= 300 ms per query (the median of the runs).
 * STATS_KEEP=1 keeps the loaded schema (bench_stats_keep) for the next run, which then skips the load.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, signIn, startServer, table } from './lib.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const TOTAL = Number(process.env.STATS_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.STATS_RUNS ?? 5);
const BATCH = 1000;
const IN_FLIGHT = 4;
const TARGET_MS = 300;
const KEY = `tk_bot_benchstat_${'s'.repeat(43)}`;
const KEEP = process.env.STATS_KEEP === '1';
const SCHEMA = KEEP ? 'bench_stats_keep' : `bench_stats_${process.pid}`;
const SERVER = '1100000000000000001';
const PANELS = ['support', 'billing', 'reports'];
const STAFF = ['1000000000000000001', '1000000000000000005', '1300000000000000101', '1300000000000000102', '1300000000000000103', '1300000000000000104'];
const OPENERS = Array.from({ length: 500 }, (_, i) => String(1300000000000000200n + BigInt(i)));
const DAY = 86_400_000;

const tickets = Math.ceil(TOTAL / 6);
const now = Date.now();
const first = now - 365 * DAY;
const spacing = (365 * DAY) / tickets;

/** The events of ticket `index`: opened, claimed, first response, messages, closed, rated, with varied times. */
function ticketEvents(/** @type {number} */ index) {
  const staff = STAFF[(index * 7) % STAFF.length];
  const start = first + index * spacing;
  const firstResponse = 1 + ((index * 37) % 240);
  const resolution = firstResponse + 10 + ((index * 131) % 2880);
  const at = (/** @type {number} */ minutes) => new Date(Math.min(now - 1000, start + minutes * 60_000)).toISOString();
  const base = (/** @type {string} */ kind, /** @type {number} */ minutes) => ({ id: `s${index}-${kind}`, serverId: SERVER, ticketId: `st${index}`, at: at(minutes) });
  return [
    { ...base('o', 0), type: 'opened', panelId: PANELS[index % PANELS.length], openerId: OPENERS[index % OPENERS.length], number: index + 1, answers: [] },
    { ...base('c', firstResponse - 1), type: 'claimed', staffId: staff },
    { ...base('f', firstResponse), type: 'first_response', staffId: staff },
    { ...base('m', resolution - 5), type: 'messages', total: 8 + (index % 20), staff: 2 + (index % 6) },
    { ...base('x', resolution), type: 'closed', closedBy: staff, reason: null },
    { ...base('r', resolution + 1), type: 'rated', rating: 1 + ((index * 3) % 5), feedback: null },
  ];
}

function psql(/** @type {string} */ sql) {
  execFileSync('psql', [DATABASE_URL, '-q', '-c', sql], { stdio: 'ignore' });
}

/** Events already in the kept schema (0 when there is none). */
function loaded() {
  try {
    return Number(execFileSync('psql', [DATABASE_URL, '-Atc', `SELECT count(*) FROM ${SCHEMA}.ticket_events`], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
  } catch {
    return 0;
  }
}

const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({
  staticRoot: site,
  env: { DATABASE_URL, DATABASE_SCHEMA: SCHEMA, BOT_API_KEY: KEY, BOT_RATE_LIMIT_MAX: '1000000', DEMO_BOT: 'off' },
});
try {
  // 1. A year of tickets through the bot API.
  let nextTicket = 0;
  let sent = KEEP ? loaded() : 0;
  if (sent >= TOTAL) nextTicket = Math.ceil(sent / 6);
  const started = performance.now();
  const send = async () => {
    while (sent < TOTAL) {
      const events = [];
      while (events.length + 6 <= BATCH && sent + events.length < TOTAL) events.push(...ticketEvents(nextTicket++));
      sent += events.length;
      const res = await fetch(`${server.url}/api/bot/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ events }) });
      if (res.status !== 200) throw new Error(`events answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, send));
  const loadSeconds = (performance.now() - started) / 1000;
  // As autovacuum would have by then: statistics for the planner, the visibility map for index-only scans.
  psql(`VACUUM ANALYZE ${SCHEMA}.tickets, ${SCHEMA}.ticket_slots`);
  console.log(`Loaded ${sent.toLocaleString('en')} events (${nextTicket.toLocaleString('en')} tickets on one server, 365 days) in ${loadSeconds.toFixed(0)} s.\n`);

  // 2. Ava reads Statistics.
  const jar = await signIn(server.url, 'ava');
  const day = (/** @type {number} */ ms) => new Date(ms).toISOString().slice(0, 10);
  const ranges = [
    ['7 days', 'range=7d'],
    ['30 days', 'range=30d'],
    ['90 days', 'range=90d'],
    ['365 days (custom)', `range=custom&from=${day(now - 364 * DAY)}&to=${day(now)}`],
  ];
  /** @type {Array<Array<string | number>>} */
  const rows = [];
  let worst = 0;
  /** @type {string[]} */
  const over = [];
  for (const [label, query] of ranges) {
    /** @type {Map<string, number[]>} */
    const perQuery = new Map();
    const totals = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/guilds/${SERVER}/statistics?${query}&tz=Europe%2FBerlin`, { headers: { cookie: jar.header() } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`statistics (${label}) answered ${res.status}: ${body.slice(0, 300)}`);
      if (run === 0) continue; // the first read warms the caches
      totals.push(performance.now() - t0);
      for (const part of (res.headers.get('server-timing') ?? '').split(', ')) {
        const [name, dur] = part.split(';dur=');
        if (!name || !dur) continue;
        perQuery.set(name, [...(perQuery.get(name) ?? []), Number(dur)]);
      }
    }
    const medians = [...perQuery].map(([name, times]) => /** @type {[string, number]} */ ([name, median(times)]));
    const slowest = medians.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
    worst = Math.max(worst, slowest[1]);
    if (slowest[1] > TARGET_MS) over.push(label);
    rows.push([label, `${slowest[0]} ${slowest[1].toFixed(0)}`, medians.map(([q, ms]) => `${q} ${ms.toFixed(0)}`).join(', '), Math.round(median(totals))]);
  }
  table(['range', 'slowest query ms', 'each query ms (median)', 'whole answer ms'], rows);
  console.log(
    `\nTarget: each query <= ${TARGET_MS} ms (the six run at once, on ${os.availableParallelism()} CPUs). ${over.length === 0 ? 'Within the target' : `ABOVE the target for ${over.join(', ')}`} (slowest ${worst.toFixed(0)} ms).`,
  );
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  if (!KEEP) psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

// @ts-check
/**
 * Ticket-event ingestion through the bot API (`POST /api/bot/v1/events`) on PostgreSQL: the built
 * all-in-one server on BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test, as CI has it)
 * in a schema of its own (dropped afterwards), the demo bot off, a bot key from configuration. Sends
 * INGEST_EVENTS events (default 100,000; about six per ticket, the shape a ticket's life has) in
 * batches of 1,000 with a few requests in flight, and prints events per second. Target: >= 2,000/s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, startServer, table } from './lib.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const TOTAL = Number(process.env.INGEST_EVENTS ?? 100_000);
const BATCH = 1000;
const IN_FLIGHT = Number(process.env.INGEST_IN_FLIGHT ?? 4);
const TARGET = 2000;
const KEY = `tk_bot_benchkey_${'b'.repeat(43)}`;
const SCHEMA = `bench_ingest_${process.pid}`;
const SERVERS = ['1100000000000000001', '1100000000000000002', '1100000000000000007'];
const STAFF = ['1000000000000000001', '1000000000000000005', '1300000000000000101'];
const OPENERS = Array.from({ length: 50 }, (_, i) => String(1300000000000000200n + BigInt(i)));

/** The events of ticket `index`, a life of six: opened, claimed, first response, messages, closed, rated. */
function ticketEvents(/** @type {number} */ index) {
  const server = SERVERS[index % SERVERS.length];
  const staff = STAFF[index % STAFF.length];
  const start = Date.UTC(2026, 8, 1) + index * 60_000;
  const at = (/** @type {number} */ minutes) => new Date(start + minutes * 60_000).toISOString();
  const base = (/** @type {string} */ kind, /** @type {number} */ minutes) => ({ id: `b${index}-${kind}`, serverId: server, ticketId: `bt${index}`, at: at(minutes) });
  return [
    { ...base('o', 0), type: 'opened', panelId: 'support', openerId: OPENERS[index % OPENERS.length], number: index + 1, answers: [{ question: 'What happened?', answer: 'Something broke.' }] },
    { ...base('c', 4), type: 'claimed', staffId: staff },
    { ...base('f', 5), type: 'first_response', staffId: staff },
    { ...base('m', 40), type: 'messages', total: 12, staff: 5 },
    { ...base('x', 45), type: 'closed', closedBy: staff, reason: 'Solved' },
    { ...base('r', 46), type: 'rated', rating: 1 + (index % 5), feedback: index % 3 === 0 ? 'Thanks!' : null },
  ];
}

function psql(/** @type {string} */ sql) {
  execFileSync('psql', [DATABASE_URL, '-q', '-c', sql], { stdio: 'ignore' });
}

// The API alone is measured: an empty site (no front ends needed).
const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({
  staticRoot: site,
  env: { DATABASE_URL, DATABASE_SCHEMA: SCHEMA, BOT_API_KEY: KEY, BOT_RATE_LIMIT_MAX: '1000000', DEMO_BOT: 'off' },
});
try {
  const batches = [];
  let pending = [];
  for (let n = 0; batches.length * BATCH < TOTAL; n++) {
    pending.push(...ticketEvents(n));
    while (pending.length >= BATCH) {
      batches.push(pending.slice(0, BATCH));
      pending = pending.slice(BATCH);
    }
  }
  const bodies = batches.map((events) => JSON.stringify({ events }));
  const times = /** @type {number[]} */ ([]);
  let next = 0;
  let accepted = 0;
  const send = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/bot/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
      const answer = await res.json();
      if (res.status !== 200) throw new Error(`events answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      accepted += answer.accepted;
      times.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, send));
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(accepted / seconds);
  console.log(`Bot API ingestion on PostgreSQL: ${accepted.toLocaleString('en')} events (about ${Math.round(accepted / 6).toLocaleString("en")} tickets) in batches of ${BATCH}, ${IN_FLIGHT} in flight\n`);
  table(
    ['figure', 'value', 'target'],
    [
      ['events per second', rate, `>= ${TARGET}`],
      ['total seconds', seconds.toFixed(1), ''],
      ['batch latency median ms', Math.round(median(times)), ''],
      ['batch latency max ms', Math.round(Math.max(...times)), ''],
    ],
  );
  console.log(rate >= TARGET ? '\nWithin the target.' : '\nBELOW the target.');
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

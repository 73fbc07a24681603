// @ts-check
/**
 * Ingestion through the bot API on PostgreSQL: the built all-in-one server on BENCH_DATABASE_URL
 * (default postgres://root@127.0.0.1:5432/test, as CI has it) in a schema of its own (dropped
 * afterwards), the demo bot off, a bot key from configuration. Ticket events (`POST
 * /api/bot/v1/events`): INGEST_EVENTS (default 100,000; about six per ticket, the shape a ticket's
 * life has), target >= 2,000/s. Then the messages of open tickets (`POST /api/bot/v1/messages`):
 * INGEST_MESSAGES (default 100,000) over 500 open tickets, one in ten an edit and one in fifty a
 * delete of an earlier message, target >= 5,000/s. Batches of 1,000, a few requests in flight.
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
const MESSAGES = Number(process.env.INGEST_MESSAGES ?? 100_000);
const MESSAGE_TARGET = 5000;
const OPEN_TICKETS = 500;
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

/** The message event `index` of the live-messages phase: mostly posts, some edits and deletes of earlier posts. */
function messageEvent(/** @type {number} */ index) {
  const ticket = index % OPEN_TICKETS;
  const serverId = SERVERS[ticket % SERVERS.length];
  const at = new Date(Date.UTC(2026, 9, 1) + index * 1000).toISOString();
  const base = { id: `lm${index}`, serverId, ticketId: `open${ticket}`, at };
  const earlier = String(1400000000000000000n + BigInt(Math.max(0, index - OPEN_TICKETS * 3)));
  if (index % 50 === 49) return { ...base, type: 'message_deleted', messageId: earlier };
  if (index % 10 === 9) return { ...base, type: 'message_edited', messageId: earlier, content: `Edited: message ${index} with a few more words.`, embeds: [], attachments: [] };
  const authorId = index % 3 === 0 ? STAFF[ticket % STAFF.length] : OPENERS[ticket % OPENERS.length];
  return {
    ...base,
    type: 'message_created',
    message: {
      id: String(1400000000000000000n + BigInt(index)),
      authorId,
      content: `Message ${index}: the printer on the second floor still shows an error after the restart you suggested.`,
      createdAt: at,
      editedAt: null,
      system: null,
      replyTo: null,
      embeds: [],
      attachments: [],
      reactions: [],
      stickers: [],
    },
    author: { id: authorId, username: `user${authorId.slice(-4)}`, displayName: null, avatarUrl: null, bot: false, staff: index % 3 === 0, colour: null },
  };
}

/**
 * Sends `bodies` to `path` with IN_FLIGHT requests at a time; the per-request latencies, the seconds
 * it took and the sum of `counted` over the answers.
 * @param {string} url @param {string[]} bodies @param {(answer: any) => number} counted
 */
async function sendAll(url, bodies, counted) {
  const times = /** @type {number[]} */ ([]);
  let next = 0;
  let total = 0;
  const send = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
      const answer = await res.json();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      total += counted(answer);
      times.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, send));
  return { times, seconds: (performance.now() - started) / 1000, total };
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
  const events = await sendAll(`${server.url}/api/bot/v1/events`, bodies, (answer) => answer.accepted);
  const rate = Math.round(events.total / events.seconds);
  console.log(`Bot API ingestion on PostgreSQL: ${events.total.toLocaleString('en')} events (about ${Math.round(events.total / 6).toLocaleString('en')} tickets) in batches of ${BATCH}, ${IN_FLIGHT} in flight\n`);
  table(
    ['figure', 'value', 'target'],
    [
      ['events per second', rate, `>= ${TARGET}`],
      ['total seconds', events.seconds.toFixed(1), ''],
      ['batch latency median ms', Math.round(median(events.times)), ''],
      ['batch latency max ms', Math.round(Math.max(...events.times)), ''],
    ],
  );
  console.log(rate >= TARGET ? '\nWithin the target.' : '\nBELOW the target.');

  const messageBodies = [];
  for (let start = 0; start < MESSAGES; start += BATCH) {
    messageBodies.push(JSON.stringify({ messages: Array.from({ length: Math.min(BATCH, MESSAGES - start) }, (_, offset) => messageEvent(start + offset)) }));
  }
  const messages = await sendAll(`${server.url}/api/bot/v1/messages`, messageBodies, (answer) => answer.changed + answer.unchanged);
  const messageRate = Math.round(MESSAGES / messages.seconds);
  console.log(`\nLive messages of ${OPEN_TICKETS} open tickets: ${MESSAGES.toLocaleString('en')} events (posts, one in ten an edit, one in fifty a delete) in batches of ${BATCH}, ${IN_FLIGHT} in flight\n`);
  table(
    ['figure', 'value', 'target'],
    [
      ['messages per second', messageRate, `>= ${MESSAGE_TARGET}`],
      ['total seconds', messages.seconds.toFixed(1), ''],
      ['batch latency median ms', Math.round(median(messages.times)), ''],
      ['batch latency max ms', Math.round(Math.max(...messages.times)), ''],
    ],
  );
  console.log(messageRate >= MESSAGE_TARGET ? '\nWithin the target.' : '\nBELOW the target.');
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

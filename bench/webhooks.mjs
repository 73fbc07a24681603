// @ts-check
/**
 * Verified webhook ingestion (`POST /api/webhooks/paddle`) on PostgreSQL, and how long an event waits
 * from receipt to applied: the built all-in-one server on BENCH_DATABASE_URL (default
 * postgres://root@127.0.0.1:5432/test) in a schema of its own (dropped afterwards), the demo bot off.
 * Sends WEBHOOK_EVENTS Paddle notifications (default 20,000: `subscription.created` and
 * `subscription.updated` for 10,000 subscriptions), each signed with HMAC-SHA256 like Paddle's, one
 * per request, WEBHOOK_IN_FLIGHT at once (default 32), as Paddle delivers them. Each is verified,
 * stored once and answered; the API's worker applies them meanwhile. Prints accepted events per
 * second (target >= 2,000) and, from the inbox's own times, receipt to applied (p50, p99).
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, table } from './lib.mjs';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const TOTAL = Number(process.env.WEBHOOK_EVENTS ?? 20_000);
const IN_FLIGHT = Number(process.env.WEBHOOK_IN_FLIGHT ?? 32);
const TARGET = 2000;
const SECRET = 'pdl_ntfset_bench_secret';
const SCHEMA = `bench_webhooks_${process.pid}`;
const USERS = Array.from({ length: 200 }, (_, i) => String(1300000000000000200n + BigInt(i)));

function psql(/** @type {string} */ sql) {
  return execFileSync('psql', [DATABASE_URL, '-Atq', '-c', sql], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
}

/** Notification `n`: subscription n/2 created (even n) or updated with a later time (odd n). */
function notification(/** @type {number} */ n) {
  const sub = Math.floor(n / 2);
  const updated = new Date(Date.UTC(2026, 10, 1) + sub * 1000 + (n % 2) * 500).toISOString();
  return {
    event_id: `evt_bench_${n}`,
    event_type: n % 2 === 0 ? 'subscription.created' : 'subscription.updated',
    occurred_at: updated,
    notification_id: `ntf_bench_${n}`,
    data: {
      id: `sub_bench_${sub}`,
      status: 'active',
      customer_id: `ctm_bench_${sub % USERS.length}`,
      updated_at: updated,
      current_billing_period: { starts_at: updated, ends_at: new Date(Date.parse(updated) + 30 * 86_400_000).toISOString() },
      scheduled_change: null,
      items: [{ quantity: 1 + (n % 2), price: { id: 'pri_premium_monthly' } }],
      custom_data: { userId: USERS[sub % USERS.length] },
    },
  };
}

const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({
  staticRoot: site,
  env: { DATABASE_URL, DATABASE_SCHEMA: SCHEMA, DEMO_BOT: 'off', PADDLE_WEBHOOK_SECRETS: SECRET, PADDLE_WEBHOOK_TOLERANCE_SECONDS: '60', WEBHOOK_RATE_LIMIT_MAX: '1000000', ...(process.env.BENCH_WORKER === 'off' ? { WEBHOOK_WORK_INTERVAL_MS: '0' } : {}) },
});
try {
  const bodies = Array.from({ length: TOTAL }, (_, n) => JSON.stringify(notification(n)));
  // node:http with keep-alive: a light client, so the figure is the server's (fetch's own cost on this
  // machine's two CPUs would be most of it; the providers' senders are not on our machine).
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const target = new URL(server.url);
  /** @returns {Promise<{ status: number, body: string }>} */
  const post = (/** @type {string} */ body, /** @type {Record<string, string>} */ headers) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: target.hostname, port: target.port, method: 'POST', path: '/api/webhooks/paddle', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  let accepted = 0;
  const send = async () => {
    while (next < bodies.length) {
      const body = /** @type {string} */ (bodies[next++]);
      const ts = Math.floor(Date.now() / 1000);
      const h1 = createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex');
      const res = await post(body, { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` });
      if (res.status !== 200) throw new Error(`the webhook answered ${res.status}: ${res.body.slice(0, 300)}`);
      const answer = JSON.parse(res.body);
      if (!answer.duplicate) accepted++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, send));
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(accepted / seconds);

  // The worker finishes what is left; then the inbox's own times say how long each event waited.
  const deadline = Date.now() + 120_000;
  let pending = '1';
  while (Date.now() < deadline) {
    pending = psql(`SELECT count(*) FROM ${SCHEMA}.webhook_events WHERE state <> 'applied'`);
    if (pending === '0') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const drained = (performance.now() - started) / 1000;
  const [p50, p99, max] = psql(
    `SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY w)::numeric), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY w)::numeric), round(max(w)::numeric)
     FROM (SELECT extract(epoch FROM applied_at - received_at) * 1000 AS w FROM ${SCHEMA}.webhook_events WHERE state = 'applied') x`,
  ).split('|');
  const subscriptions = psql(`SELECT count(*) FROM ${SCHEMA}.subscriptions WHERE slots = 2`);

  console.log(`Paddle webhooks on PostgreSQL: ${accepted.toLocaleString('en')} verified events, one per request, ${IN_FLIGHT} in flight\n`);
  table(
    ['figure', 'value', 'target'],
    [
      ['accepted events per second', rate, `>= ${TARGET}`],
      ['seconds to receive all', seconds.toFixed(1), ''],
      ['seconds until all applied', pending === '0' ? drained.toFixed(1) : `not all (${pending} left)`, ''],
      ['receipt to applied p50 ms', p50 ?? '', ''],
      ['receipt to applied p99 ms', p99 ?? '', ''],
      ['receipt to applied max ms', max ?? '', ''],
      ['subscriptions in their latest state', `${subscriptions} of ${TOTAL / 2}`, `${TOTAL / 2}`],
    ],
  );
  console.log(rate >= TARGET && pending === '0' && Number(subscriptions) === TOTAL / 2 ? '\nWithin the target.' : '\nBELOW the target.');
  agent.destroy();
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

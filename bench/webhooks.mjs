// @ts-check
/**
 * Verified webhook ingestion (`POST /api/webhooks/<provider>`) on PostgreSQL, and how long an event
 * waits from receipt to applied: the built all-in-one server on BENCH_DATABASE_URL (default
 * postgres://root@127.0.0.1:5432/test) in a schema of its own (dropped afterwards), the demo bot off.
 * WEBHOOK_PROVIDER (paddle, fastspring, chargebee, discord, or all; default paddle): WEBHOOK_EVENTS of
 * its webhooks (default 20,000: a creation and a later change for 10,000 subscriptions), each signed
 * as that provider does, one per request, WEBHOOK_IN_FLIGHT at once (default 32); the API's worker
 * applies them meanwhile. Prints accepted events per second (target >= 2,000) and, from the inbox's
 * own times, receipt to applied (p50, p99).
 */
import { execFileSync } from 'node:child_process';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
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

/** Paddle notification `index`: subscription index/2 created (even index) or updated with a later time (odd index). */
function paddle(/** @type {number} */ index) {
  const sub = Math.floor(index / 2);
  const updated = new Date(Date.UTC(2026, 10, 1) + sub * 1000 + (index % 2) * 500).toISOString();
  return {
    event_id: `evt_bench_${index}`,
    event_type: index % 2 === 0 ? 'subscription.created' : 'subscription.updated',
    occurred_at: updated,
    notification_id: `ntf_bench_${index}`,
    data: {
      id: `sub_bench_${sub}`,
      status: 'active',
      customer_id: `ctm_bench_${sub % USERS.length}`,
      updated_at: updated,
      current_billing_period: { starts_at: updated, ends_at: new Date(Date.parse(updated) + 30 * 86_400_000).toISOString() },
      scheduled_change: null,
      items: [{ quantity: 1 + (index % 2), price: { id: 'pri_premium_monthly' } }],
      custom_data: { userId: USERS[sub % USERS.length] },
    },
  };
}

const APP_ID = '1300000000000000001';
const time = (/** @type {number} */ n) => Date.UTC(2026, 10, 1) + Math.floor(n / 2) * 1000 + (n % 2) * 500;

/** FastSpring event `index` (a POST of one event): activated (even index), then updated (odd index). */
function fastspring(/** @type {number} */ index) {
  const sub = Math.floor(index / 2);
  return {
    events: [
      {
        id: `fs_bench_${index}`,
        type: index % 2 === 0 ? 'subscription.activated' : 'subscription.updated',
        live: false,
        processed: false,
        created: time(index),
        data: { id: `fssub_bench_${sub}`, state: 'active', changed: time(index), account: `acc_${sub % USERS.length}`, product: 'tickety-premium-monthly', quantity: 1 + (index % 2), next: time(index) + 30 * 86_400_000, tags: { userId: USERS[sub % USERS.length] } },
      },
    ],
  };
}

/** Chargebee event `index`: created (even index), then changed (odd index); customers are linked before (as a checkout does). */
function chargebee(/** @type {number} */ index) {
  const sub = Math.floor(index / 2);
  return {
    id: `ev_bench_${index}`,
    occurred_at: Math.floor(time(index) / 1000),
    object: 'event',
    api_version: 'v2',
    event_type: index % 2 === 0 ? 'subscription_created' : 'subscription_changed',
    content: {
      subscription: {
        id: `cbsub_bench_${sub}`,
        customer_id: `cbcus_bench_${sub % USERS.length}`,
        status: 'active',
        current_term_end: Math.floor(time(index) / 1000) + 30 * 86_400,
        due_invoices_count: 0,
        subscription_items: [{ item_price_id: 'tickety-premium-USD-Monthly', item_type: 'plan', quantity: 1 + (index % 2) }],
        resource_version: time(index),
      },
    },
  };
}

/** Discord event `index`: an entitlement created (even index), then updated with an end (odd index). */
function discord(/** @type {number} */ index) {
  const ent = Math.floor(index / 2);
  const at = new Date(time(index)).toISOString().replace('Z', '000');
  return {
    version: 1,
    application_id: APP_ID,
    type: 1,
    event: {
      type: index % 2 === 0 ? 'ENTITLEMENT_CREATE' : 'ENTITLEMENT_UPDATE',
      timestamp: at,
      data: {
        id: String(1500000000000000000n + BigInt(ent)),
        sku_id: '1300000000000000801',
        application_id: APP_ID,
        user_id: USERS[ent % USERS.length],
        type: 8,
        deleted: false,
        starts_at: new Date(time(index)).toISOString(),
        ends_at: index % 2 === 0 ? null : new Date(time(index) + 30 * 86_400_000).toISOString(),
      },
    },
  };
}

const FS_SECRET = 'fs_bench_secret';
const CB_USER = 'bench';
const CB_PASS = 'bench_password';
const ed = generateKeyPairSync('ed25519');
const ED_PUBLIC = Buffer.from(/** @type {string} */ (ed.publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');

/** @type {Record<string, { build: (n: number) => unknown, headers: (body: string) => Record<string, string>, sub: string, ok: number }>} */
const PROVIDERS = {
  paddle: {
    build: paddle,
    headers: (body) => {
      const ts = Math.floor(Date.now() / 1000);
      return { 'paddle-signature': `ts=${ts};h1=${createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex')}` };
    },
    sub: 'sub_bench_',
    ok: 200,
  },
  fastspring: { build: fastspring, headers: (body) => ({ 'x-fs-signature': createHmac('sha256', FS_SECRET).update(body).digest('base64') }), sub: 'fssub_bench_', ok: 200 },
  chargebee: { build: chargebee, headers: () => ({ authorization: `Basic ${Buffer.from(`${CB_USER}:${CB_PASS}`).toString('base64')}` }), sub: 'cbsub_bench_', ok: 200 },
  discord: {
    build: discord,
    headers: (body) => {
      const ts = String(Math.floor(Date.now() / 1000));
      return { 'x-signature-timestamp': ts, 'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(ts), Buffer.from(body)]), ed.privateKey).toString('hex') };
    },
    sub: '15',
    ok: 204,
  },
};
const chosen = (process.env.WEBHOOK_PROVIDER ?? 'paddle') === 'all' ? Object.keys(PROVIDERS) : [process.env.WEBHOOK_PROVIDER ?? 'paddle'];
for (const name of chosen) if (!PROVIDERS[name]) throw new Error(`WEBHOOK_PROVIDER must be paddle, fastspring, chargebee, discord or all, not ${name}`);

const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({
  staticRoot: site,
  env: {
    DATABASE_URL,
    DATABASE_SCHEMA: SCHEMA,
    DEMO_BOT: 'off',
    PADDLE_WEBHOOK_SECRETS: SECRET,
    PADDLE_WEBHOOK_TOLERANCE_SECONDS: '60',
    FASTSPRING_WEBHOOK_SECRETS: FS_SECRET,
    CHARGEBEE_WEBHOOK_CREDENTIALS: `${CB_USER}:${CB_PASS}`,
    DISCORD_PUBLIC_KEYS: ED_PUBLIC,
    WEBHOOK_RATE_LIMIT_MAX: '1000000',
    ...(process.env.BENCH_WORKER === 'off' ? { WEBHOOK_WORK_INTERVAL_MS: '0' } : {}),
  },
});
try {
  // Chargebee's subscriptions find their owner by the customer's link, made before a checkout.
  psql(
    `INSERT INTO ${SCHEMA}.billing_customers (provider, customer_id, user_id, created_at) SELECT 'chargebee', 'cbcus_bench_' || (i - 1), (1300000000000000200 + i - 1)::text, now() FROM generate_series(1, ${USERS.length}) i ON CONFLICT DO NOTHING`,
  );
  for (const name of chosen) await run(name, PROVIDERS[name]);
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  psql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

/** One provider's run. */
async function run(/** @type {string} */ name, /** @type {typeof PROVIDERS[string]} */ provider) {
  const bodies = Array.from({ length: TOTAL }, (_, n) => JSON.stringify(provider.build(n)));
  // node:http with keep-alive: a light client, so the figure is the server's (fetch's own cost on this
  // machine's two CPUs would be most of it; the providers' senders are not on our machine).
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const target = new URL(server.url);
  /** @returns {Promise<{ status: number, body: string }>} */
  const post = (/** @type {string} */ body, /** @type {Record<string, string>} */ headers) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: target.hostname, port: target.port, method: 'POST', path: `/api/webhooks/${name}`, agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
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
      const res = await post(body, { 'content-type': 'application/json', ...provider.headers(body) });
      if (res.status !== provider.ok) throw new Error(`the ${name} webhook answered ${res.status}: ${res.body.slice(0, 300)}`);
      if (res.status === 204 || !JSON.parse(res.body).duplicate) accepted++;
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
    pending = psql(`SELECT count(*) FROM ${SCHEMA}.webhook_events WHERE provider = '${name}' AND state <> 'applied'`);
    if (pending === '0') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const drained = (performance.now() - started) / 1000;
  const [p50, p99, max] = psql(
    `SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY w)::numeric), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY w)::numeric), round(max(w)::numeric)
     FROM (SELECT extract(epoch FROM applied_at - received_at) * 1000 AS w FROM ${SCHEMA}.webhook_events WHERE provider = '${name}' AND state = 'applied') x`,
  ).split('|');
  // The latest state of each: two slots (Paddle, FastSpring, Chargebee: quantity 2), an end (Discord).
  const subscriptions = psql(
    name === 'discord'
      ? `SELECT count(*) FROM ${SCHEMA}.subscriptions WHERE provider = 'discord' AND access_ends_at IS NOT NULL`
      : `SELECT count(*) FROM ${SCHEMA}.subscriptions WHERE provider = '${name}' AND slots = 2`,
  );

  console.log(`\n${name} webhooks on PostgreSQL: ${accepted.toLocaleString('en')} verified events, one per request, ${IN_FLIGHT} in flight\n`);
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
}

// @ts-check
/**
 * The Tickets page's live conversation at scale: the built all-in-one server (demo mode, the demo bot
 * off, a bot key from configuration), one open ticket on Ava's Arcade, STREAM_COUNT (default 500) open
 * SSE streams of it (`GET /api/guilds/:server/tickets/stream?ticket=`, Ava signed in) on the one
 * instance. The bot then sends STREAM_MESSAGES (default 30) messages one at a time (`POST
 * /api/bot/v1/messages`), each once every stream has the one before; per message and stream, the
 * time from the bot's request leaving to the frame with that message arriving. Prints p50/p95/max
 * (target p95 <= 1,000 ms) and the server's resident memory before and with the streams open, per
 * stream. STREAM_DATABASE=postgres runs it on PostgreSQL (BENCH_DATABASE_URL) instead of PGlite.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { pidOnPort, signIn, startServer, table } from './lib.mjs';

const STREAMS = Number(process.env.STREAM_COUNT ?? 500);
const MESSAGES = Number(process.env.STREAM_MESSAGES ?? 30);
const KEY = `tk_bot_benchkey_${'s'.repeat(43)}`;
const SERVER = '1100000000000000001';
const OPENER = '1300000000000000201';
const STAFF = '1000000000000000001';
const TICKET = `stream-${process.pid}`;
const TARGET_P95_MS = 1000;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = `bench_stream_${process.pid}`;
const onPostgres = process.env.STREAM_DATABASE === 'postgres';

/** Resident memory of a process (KiB), from /proc. */
function rssOf(/** @type {number} */ pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** @param {number[]} sorted @param {number} share */
function quantile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

async function bot(/** @type {string} */ base, /** @type {string} */ path, /** @type {unknown} */ body) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
}

/**
 * One SSE stream: calls `onMessage(id, at)` for every message id in a `messages` frame.
 * @param {URL} url @param {string} cookie @param {(id: string, at: number) => void} onMessage
 * @returns {Promise<() => void>} resolves once the answer's head arrived; the function closes it
 */
function openStream(url, cookie, onMessage) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { cookie, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: messages$/m.test(frame)) {
            const data = frame
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice(6))
              .join('\n');
            for (const item of JSON.parse(data).messages) onMessage(item.message.id, at);
          }
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('error', () => undefined);
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

if (onPostgres) execFileSync('psql', [DATABASE_URL, '-qc', `CREATE SCHEMA ${SCHEMA}`]);
const server = await startServer({
  env: {
    DEMO_BOT: 'off',
    BOT_API_KEY: KEY,
    BOT_RATE_LIMIT_MAX: '1000000',
    TICKET_STREAMS_PER_USER: String(STREAMS + 10),
    ...(onPostgres ? { DATABASE_URL, DATABASE_SCHEMA: SCHEMA } : {}),
  },
});
const closers = /** @type {Array<() => void>} */ ([]);
try {
  const base = server.url;
  const pid = pidOnPort(server.port);
  const at = new Date().toISOString();
  await bot(base, '/api/bot/v1/events', {
    events: [{ id: `${TICKET}-o`, serverId: SERVER, ticketId: TICKET, at, type: 'opened', panelId: 'support', openerId: OPENER, number: 9001, answers: [] }],
  });
  const jar = await signIn(base, 'ava');
  const cookie = jar.header();
  const url = new URL(`/api/guilds/${SERVER}/tickets/stream?ticket=${TICKET}`, base);

  // Warm the server (a few reads), then measure its memory without streams.
  for (let i = 0; i < 5; i++) await fetch(`${base}/api/guilds/${SERVER}/tickets`, { headers: { cookie } }).then((res) => res.arrayBuffer());
  await new Promise((ok) => setTimeout(ok, 2000));
  const before = rssOf(pid);

  /** @type {Map<string, { sent: number, arrived: number[] }>} */
  const messages = new Map();
  for (let i = 0; i < STREAMS; i++) {
    closers.push(
      await openStream(url, cookie, (id, time) => {
        messages.get(id)?.arrived.push(time);
      }),
    );
  }
  await new Promise((ok) => setTimeout(ok, 2000));
  const withStreams = rssOf(pid);

  const latencies = /** @type {number[]} */ ([]);
  let lost = 0;
  for (let i = 0; i < MESSAGES; i++) {
    const id = String(1500000000000000000n + BigInt(i));
    const entry = { sent: performance.now(), arrived: /** @type {number[]} */ ([]) };
    messages.set(id, entry);
    const author = i % 2 === 0 ? OPENER : STAFF;
    await bot(base, '/api/bot/v1/messages', {
      messages: [
        {
          id: `${TICKET}-m${i}`,
          serverId: SERVER,
          ticketId: TICKET,
          at: new Date().toISOString(),
          type: 'message_created',
          author: { id: author, username: `user${author.slice(-3)}`, displayName: null, avatarUrl: null, bot: false, staff: author === STAFF, colour: null },
          message: { id, authorId: author, content: `Message ${i}`, createdAt: new Date().toISOString(), editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] },
        },
      ],
    });
    const until = Date.now() + 10_000;
    while (entry.arrived.length < STREAMS && Date.now() < until) await new Promise((ok) => setTimeout(ok, 5));
    lost += STREAMS - Math.min(STREAMS, entry.arrived.length);
    for (const time of entry.arrived) latencies.push(time - entry.sent);
  }
  latencies.sort((a, b) => a - b);
  const p95 = quantile(latencies, 0.95);
  console.log(`Tickets live stream: ${STREAMS} open streams of one ticket on one instance (${onPostgres ? 'PostgreSQL' : 'PGlite'}), ${MESSAGES} messages sent by the bot one at a time`);
  table(
    ['figure', 'value'],
    [
      ['deliveries', `${latencies.length} (${lost} missing after 10 s)`],
      ['bot-to-dashboard p50', `${quantile(latencies, 0.5).toFixed(1)} ms`],
      ['bot-to-dashboard p95', `${p95.toFixed(1)} ms (target <= ${TARGET_P95_MS}: ${p95 <= TARGET_P95_MS && lost === 0 ? 'PASS' : 'FAIL'})`],
      ['bot-to-dashboard max', `${(latencies.at(-1) ?? Number.NaN).toFixed(1)} ms`],
      ['server RSS before', `${(before / 1024).toFixed(1)} MiB`],
      ['server RSS with the streams', `${(withStreams / 1024).toFixed(1)} MiB`],
      ['memory per open stream', `${((withStreams - before) / STREAMS).toFixed(1)} KiB`],
    ],
  );
} finally {
  for (const close of closers) close();
  await server.stop();
  if (onPostgres) execFileSync('psql', [DATABASE_URL, '-qc', `DROP SCHEMA ${SCHEMA} CASCADE`]);
}

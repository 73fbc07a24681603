// @ts-check
/**
 * The dashboard's hot reads against their floor, with targets. For each database (PostgreSQL in a
 * fresh database, then the embedded PGlite) the built all-in-one server (production, demo mode) is
 * started, Ava signs in through the sandbox, and each read is measured with autocannon beside a bare
 * node:http server (bare-me-server.mjs) and a minimal Fastify server (fastify-floor-server.mjs: the
 * cookie and an in-memory session, no more) answering the very bytes the API sent for it, in the same run:
 * `GET /api/auth/@me` (the dashboard, its server list), Ava's Arcade's configuration and the server
 * itself (`GET /api/guilds/:server`), with a browser's Accept-Encoding. Settings: API_BENCH_SECONDS (10), API_BENCH_CONNECTIONS (50), BENCH_READS_DATABASES (postgres,pglite),
 * API_BENCH_LOG_LEVEL (the server's LOG_LEVEL; warn unless set: `info` is production's, `debug` logs every request).
 */
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon, freePort, freshDatabase, signIn, startServer, table } from './lib.mjs';

const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.API_BENCH_CONNECTIONS ?? 50);
/** The server's LOG_LEVEL (the harness's warn unless set): info is production's, debug logs every request. */
const LOG_LEVEL = process.env.API_BENCH_LOG_LEVEL;
const DATABASES = (process.env.BENCH_READS_DATABASES ?? 'postgres,pglite').split(',').map((name) => name.trim());
/** What Chrome sends. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const AVAS_ARCADE = '1100000000000000001';

/**
 * Each read, its share of the bare server's throughput to reach (null: a diagnostic row, no target),
 * its p99 limit (ms; null: none) and the Accept-Encoding sent. The uncompressed @me shows what the
 * compression of a small answer costs.
 */
const READS = [
  { name: '@me (dashboard, server list)', path: '/api/auth/@me', ratio: 0.7, p99: 10, accept: BROWSER_ENCODINGS },
  { name: 'server config', path: `/api/guilds/${AVAS_ARCADE}/config`, ratio: 0.5, p99: null, accept: BROWSER_ENCODINGS },
  { name: 'server (page header)', path: `/api/guilds/${AVAS_ARCADE}`, ratio: 0.5, p99: null, accept: BROWSER_ENCODINGS },
  { name: '@me uncompressed (diagnostic)', path: '/api/auth/@me', ratio: null, p99: null, accept: 'identity' },
];

/**
 * The answer's bytes as they came over the wire (still compressed) and its encoding.
 * @param {string} url @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, body: Buffer, encoding: string | undefined }>}
 */
function wireAnswer(url, headers) {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), encoding: /** @type {string | undefined} */ (res.headers['content-encoding']) }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

/**
 * A floor server in its own process answering `body` with `encoding`: `bare-me-server.mjs` (node:http)
 * or `fastify-floor-server.mjs` (Fastify, a cookie and an in-memory session: `sessionCookie`).
 * @param {'bare-me-server.mjs' | 'fastify-floor-server.mjs'} script @param {Buffer} body
 * @param {string | undefined} encoding @param {string} sessionCookie
 */
async function startFloor(script, body, encoding, sessionCookie) {
  const port = await freePort();
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), script), [], {
    env: { ...process.env, PORT: String(port), BODY_BASE64: body.toString('base64'), CONTENT_ENCODING: encoding ?? '', SESSION_COOKIE: sessionCookie },
    stdio: 'inherit',
  });
  await new Promise((ok, fail) => {
    child.once('message', ok);
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** @param {any} result */
const failures = (result) => result.non2xx + result.errors + result.timeouts;
/** Successful answers a second (autocannon's average counts every answer, a 503 too). @param {any} result */
const okPerSecond = (result) => result['2xx'] / result.duration;

/** @param {string} database */
async function measure(database) {
  const fresh = database === 'postgres' ? freshDatabase('reads') : null;
  const server = await startServer({ env: { ...(fresh ? { DATABASE_URL: fresh.url } : {}), ...(LOG_LEVEL ? { LOG_LEVEL } : {}) } });
  /** @type {(string|number)[][]} */
  const rows = [];
  let failed = 0;
  try {
    const cookie = (await signIn(server.url, 'ava')).header();
    const sessionCookie = cookie.split('; ').find((pair) => pair.split('=')[0]?.includes('session')) ?? '';
    for (const read of READS) {
      const headers = { cookie, 'accept-encoding': read.accept };
      // After a run the server may still be shedding load (503, code 1011) while its backlog drains.
      let answer = await wireAnswer(`${server.url}${read.path}`, headers);
      for (let attempt = 0; answer.status === 503 && attempt < 30; attempt++) {
        await new Promise((ok) => setTimeout(ok, 1000));
        answer = await wireAnswer(`${server.url}${read.path}`, headers);
      }
      if (answer.status !== 200) throw new Error(`${read.path} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
      const bare = await startFloor('bare-me-server.mjs', answer.body, answer.encoding, sessionCookie);
      const framework = await startFloor('fastify-floor-server.mjs', answer.body, answer.encoding, sessionCookie);
      try {
        const floor = await cannon({ url: `${bare.url}${read.path}`, connections: CONNECTIONS, seconds: SECONDS, headers });
        const fastify = await cannon({ url: `${framework.url}${read.path}`, connections: CONNECTIONS, seconds: SECONDS, headers });
        if (fastify['2xx'] === 0) throw new Error('the Fastify floor answered no 2xx: did the session cookie reach it?');
        const api = await cannon({ url: `${server.url}${read.path}`, connections: CONNECTIONS, seconds: SECONDS, headers });
        const ratio = okPerSecond(api) / okPerSecond(floor);
        const pass = read.ratio === null || (ratio >= read.ratio && (read.p99 === null || api.latency.p99 <= read.p99) && failures(api) === 0);
        if (!pass) failed++;
        const target = read.ratio === null ? 'none' : `>= ${read.ratio * 100} %${read.p99 === null ? '' : `, p99 <= ${read.p99} ms`}`;
        rows.push([
          read.name,
          `${answer.body.length} B ${answer.encoding ?? 'plain'}`,
          Math.round(okPerSecond(floor)),
          Math.round(okPerSecond(fastify)),
          `${((okPerSecond(fastify) / okPerSecond(floor)) * 100).toFixed(0)} %`,
          Math.round(okPerSecond(api)),
          `${(ratio * 100).toFixed(0)} %`,
          `${((okPerSecond(api) / okPerSecond(fastify)) * 100).toFixed(0)} %`,
          floor.latency.p99,
          api.latency.p50,
          api.latency.p99,
          failures(api),
          target,
          read.ratio === null ? '' : pass ? 'PASS' : 'FAIL',
        ]);
      } finally {
        bare.stop();
        framework.stop();
      }
    }
  } finally {
    await server.stop();
    fresh?.drop();
  }
  console.log(`\n${database === 'postgres' ? 'PostgreSQL (a fresh database)' : 'PGlite (embedded, in the server process)'}: ${CONNECTIONS} connections, ${SECONDS} s each, autocannon\n`);
  table(['read', 'answer', 'bare 2xx/s', 'Fastify 2xx/s', 'Fastify/bare', 'API 2xx/s', 'API/bare', 'API/Fastify', 'bare p99', 'API p50', 'API p99', 'non-2xx/errors', 'target', ''], rows);
  if (database === 'pglite') {
    console.log(
      '\nPGlite is one connection inside the server process: every query runs on the event loop that also serves HTTP, one at a time, so 50 connections queue behind it, and past a second of event-loop delay the server sheds requests (503, code 1011: MAX_EVENT_LOOP_DELAY_MS); the targets are for PostgreSQL.',
    );
  }
  return failed;
}

let failedReads = 0;
for (const database of DATABASES) {
  if (database !== 'postgres' && database !== 'pglite') throw new Error(`BENCH_READS_DATABASES: unknown database ${database} (postgres or pglite)`);
  const failed = await measure(database);
  if (database === 'postgres') failedReads += failed;
}
if (DATABASES.includes('postgres')) {
  console.log(`\n${failedReads === 0 ? 'every PostgreSQL read met its target' : `${failedReads} PostgreSQL read(s) missed the target`} (figures only: the exit code stays 0).`);
}

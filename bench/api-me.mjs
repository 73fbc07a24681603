// @ts-check
/**
 * Throughput of `GET /api/auth/@me` with a real session (Ava, signed in through the sandbox with
 * login_hint using plain fetch), measured with autocannon, beside a bare node:http server answering
 * the same JSON in the same run. Both servers run in their own processes; autocannon runs here.
 * Rate limits are raised for the run so the figure is the handler's, not the limiter's.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, signIn, startServer, table } from './lib.mjs';

const DURATION = Number(process.env.API_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.API_BENCH_CONNECTIONS ?? 10);

/** @param {string} url @param {Record<string, string>} headers */
function run(url, headers) {
  return new Promise((ok, fail) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, result) => (error ? fail(error) : ok(result)));
  });
}

const server = await startServer();
/** @type {import('node:child_process').ChildProcess | undefined} */
let bare;
try {
  const jar = await signIn(server.url, 'ava');
  const cookie = jar.header();
  const me = await fetch(`${server.url}/api/auth/@me`, { headers: { cookie } });
  const body = await me.text();
  const parsed = JSON.parse(body);
  if (me.status !== 200 || parsed.isAuthenticated !== true) throw new Error(`@me with the session cookie answered ${me.status}: ${body.slice(0, 200)}`);

  const barePort = await freePort();
  bare = fork(join(dirname(fileURLToPath(import.meta.url)), 'bare-me-server.mjs'), [], {
    env: { ...process.env, PORT: String(barePort), BODY: body },
    stdio: 'inherit',
  });
  await new Promise((ok, fail) => {
    bare?.once('message', ok);
    bare?.once('exit', (code) => fail(new Error(`bare server exited with ${code}`)));
  });

  console.log(`GET /api/auth/@me (${body.length} bytes of JSON, user ${parsed.user?.username}), ${CONNECTIONS} connections, ${DURATION} s each, autocannon\n`);
  /** @type {(string|number)[][]} */
  const rows = [];
  for (const [name, url, headers] of /** @type {const} */ ([
    ['bare node:http', `http://127.0.0.1:${barePort}/api/auth/@me`, {}],
    ['Tickety API (session)', `${server.url}/api/auth/@me`, { cookie }],
  ])) {
    /** @type {any} */
    const result = await run(url, headers);
    const non2xx = result.non2xx + result.errors + result.timeouts;
    rows.push([name, Math.round(result.requests.average), result.latency.p50, result.latency.p99, result.latency.max, result.requests.total ?? result.requests.sent, non2xx]);
  }
  table(['server', 'req/s (avg)', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'non-2xx/errors'], rows);
  const [bareRow, apiRow] = rows;
  if (bareRow && apiRow) console.log(`\nAPI throughput is ${((Number(apiRow[1]) / Number(bareRow[1])) * 100).toFixed(0)}% of the bare server's.`);
} finally {
  bare?.kill('SIGTERM');
  await server.stop();
}

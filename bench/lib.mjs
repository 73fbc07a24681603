// @ts-check
/**
 * What every bench script shares. The server, the browser and the sign-in are the end-to-end suite's
 * own harness (@tickety/e2e: e2e/src/server.ts, chromium.ts, session.ts), loaded through tsx, so the
 * benches measure exactly what the tests drive; here only the bench's own settings and the printing.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { register } from 'tsx/esm/api';

register();
const harness = await import('@tickety/e2e/server');
const session = await import('@tickety/e2e/session');
const browser = await import('@tickety/e2e/chromium');

export const { REPO_DIR, SERVER_JS, DEPLOY_JS, deploySite, freePort } = harness;
export const { CHROMIUM_PATH, CHROMIUM_ARGS, launchChromium } = browser;
export const { signInContext } = session;

/**
 * The built all-in-one server on a free loopback port (demo mode, the built front ends deployed into
 * a temporary site, a fresh database), with the rate limits (per address, per staff member, per user
 * of a provider) raised so a load test measures the handler, not the limiter; and no cap on requests
 * per connection (MAX_REQUESTS_PER_SOCKET, 1,000 by default): past it Node answers `Connection:
 * close`, which a browser or balancer obeys and autocannon does not (it keeps sending and counts 503s).
 * @param {{ env?: Record<string, string>, staticRoot?: string }} [options]
 */
export function startServer(options = {}) {
  return harness.startServer({
    ...options,
    env: { RATE_LIMIT_MAX: '1000000', STAFF_RATE_LIMIT_MAX: '1000000', PROVIDER_RATE_LIMIT_MAX: '1000000', MAX_REQUESTS_PER_SOCKET: '0', ...options.env },
  });
}

/**
 * Signs a demo user in without a browser (the sandbox with login_hint); the jar holds the session cookie.
 * @param {string} baseURL
 * @param {import('@tickety/e2e/session').DemoUserKey} user
 */
export function signIn(baseURL, user) {
  return session.signInWithHint(baseURL, user);
}

/** Which app a URL belongs to: a remote by its `/remotes/<name>/` prefix, else the shell (same origin). */
export function appOf(/** @type {string} */ url, /** @type {string} */ baseURL) {
  const parsed = new URL(url);
  if (parsed.origin !== new URL(baseURL).origin) return `external (${parsed.host})`;
  const remote = parsed.pathname.match(/^\/remotes\/([^/]+)\//);
  return remote ? /** @type {string} */ (remote[1]) : 'shell';
}

/** @param {number} bytes */
export function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Prints rows as an aligned text table.
 * @param {string[]} head
 * @param {(string|number)[][]} rows
 */
export function table(head, rows) {
  const all = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
  const line = (/** @type {(string|number)[]} */ r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i] ?? 0) : String(c).padStart(widths[i] ?? 0))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? /** @type {number} */ (sorted[mid]) : (/** @type {number} */ (sorted[mid - 1]) + /** @type {number} */ (sorted[mid])) / 2;
}

/** The PostgreSQL the benches create their databases on (trust auth, as CI has it): BENCH_PG_URL. */
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

/**
 * A fresh PostgreSQL database for one run (`CREATE DATABASE` on BENCH_PG_URL's server, through psql):
 * its URL, and drop() that removes it (FORCE: closes what is left connected).
 * @param {string} label
 */
export function freshDatabase(label) {
  const name = `tickety_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  execFileSync('psql', [PG_ADMIN_URL, '-q', '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    /** pg_database_size in bytes. */
    size: () => Number(execFileSync('psql', [PG_ADMIN_URL, '-Atc', `SELECT pg_database_size('${name}')`]).toString().trim()),
    drop: () => execFileSync('psql', [PG_ADMIN_URL, '-q', '-c', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdio: ['ignore', 'ignore', 'inherit'] }),
  };
}

/**
 * autocannon for `seconds` at `connections`; resolves to its result.
 * @param {{ url: string, connections: number, seconds: number, headers?: Record<string, string> }} options
 * @returns {Promise<any>}
 */
export function cannon({ url, connections, seconds, headers = {} }) {
  return new Promise((ok, fail) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) => (error ? fail(error) : ok(result)));
  });
}

/**
 * Serves each copy at its page's path and forwards everything else (stylesheets, images, fonts) to
 * the app server with the request's cookie, compressed as the app serves it.
 * @param {Map<string, string>} copies path → HTML
 * @param {string} upstream
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveStaticCopies(copies, upstream) {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const html = copies.get(path);
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(html);
      return;
    }
    const forwarded = /** @type {Record<string, string>} */ ({ 'accept-encoding': String(req.headers['accept-encoding'] ?? '') });
    if (req.headers.cookie) forwarded.cookie = req.headers.cookie;
    const answer = await fetch(`${upstream}${req.url}`, { headers: forwarded });
    const headers = {};
    for (const name of ['content-type', 'content-encoding', 'cache-control']) {
      const value = answer.headers.get(name);
      if (value) headers[name] = value;
    }
    res.writeHead(answer.status, headers);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok(undefined))) };
}

/** The pid of the process listening on a loopback port (ss -ltnp). @param {number} port */
export function pidOnPort(port) {
  const line = execFileSync('ss', ['-Hltnp', `sport = :${port}`]).toString();
  const match = line.match(/pid=(\d+)/);
  if (!match) throw new Error(`no process found listening on port ${port}: ${line}`);
  return Number(match[1]);
}

// @ts-check
/** What every bench script shares: the built all-in-one server, Debian's Chromium, demo sign-in. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const APPS_DIR = join(REPO_DIR, 'apps');
export const SERVER_JS = join(APPS_DIR, 'api', 'dist', 'server.js');
export const DEPLOY_JS = join(REPO_DIR, 'scripts', 'deploy.mjs');

/**
 * Deploys the built front ends (no build) into a site folder: the layout the server serves.
 * @param {string} dir
 */
export function deploySite(dir) {
  const r = spawnSync(process.execPath, [DEPLOY_JS, 'all', '--site', dir, '--no-build'], { cwd: REPO_DIR, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`deploying the front ends into ${dir} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}

/** Debian's Chromium (never a downloaded browser) and the flags every run uses. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Ids of the sandbox's demo users (packages/sandbox/src/demo-data.ts). */
export const DEMO_USER_IDS = {
  ava: '1000000000000000001',
  ben: '1000000000000000002',
  cleo: '1000000000000000003',
  sam: '1000000000000000004',
};

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => ok(port));
    });
  });
}

/**
 * Starts `ALL_IN_ONE=1 node apps/api/dist/server.js` on a free loopback port, demo mode, the built
 * front ends deployed into a temporary site (STATIC_ROOT), fresh temp DATA_DIR, production settings (compression on), rate limits raised so the load test measures the
 * handler and not the limiter. Resolves once /config.json answers.
 * @param {{ env?: Record<string, string> }} [options]
 */
export async function startServer(options = {}) {
  if (!existsSync(SERVER_JS)) {
    throw new Error(`${SERVER_JS} is missing: build first (pnpm exec turbo run build --filter=./apps/*).`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const tmp = mkdtempSync(join(tmpdir(), 'tickety-bench-'));
  try {
    deploySite(join(tmp, 'site'));
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env };
  for (const name of ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'DASHBOARD_ORIGINS', 'STATIC_ROOT', 'TOKEN_ENCRYPTION_KEY']) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    ALL_IN_ONE: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: join(tmp, 'pglite'),
    STATIC_ROOT: join(tmp, 'site'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    ...options.env,
  });
  /** @type {string[]} */
  const lines = [];
  const child = spawn(process.execPath, [SERVER_JS], { cwd: REPO_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (/** @type {Buffer} */ chunk) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 100) lines.splice(0, lines.length - 100);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((ok) => child.once('exit', ok));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with ${child.exitCode}:\n${lines.join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/config.json`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { url, port, pid: child.pid, stop, logs: () => lines.join('\n') };
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 150));
  }
  await stop();
  throw new Error(`server did not answer within 90 s:\n${lines.join('\n')}`);
}

/** A minimal cookie jar for one origin. */
export class CookieJar {
  /** @type {Map<string, { name: string, value: string, path: string, httpOnly: boolean }>} */
  cookies = new Map();

  /** @param {Response} res */
  take(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const attr = (/** @type {string} */ key) => attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith(key));
      const maxAge = attr('max-age=');
      const expires = attr('expires=');
      const expired = (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) || (expires !== undefined && Date.parse(expires.slice(8)) < Date.now());
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { name, value, path: attr('path=')?.slice(5) || '/', httpOnly: attrs.some((a) => a.trim().toLowerCase() === 'httponly') });
    }
  }

  header() {
    return [...this.cookies.values()].map((c) => `${c.name}=${c.value}`).join('; ');
  }
}

/**
 * Signs a demo user in with plain fetch: /api/auth/login → sandbox authorize URL + login_hint →
 * /api/auth/callback, following redirects by hand and keeping cookies.
 * @param {string} baseURL
 * @param {keyof typeof DEMO_USER_IDS} user
 */
export async function signIn(baseURL, user) {
  const jar = new CookieJar();
  let url = new URL('/api/auth/login', baseURL);
  /** @type {string[]} */
  const trail = [];
  for (let hop = 0; hop < 12; hop++) {
    if (url.pathname.includes('/oauth2/authorize') && !url.searchParams.has('login_hint')) url.searchParams.set('login_hint', DEMO_USER_IDS[user]);
    trail.push(url.pathname);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(), accept: 'text/html' } });
    jar.take(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    await res.arrayBuffer();
    if (res.ok && url.pathname.startsWith('/api/auth/callback')) return jar;
    throw new Error(`sign-in as ${user} stopped with HTTP ${res.status} at ${url.pathname} (${trail.join(' → ')})`);
  }
  throw new Error(`sign-in as ${user}: too many redirects (${trail.join(' → ')})`);
}

/**
 * Puts a signed-in demo user's cookies into a playwright browser context.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} baseURL
 * @param {keyof typeof DEMO_USER_IDS} user
 */
export async function signInContext(context, baseURL, user) {
  const jar = await signIn(baseURL, user);
  const { hostname } = new URL(baseURL);
  await context.addCookies(
    [...jar.cookies.values()].map((c) => ({ name: c.name, value: c.value, domain: hostname, path: c.path, httpOnly: c.httpOnly, secure: false, sameSite: /** @type {const} */ ('Lax') })),
  );
}

/** @param {import('playwright-core').BrowserType} chromium */
export function launchChromium(chromium) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Which app a URL belongs to: a remote by its `/remotes/<name>/` prefix, else the shell (same origin). */
export function appOf(/** @type {string} */ url, /** @type {string} */ baseURL) {
  const u = new URL(url);
  if (u.origin !== new URL(baseURL).origin) return `external (${u.host})`;
  const m = u.pathname.match(/^\/remotes\/([^/]+)\//);
  return m ? /** @type {string} */ (m[1]) : 'shell';
}

/** @param {number} n */
export function kb(n) {
  return `${(n / 1024).toFixed(1)} KiB`;
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
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? /** @type {number} */ (s[mid]) : (/** @type {number} */ (s[mid - 1]) + /** @type {number} */ (s[mid])) / 2;
}

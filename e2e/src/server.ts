import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_IDS } from '@tickety/api-contract/remote-ids';

/** The repository root and its `apps/` folder (the built front ends and the API live there). */
export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const APPS_DIR = join(REPO_DIR, 'apps');
/** The all-in-one launcher's server (apps/api/demo/all-in-one.ts): the API, the site and, in demo mode, the sandbox. */
export const SERVER_JS = join(APPS_DIR, 'api', 'dist', 'all-in-one.js');
export const DEPLOY_JS = join(REPO_DIR, 'scripts', 'deploy.mjs');
/** Every front end: the remotes (the contract's list), then the shell. */
export const FRONT_ENDS = [...REMOTE_IDS, 'shell'] as const;

/**
 * Deploys the built front ends (`apps/<app>/dist`, no build) into a site folder, as
 * `node scripts/deploy.mjs <app>... --site <dir> --no-build` does: the layout the server serves.
 */
export function deploySite(dir: string, apps: readonly string[] = FRONT_ENDS): void {
  const deploy = spawnSync(process.execPath, [DEPLOY_JS, ...apps, '--site', dir, '--no-build'], { cwd: REPO_DIR, encoding: 'utf8' });
  if (deploy.status !== 0) throw new Error(`deploying ${apps.join(', ')} into ${dir} failed (exit ${deploy.status}):\n${deploy.stdout}${deploy.stderr}`);
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  dataDir: string;
  /** The last lines the server printed (for failure messages). */
  logs(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The site folder the server serves (its STATIC_ROOT); by default every built front end deployed into a temporary one. */
  staticRoot?: string;
  /** Extra environment (wins over the defaults below). */
  env?: Record<string, string>;
}

/** A free TCP port on 127.0.0.1 (the OS picks one; it is free again once we close). */
export function freePort(): Promise<number> {
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
 * Starts the built all-in-one server (`ALL_IN_ONE=1 node apps/api/dist/all-in-one.js`) on a free port, on
 * a site folder (the built front ends deployed into a temporary one unless given), with
 * a fresh temporary DATA_DIR (embedded PGlite), in demo mode (no DISCORD_CLIENT_ID: the Discord sandbox
 * is mounted), and resolves once `/config.json` answers.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_JS)) {
    throw new Error(`${SERVER_JS} is missing: build the apps first (pnpm exec turbo run build --filter=./apps/*).`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const tmp = mkdtempSync(join(tmpdir(), 'tickety-e2e-'));
  const dataDir = join(tmp, 'pglite');
  let staticRoot = options.staticRoot;
  if (!staticRoot) {
    staticRoot = join(tmp, 'site');
    try {
      deploySite(staticRoot);
    } catch (error) {
      rmSync(tmp, { recursive: true, force: true });
      throw error;
    }
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Demo mode on the embedded database, whatever the caller's shell has set.
  for (const name of ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'DASHBOARD_ORIGINS', 'STATIC_ROOT', 'DOCS_URL', 'TOKEN_ENCRYPTION_KEY']) {
    delete env[name];
  }
  Object.assign(env, {
    NODE_ENV: 'production',
    ALL_IN_ONE: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The suite signs in dozens of times a minute from one address.
    RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_MAX: '100000',
    STATIC_ROOT: staticRoot,
    // The demo bot (ticket history, live events, transcripts) only where a test asks for it.
    DEMO_BOT: 'off',
    ...options.env,
  });

  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  const child: ChildProcess = spawn(process.execPath, [SERVER_JS], { cwd: REPO_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));

  const logs = () => lines.join('\n');
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

  // Ready when the process answers /config.json (or fail fast if it exits first).
  const deadline = Date.now() + 90_000;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The all-in-one server exited with code ${child.exitCode} before it was ready:\n${logs()}`);
    }
    try {
      const res = await fetch(`${url}/config.json`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { url, port, dataDir, logs, stop };
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((ok) => setTimeout(ok, 150));
  }
  await stop();
  throw new Error(`The all-in-one server did not answer ${url}/config.json within 90 s (${lastError}):\n${logs()}`);
}

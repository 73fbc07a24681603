import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_DIR } from '../../src/config';

/** scripts/deploy.mjs, the one writer of the site layout. */
export const DEPLOY_JS = join(REPO_DIR, 'scripts', 'deploy.mjs');

/** Route tables as the remotes' builds emit them (routes.json), small but real. */
export const TABLES = {
  marketing: {
    schema: 1,
    remote: 'marketing',
    mounts: ['/', '/premium', '/home-display'],
    routes: [
      { path: '/', layout: 'public', page: 'Home' },
      { path: '/premium', layout: 'public', page: 'Premium', title: 'Premium' },
      { path: '/home-display', layout: 'display', page: 'HomeDisplay' },
    ],
  },
  billing: {
    schema: 1,
    remote: 'billing',
    mounts: ['/billing'],
    routes: [
      { path: '/billing', layout: 'subscription', page: 'Billing', title: 'Billing', requiresAuth: true },
      { path: '/billing/:user/paddle/:id', layout: 'subscription', page: 'Provider', data: { provider: 'paddle' } },
    ],
  },
  dashboard: {
    schema: 1,
    remote: 'dashboard',
    mounts: ['/dashboard'],
    routes: [
      {
        path: '/dashboard/:server',
        layout: 'server',
        requiresAuth: true,
        children: [
          { index: true, redirect: 'configs' },
          { path: 'configs', page: 'Configs', title: 'Configs', sidebar: { label: 'Configs', icon: 'settings' } },
        ],
      },
    ],
  },
  staff: {
    schema: 1,
    remote: 'staff',
    mounts: ['/staff'],
    routes: [{ path: '/staff/system', layout: 'public', page: 'System', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' }],
  },
} as const;

export type RemoteName = keyof typeof TABLES;

export function writeFile(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Replaces a file the way the deploy script does (temporary file + rename). */
export function replaceFile(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFile(tmp, content);
  renameSync(tmp, path);
}

/** A remote's build folder: mf-manifest.json, remoteEntry.js, a chunk and routes.json. */
export function remoteDist(dir: string, name: string, routes: unknown, chunk = 'export default 1;'): string {
  writeFile(join(dir, 'mf-manifest.json'), JSON.stringify({ id: name, name, metaData: { publicPath: 'auto' } }));
  writeFile(join(dir, 'remoteEntry.js'), `var ${name};`);
  writeFile(join(dir, 'static/js/page.0123abcd.js'), chunk);
  writeFile(join(dir, 'routes.json'), `${JSON.stringify(routes, null, 2)}\n`);
  return dir;
}

/** The shell's build folder: index.html (publicPath /), hashed assets, a favicon. */
export function shellDist(dir: string, marker: string, asset = 'main.3f9a2c1d.js'): string {
  writeFile(join(dir, 'index.html'), `<!doctype html><title>Tickety</title><script src="/assets/${asset}"></script><div id="root" data-build="${marker}"></div>`);
  writeFile(join(dir, 'assets', asset), `console.log(${JSON.stringify(marker)})`);
  writeFile(join(dir, 'favicon.svg'), '<svg/>');
  return dir;
}

/** A site folder written by hand (for compositions the deploy script would refuse). */
export function writeSite(
  root: string,
  opts: { remotes?: Record<string, unknown>; shell?: string | null; html?: string; extra?: Record<string, unknown> } = {},
): void {
  writeFile(join(root, 'index.html'), opts.html ?? '<!doctype html><title>Tickety</title><div id="root"></div>');
  writeFile(join(root, 'config.json'), JSON.stringify({ ...(opts.extra ?? {}), remotes: opts.remotes ?? {}, ...(opts.shell ? { shell: { version: opts.shell } } : {}) }, null, 2));
}

/** A config.json entry for a remote deployed site-relative at `version`. */
export function entry(name: RemoteName, version: string, routes: unknown = TABLES[name], base = ''): { manifest: string; version: string; routes: unknown } {
  return { manifest: `${base}/remotes/${name}/${version}/mf-manifest.json`, version, routes };
}

export interface DeployRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/deploy.mjs ...args`. */
export function deployCli(args: string[]): DeployRun {
  const result = spawnSync(process.execPath, [DEPLOY_JS, ...args], { cwd: REPO_DIR, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

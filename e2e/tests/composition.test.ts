import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { APPS_DIR, DEPLOY_JS, deploySite, REPO_DIR, type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Adding a page is a change in one remote, then a deploy of that remote: this builds a variant of the
 * dashboard remote with one extra server page (a copy of the app with the page, its route-table entry
 * and its component added), deploys it into a site whose shell was built before, and checks the page
 * works without rebuilding the shell; rolling back makes the address a 404 again.
 */
let server: RunningServer | undefined;
let site = '';
let work = '';
const harness = useBrowser({ baseURL: () => server!.url });
const SERVER = DEMO_GUILDS.avasArcade.id;

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const deploy = (...args: string[]) => run(process.execPath, [DEPLOY_JS, ...args, '--site', site], REPO_DIR);
const config = () => JSON.parse(readFileSync(join(site, 'config.json'), 'utf8')) as { shell?: { version: string }; remotes: Record<string, { version: string }> };

/** Builds the dashboard remote with a Reminders page; returns its dist folder. */
function buildVariant(): string {
  const app = join(work, 'apps', 'dashboard');
  cpSync(join(APPS_DIR, 'dashboard'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  // The copy resolves its dependencies (and the workspace packages) through the real app's.
  symlinkSync(join(APPS_DIR, 'dashboard', 'node_modules'), join(app, 'node_modules'), 'dir');
  cpSync(join(REPO_DIR, 'tsconfig.base.json'), join(work, 'tsconfig.base.json'));
  mkdirSync(join(app, 'src', 'features', 'reminders'), { recursive: true });
  writeFileSync(
    join(app, 'src', 'features', 'reminders', 'reminders.tsx'),
    `export default function RemindersPage() {\n  return <h1 className="text-2xl font-bold">Reminders</h1>;\n}\n`,
  );
  const tableFile = join(app, 'src', 'route-table.ts');
  const table = readFileSync(tableFile, 'utf8');
  const anchor = "        {\n          path: 'server-configs',";
  expect(table).toContain(anchor);
  writeFileSync(
    tableFile,
    table.replace(anchor, `        { path: 'reminders', page: 'serverReminders', title: 'Reminders', requiresAuth: true, sidebar: { label: 'Reminders', icon: 'settings' } },\n${anchor}`),
  );
  const routesFile = join(app, 'src', 'routes.tsx');
  const routes = readFileSync(routesFile, 'utf8');
  const routesAnchor = '  routes: {\n';
  expect(routes).toContain(routesAnchor);
  writeFileSync(routesFile, routes.replace(routesAnchor, `${routesAnchor}    serverReminders: { Component: lazy(() => import('./features/reminders/reminders')) },\n`));
  run(join(app, 'node_modules', '.bin', 'rspack'), ['build'], app, { NODE_ENV: 'production' });
  return join(app, 'dist');
}

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'tickety-e2e-composition-'));
  work = mkdtempSync(join(tmpdir(), 'tickety-e2e-variant-'));
  deploySite(site);
  server = await startServer({ staticRoot: site });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  for (const dir of [site, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a remote adds a page by deploying itself', () => {
  test('the new page works with the shell already deployed; rolling back makes it a 404 again', async () => {
    const before = config();
    await signInContext(harness.context, harness.baseURL, 'ava');

    // Not deployed yet: the address is a 404 (status and page).
    const missing = await harness.page.goto(`/dashboard/${SERVER}/reminders`);
    expect(missing?.status()).toBe(404);
    await main(harness.page).getByRole('heading', { name: 'Page not found' }).waitFor();

    const dist = buildVariant();
    deploy('dashboard', '--no-build', '--dist', dist);
    const after = config();
    expect(after.remotes.dashboard!.version).not.toBe(before.remotes.dashboard!.version);
    // The shell was not rebuilt or redeployed.
    expect(after.shell).toEqual(before.shell);

    // The open tab picks the new version up on its next load.
    const page = await harness.page.goto(`/dashboard/${SERVER}/reminders`);
    expect(page?.status()).toBe(200);
    await main(harness.page).getByRole('heading', { name: 'Reminders' }).waitFor();
    expect(await titleOf(harness.page, 'Tickety - Reminders')).toBe('Tickety - Reminders');
    const sidebar = harness.page.getByRole('navigation', { name: 'Server' });
    await sidebar.getByRole('link', { name: 'Reminders' }).waitFor();
    await shot(harness.page, 'composition-variant-page');
    // The other server pages still come from the same (new) remote version.
    await sidebar.getByRole('link', { name: 'Panel Menu' }).click();
    await harness.page.waitForURL(`**/dashboard/${SERVER}/configs`);
    expect(harness.requests.some((u) => u.includes(`/remotes/dashboard/${after.remotes.dashboard!.version}/`))).toBe(true);

    deploy('rollback', 'dashboard');
    expect(config().remotes.dashboard!.version).toBe(before.remotes.dashboard!.version);
    const gone = await harness.page.goto(`/dashboard/${SERVER}/reminders`);
    expect(gone?.status()).toBe(404);
    await main(harness.page).getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await harness.page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Reminders' }).count()).toBe(0);
  });
});

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DISMISSED_KEY } from '../../apps/shell/src/announcements/dismissals';
import { shot, useBrowser } from '../src/browser';
import { loginRequired, main, startApp } from '../src/pages';
import { DEPLOY_JS, deploySite, REPO_DIR, type RunningServer, startServer } from '../src/server';

/**
 * The site on a plain static host, the API elsewhere: `deploy.mjs --public-url` writes the public pages
 * as files; the host serves files (a folder's index.html for its address), 404.html with status 404
 * for anything else, and the CSP deploy printed for the shell's boot script. Nothing renders per
 * request.
 */
let api: RunningServer | undefined;
let host: Server | undefined;
let origin = '';
let site = '';
let csp = '';
const harness = useBrowser({ baseURL: () => origin });

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.svg': 'image/svg+xml', '.xml': 'application/xml', '.txt': 'text/plain' };

function startHost(root: string): Promise<Server> {
  const hostServer = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname));
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    const found = file.startsWith(root) && existsSync(file) && statSync(file).isFile();
    const served = found ? file : join(root, '404.html');
    const headers: Record<string, string> = { 'content-type': TYPES[extname(served)] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
    if (served.endsWith('.html')) headers['content-security-policy'] = csp;
    res.writeHead(found ? 200 : 404, headers);
    createReadStream(served).pipe(res);
  });
  return new Promise((ok) => hostServer.listen(0, '127.0.0.1', () => ok(hostServer)));
}

function deployCli(args: string[]): string {
  const deploy = spawnSync(process.execPath, [DEPLOY_JS, ...args, '--site', site], { cwd: REPO_DIR, encoding: 'utf8' });
  if (deploy.status !== 0) throw new Error(`deploy ${args.join(' ')} failed:\n${deploy.stdout}${deploy.stderr}`);
  return deploy.stdout;
}

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'tickety-e2e-static-'));
  host = await startHost(site);
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  // The API on its own origin, accepting the host's pages as its dashboard.
  api = await startServer({ env: { DASHBOARD_ORIGINS: origin } });
  deploySite(site);
  // A split deployment's config.json carries the runtime settings (here: the API's own).
  const runtime = (await (await fetch(`${api.url}/config.json`)).json()) as Record<string, unknown>;
  const file = join(site, 'config.json');
  const cfg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { remotes: _r, shell: _s, ...settings } = runtime;
  writeFileSync(file, JSON.stringify({ ...cfg, ...settings }, null, 2));
  // `pages` writes the public pages and prints the CSP the shell's boot script needs.
  const out = deployCli(['pages', '--public-url', origin]);
  const hash = /script-src 'self' ('sha256-[^']+')/.exec(out)?.[1];
  if (!hash) throw new Error(`deploy did not print the boot script's hash:\n${out}`);
  // Paddle.js and its checkout come from the API's origin here (demo mode's stand-in), as from
  // cdn.paddle.com and Paddle's checkout in production: the host's CSP allows them (docs/operations.md).
  csp = `default-src 'self'; script-src 'self' ${hash} ${api.url}; frame-src 'self' ${api.url}; connect-src 'self' ${api.url}; img-src 'self' data: ${api.url}; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'`;
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await new Promise<void>((ok) => (host ? host.close(() => ok()) : ok()));
  if (site) rmSync(site, { recursive: true, force: true });
});

describe('the site on a static host', () => {
  test('serves every public page as HTML with its head, sitemap.xml and robots.txt', async () => {
    const context = await harness.browser.newContext({ baseURL: origin, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const path of ['/', '/premium', '/privacy-policy', '/support']) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        await main(page).getByRole('heading', { level: 1 }).first().waitFor();
        expect(await page.locator('link[rel="canonical"]').getAttribute('href'), path).toBe(`${origin}${path}`);
      }
      await shot(page, 'static-host-premium-no-javascript');
    } finally {
      await context.close();
    }
    const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${origin}/premium</loc>`);
    expect(await (await fetch(`${origin}/robots.txt`)).text()).toContain('Disallow: /dashboard');
  });

  test('answers an unknown address with 404 and the prerendered 404 page, which the app then takes over', async () => {
    const res = await harness.page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await main(harness.page).getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await harness.page.title()).toBe('Tickety - Not Found');
    await harness.page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    await main(harness.page).getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(harness.errors.filter((e) => !e.includes(`${origin}/no-such-page: Failed to load resource`))).toEqual([]);
  });

  test("an app page the host does not know (its 404.html) starts the app at once, which shows that page", async () => {
    await harness.page.goto('/dashboard');
    await loginRequired(harness.page).waitFor();
    expect(await harness.page.locator('#root[data-prerendered]').count()).toBe(0);
    // The document's own 404 (a host without rewrites), nothing else.
    expect(harness.errors.filter((e) => !e.includes(`${origin}/dashboard: Failed to load resource`))).toEqual([]);
  });

  test('a public page: no script until the visitor reaches for it, then the app takes over and talks to the API', async () => {
    // With a notice to show the app would start on its own after load (e2e/tests/prerendered.test.ts):
    // the demo's active notices are dismissed in this browser first.
    const answer = (await (await fetch(`${api!.url}/api/announcements`)).json()) as { announcements: Array<{ id: string; revision: number }> };
    await harness.context.addInitScript(
      ([key, value]) => localStorage.setItem(key, value),
      [DISMISSED_KEY, JSON.stringify(answer.announcements.map((n) => `${n.id}:${n.revision}`))] as const,
    );
    const scripts: string[] = [];
    harness.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await harness.page.goto('/', { waitUntil: 'networkidle' });
    expect(scripts).toEqual([]);
    await startApp(harness.page);
    await harness.page.getByRole('banner').getByRole('button', { name: 'Login' }).first().waitFor();
    expect(harness.requests.some((u) => u.startsWith(`${api!.url}/api/auth/@me`))).toBe(true);
    expect(harness.errors).toEqual([]);
  });
});

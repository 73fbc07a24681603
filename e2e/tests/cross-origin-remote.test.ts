import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main, startApp } from '../src/pages';
import { DEPLOY_JS, deploySite, FRONT_ENDS, REPO_DIR, type RunningServer, startServer } from '../src/server';

/**
 * A remote on its own origin, as from a CDN: billing deployed with `--base-url` pointing at a plain
 * static server on another port, which sends what Module Federation needs from another origin
 * (`Access-Control-Allow-Origin: *` on the manifest and chunks) and nothing more: no credentials.
 */
let server: RunningServer | undefined;
let cdn: Server | undefined;
let cdnOrigin = '';
let site = '';
const harness = useBrowser({ baseURL: () => server!.url });

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.map': 'application/json' };

/** The "CDN": serves <site>/remotes/** read-only, with CORS for any origin and no credentials. */
function startCdn(root: string): Promise<Server> {
  const cdnServer = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://cdn').pathname));
    const file = join(root, path);
    if (!path.startsWith('/remotes/') || !file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'access-control-allow-origin': '*' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*', 'cache-control': 'no-cache' });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => cdnServer.listen(0, '127.0.0.1', () => ok(cdnServer)));
}

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'tickety-e2e-cdn-'));
  deploySite(
    site,
    FRONT_ENDS.filter((a) => a !== 'billing'),
  );
  cdn = await startCdn(site);
  cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  const deploy = spawnSync(process.execPath, [DEPLOY_JS, 'billing', '--no-build', '--site', site, '--base-url', cdnOrigin], { cwd: REPO_DIR, encoding: 'utf8' });
  if (deploy.status !== 0) throw new Error(`deploying billing to the CDN origin failed:\n${deploy.stdout}${deploy.stderr}`);
  server = await startServer({ staticRoot: site });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((ok) => (cdn ? cdn.close(() => ok()) : ok()));
  if (site) rmSync(site, { recursive: true, force: true });
});

describe('a remote served from another origin', () => {
  test('its pages work, fetched from that origin with CORS for any origin and no credentials', async () => {
    const fromCdn: Array<{ url: string; allowOrigin: string | null; allowCredentials: string | null }> = [];
    harness.page.on('response', (res) => {
      if (res.url().startsWith(cdnOrigin)) {
        const headers = res.headers();
        fromCdn.push({ url: res.url(), allowOrigin: headers['access-control-allow-origin'] ?? null, allowCredentials: headers['access-control-allow-credentials'] ?? null });
      }
    });
    await harness.page.goto('/premium-purchase');
    await main(harness.page).getByRole('heading', { level: 1 }).first().waitFor();
    await startApp(harness.page);
    await main(harness.page).getByRole('heading', { level: 1 }).first().waitFor();
    await shot(harness.page, 'premium-purchase-from-another-origin');
    expect(fromCdn.some((r) => r.url.endsWith('/mf-manifest.json'))).toBe(true);
    expect(fromCdn.some((r) => r.url.endsWith('.js'))).toBe(true);
    for (const r of fromCdn) {
      expect(r.allowOrigin, r.url).toBe('*');
      expect(r.allowCredentials, r.url).toBeNull();
    }
    // Nothing of billing came from the site's own origin.
    expect(harness.requests.some((u) => u.startsWith(`${server!.url}/remotes/billing/`))).toBe(false);
    expect(harness.errors).toEqual([]);
  });
});

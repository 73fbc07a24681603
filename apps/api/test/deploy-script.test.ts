import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app';
import { Browser } from './helpers/browser';
import { databases } from './helpers/db';
import { deployCli, remoteDist, shellDist, TABLES, writeFile } from './helpers/site';

/**
 * scripts/deploy.mjs on fixture builds (--dist): versions are content hashes, never overwritten,
 * config.json is the one composition file, a table that collides is refused, rollback and list.
 */
const work = mkdtempSync(join(tmpdir(), 'tickety-deploy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const site = join(work, 'site');
const read = (file: string) => readFileSync(join(site, file), 'utf8');
const config = () => JSON.parse(read('config.json'));
const history = () => JSON.parse(read('deployments.json')) as Array<{ app: string; version: string; at: string; previous: string | null; action: string }>;
const listJson = () => JSON.parse(deployCli(['list', '--site', site, '--json']).stdout);

function ok(args: string[]) {
  const result = deployCli([...args, '--site', site]);
  expect(result.stderr, args.join(' ')).toBe('');
  expect(result.status, `${args.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

function refused(args: string[], message: RegExp) {
  const before = existsSync(join(site, 'config.json')) ? read('config.json') : null;
  const result = deployCli([...args, '--site', site]);
  expect(result.status, result.stdout).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(existsSync(join(site, 'config.json')) ? read('config.json') : null).toBe(before);
  return result.stderr;
}

describe('scripts/deploy.mjs', () => {
  const billing1 = remoteDist(join(work, 'billing-1'), 'billing', TABLES.billing);
  const billing2 = remoteDist(join(work, 'billing-2'), 'billing', TABLES.billing, 'export default 2;');
  const dashboard = remoteDist(join(work, 'dashboard'), 'dashboard', TABLES.dashboard);
  const shell1 = shellDist(join(work, 'shell-1'), 'one', 'main.11111111.js');
  const shell2 = shellDist(join(work, 'shell-2'), 'two', 'main.22222222.js');
  let v1 = '';
  let v2 = '';

  it('deploys a remote into a version folder named by its content hash and points config.json at it', () => {
    const out = ok(['billing', '--dist', billing1]);
    v1 = config().remotes.billing.version;
    expect(v1).toMatch(/^[0-9a-f]{12}$/);
    expect(out).toContain(`billing ${v1}: copied 4 files`);
    expect(config()).toEqual({ remotes: { billing: { manifest: `/remotes/billing/${v1}/mf-manifest.json`, version: v1, routes: TABLES.billing } } });
    expect(readdirSync(join(site, 'remotes/billing', v1)).sort()).toEqual(['mf-manifest.json', 'remoteEntry.js', 'routes.json', 'static']);
    expect(history()).toEqual([{ app: 'billing', version: v1, at: expect.any(String), previous: null, action: 'deploy' }]);
  });

  it('deploys the same build again as the same version: nothing copied, nothing changed', () => {
    const stamp = statSync(join(site, 'remotes/billing', v1, 'remoteEntry.js')).mtimeMs;
    const before = read('config.json');
    const out = ok(['billing', '--dist', billing1]);
    expect(out).toContain('already in');
    expect(out).toContain('already live, nothing changed');
    expect(statSync(join(site, 'remotes/billing', v1, 'remoteEntry.js')).mtimeMs).toBe(stamp);
    expect(read('config.json')).toBe(before);
    expect(history()).toHaveLength(1);
  });

  it('deploys a changed build as a new version beside the old one', () => {
    ok(['billing', '--dist', billing2]);
    v2 = config().remotes.billing.version;
    expect(v2).not.toBe(v1);
    expect(config().remotes.billing.manifest).toBe(`/remotes/billing/${v2}/mf-manifest.json`);
    expect(existsSync(join(site, 'remotes/billing', v1, 'remoteEntry.js'))).toBe(true);
    expect(readFileSync(join(site, 'remotes/billing', v2, 'static/js/page.0123abcd.js'), 'utf8')).toBe('export default 2;');
    expect(history().at(-1)).toMatchObject({ app: 'billing', version: v2, previous: v1, action: 'deploy' });
  });

  it('refuses a table that claims another remote’s address, changing nothing', () => {
    ok(['dashboard', '--dist', dashboard]);
    const greedy = remoteDist(join(work, 'billing-greedy'), 'billing', { ...TABLES.billing, mounts: ['/billing', '/dashboard/x'], routes: [...TABLES.billing.routes, { path: '/dashboard/x', layout: 'public', page: 'X' }] });
    const folders = readdirSync(join(site, 'remotes/billing')).sort();
    const message = refused(['billing', '--dist', greedy], /billing: refused, nothing was deployed: its mount "\/dashboard\/x" overlaps dashboard's mount "\/dashboard"/);
    expect(message).toContain('"/dashboard/x"');
    expect(readdirSync(join(site, 'remotes/billing')).sort()).toEqual(folders);
    // The later remote (staff) claiming an earlier one's mount: refused too.
    const staff = remoteDist(join(work, 'staff-greedy'), 'staff', { ...TABLES.staff, mounts: ['/staff', '/billing'], routes: [...TABLES.staff.routes, { path: '/billing/staff', layout: 'public', page: 'Y' }] });
    refused(['staff', '--dist', staff], /staff: refused, nothing was deployed: its mount "\/billing" overlaps billing's mount "\/billing"/);
    expect(existsSync(join(site, 'remotes/staff'))).toBe(false);
  });

  it('refuses a malformed table, a build without routes.json and an unknown app', () => {
    const bad = remoteDist(join(work, 'staff-bad'), 'staff', { ...TABLES.staff, remote: 'billing' });
    refused(['staff', '--dist', bad], /routes\.json is refused: .*"remote" must be "staff"/);
    const none = remoteDist(join(work, 'staff-none'), 'staff', TABLES.staff);
    rmSync(join(none, 'routes.json'));
    refused(['staff', '--dist', none], /has no routes\.json/);
    refused(['checkout', '--no-build'], /Unknown app "checkout"/);
  });

  it('rolls a remote back to the version before, or to a named one, and refuses an unknown one', () => {
    ok(['rollback', 'billing']);
    expect(config().remotes.billing).toEqual({ manifest: `/remotes/billing/${v1}/mf-manifest.json`, version: v1, routes: TABLES.billing });
    expect(history().at(-1)).toMatchObject({ app: 'billing', version: v1, previous: v2, action: 'rollback' });
    // v1 was the first version: nothing before it.
    refused(['rollback', 'billing'], /first version deployed/);
    ok(['rollback', 'billing', v2]);
    expect(config().remotes.billing.version).toBe(v2);
    refused(['rollback', 'billing', '0123456789ab'], /no version "0123456789ab".*versions: /);
    refused(['rollback', 'staff'], /staff is not deployed/);
  });

  it('deploys the shell: versions kept, assets added and never replaced, index.html and 404.html live', () => {
    ok(['shell', '--dist', shell1]);
    const s1 = config().shell.version;
    expect(read('index.html')).toContain('data-build="one"');
    expect(read('app.html')).toBe(read('index.html'));
    expect(read('404.html')).toBe(read('index.html'));
    expect(read('assets/main.11111111.js')).toContain('one');
    expect(read('favicon.svg')).toBe('<svg/>');
    expect(existsSync(join(site, 'shell', s1, 'index.html'))).toBe(true);
    ok(['shell', '--dist', shell2]);
    const s2 = config().shell.version;
    expect(s2).not.toBe(s1);
    expect(read('index.html')).toContain('data-build="two"');
    // An open tab of the old shell still finds its assets.
    expect(existsSync(join(site, 'assets/main.11111111.js'))).toBe(true);
    // Rolling back is pointing the live page back.
    ok(['rollback', 'shell']);
    expect(config().shell.version).toBe(s1);
    expect(read('index.html')).toContain('data-build="one"');
    expect(read('404.html')).toContain('data-build="one"');
    // The remotes and any other field of config.json are kept.
    expect(Object.keys(config().remotes)).toEqual(['billing', 'dashboard']);
    // A build whose asset has the name of a different existing one is refused.
    const clash = shellDist(join(work, 'shell-clash'), 'three', 'main.11111111.js');
    refused(['shell', '--dist', clash], /assets are never replaced/);

  });

  it('deploys a shell whose chunk is the same and only its source map differs (a comment changed), keeping the newest map', () => {
    const other = join(work, 'map-site');
    const first = shellDist(join(work, 'shell-map-1'), 'one', 'main.55555555.js');
    writeFile(join(first, 'assets/main.55555555.js.map'), '{"version":3,"sources":["old"]}');
    const second = shellDist(join(work, 'shell-map-2'), 'two', 'main.55555555.js');
    writeFile(join(second, 'assets/main.55555555.js'), readFileSync(join(first, 'assets/main.55555555.js'), 'utf8'));
    writeFile(join(second, 'assets/main.55555555.js.map'), '{"version":3,"sources":["new"]}');
    for (const dist of [first, second]) {
      const result = deployCli(['shell', '--dist', dist, '--site', other]);
      expect(result.status, result.stderr).toBe(0);
    }
    expect(readFileSync(join(other, 'assets/main.55555555.js.map'), 'utf8')).toContain('new');
    expect(readFileSync(join(other, 'app.html'), 'utf8')).toContain('data-build="two"');
  });

  it('lists what is live and every version', () => {
    const list = listJson();
    expect(list.site).toBe(site);
    expect(list.apps.billing.live).toBe(v2);
    expect(list.apps.billing.versions.map((v: { version: string }) => v.version)).toEqual([v1, v2]);
    expect(list.apps.shell.versions).toHaveLength(2);
    expect(list.apps.staff).toEqual({ live: null, manifest: null, versions: [] });
    const text = deployCli(['list', '--site', site]).stdout;
    expect(text).toContain(`billing    live: ${v2}`);
    expect(text).toContain(`* ${v2}`);
  });

  it('points a remote at another origin with --base-url, and keeps it on rollback', () => {
    const billing3 = remoteDist(join(work, 'billing-3'), 'billing', TABLES.billing, 'export default 3;');
    ok(['billing', '--dist', billing3, '--base-url', 'https://cdn.tickety.test/']);
    const v3 = config().remotes.billing.version;
    expect(config().remotes.billing.manifest).toBe(`https://cdn.tickety.test/remotes/billing/${v3}/mf-manifest.json`);
    ok(['rollback', 'billing']);
    expect(config().remotes.billing.manifest).toBe(`https://cdn.tickety.test/remotes/billing/${v2}/mf-manifest.json`);
    refused(['shell', '--dist', shell1, '--base-url', 'https://cdn.tickety.test'], /--base-url is for remotes/);
  });

  it('keeps the other fields of an existing config.json (a split deployment’s runtime settings)', () => {
    const other = join(work, 'site-with-settings');
    writeFile(join(other, 'config.json'), JSON.stringify({ apiOrigin: 'https://api.tickety.test', productName: 'Tickety' }));
    const result = deployCli(['billing', '--dist', billing1, '--site', other]);
    expect(result.status, result.stderr).toBe(0);
    const cfg = JSON.parse(readFileSync(join(other, 'config.json'), 'utf8'));
    expect(cfg).toMatchObject({ apiOrigin: 'https://api.tickety.test', productName: 'Tickety', remotes: { billing: { version: v1 } } });
  });
});

describe('pages for a static host (--public-url, `pages`)', () => {
  const pagesSite = join(work, 'pages-site');
  const run = (args: string[]) => deployCli([...args, '--site', pagesSite]);
  const file = (f: string) => join(pagesSite, f);
  const text = (f: string) => readFileSync(file(f), 'utf8');
  const SETTINGS = {
    productName: 'Ticketo',
    apiOrigin: 'https://api.ticketo.test',
    docsUrl: 'https://docs.ticketo.test',
    supportUrl: 'https://support.ticketo.test',
    inviteUrl: 'https://ticketo.test/invite',
    discordClientId: '123456789012345678',
    discordOrigin: 'https://discord.com',
    paddleToken: null,
    paddleScriptUrl: null,
    analyticsToken: null,
    demo: false,
  };
  // Builds with renderers (tiny stand-ins for what the builds emit as prerender.mjs).
  const shellBuild = shellDist(join(work, 'pages-shell'), 'pages', 'main.44444444.js');
  writeFile(join(shellBuild, 'index.html'), '<!doctype html><html><head><title>Tickety</title><script>boot()</script><link href="/assets/main.css" rel="stylesheet"></head><body><div id="root"></div></body></html>');
  writeFile(
    join(shellBuild, 'prerender.mjs'),
    `export const PAGE_SLOT = '<slot></slot>';
     export function renderFrame(layout, path, config) { return layout === 'public' ? '<header>' + config.productName + '</header>' + PAGE_SLOT : null; }
     export function renderNotFound() { return '<h1>Page not found</h1>'; }`,
  );
  const marketingTable = (withPremium: boolean) => ({
    ...TABLES.marketing,
    routes: TABLES.marketing.routes.filter((r) => withPremium || r.path !== '/premium'),
  });
  const marketingBuild = (dir: string, withPremium: boolean) => {
    const dist = remoteDist(join(work, dir), 'marketing', marketingTable(withPremium), `export default ${withPremium};`);
    writeFile(join(dist, 'prerender.mjs'), `export function renderPage(path) { return { html: '<h1>' + path + '</h1>', layout: path.endsWith('display') ? 'display' : 'public' }; }`);
    return dist;
  };
  const withPremium = marketingBuild('pages-marketing-1', true);
  const withoutPremium = marketingBuild('pages-marketing-2', false);

  it('refuses to write pages without the runtime settings in config.json, or with a public URL that is not an origin', () => {
    for (const [app, dist] of [['marketing', withPremium], ['shell', shellBuild]] as const) expect(run([app, '--dist', dist]).status).toBe(0);
    const bad = run(['pages', '--public-url', 'https://ticketo.test/site']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/must be the site's origin/);
    const missing = run(['pages', '--public-url', 'https://ticketo.test']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/config.json lacks the runtime settings .*productName/);
    expect(existsSync(file('pages.json'))).toBe(false);
    expect(existsSync(file('premium/index.html'))).toBe(false);
  });

  it('writes every public page, 404.html, sitemap.xml and robots.txt, and prints the CSP the boot script needs', () => {
    const cfg = JSON.parse(text('config.json'));
    writeFile(file('config.json'), JSON.stringify({ ...cfg, ...SETTINGS }));
    const result = run(['pages', '--public-url', 'https://ticketo.test/']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("script-src 'self' 'sha256-");
    expect(text('index.html')).toContain('<div id="root" data-prerendered="/"><header>Ticketo</header><div class="tk-remote-marketing contents"><h1>/</h1></div></div>');
    expect(text('premium/index.html')).toContain('data-prerendered="/premium"');
    expect(text('premium/index.html')).toContain('<link rel="canonical" href="https://ticketo.test/premium" />');
    // The shell page itself stays for everything else (and for the all-in-one server).
    expect(text('app.html')).toContain('<div id="root"></div>');
    expect(text('404.html')).toContain('<div id="root" data-prerendered="*"><h1>Page not found</h1></div>');
    expect(text('404.html')).toContain('<title>Ticketo - Not Found</title>');
    expect(text('sitemap.xml')).toContain('<loc>https://ticketo.test/premium</loc>');
    expect(text('robots.txt')).toContain('Sitemap: https://ticketo.test/sitemap.xml');
    expect(JSON.parse(text('pages.json'))).toEqual({ publicUrl: 'https://ticketo.test', pages: ['index.html', 'home-display/index.html', 'premium/index.html'] });
  });

  it('writes a page whose renderer cannot even be loaded as the plain shell page, and goes on', () => {
    const broken = remoteDist(join(work, 'pages-marketing-broken'), 'marketing', marketingTable(true), 'export default "broken";');
    writeFile(join(broken, 'prerender.mjs'), 'export function renderPage( {');
    const result = run(['marketing', '--dist', broken]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/pages: \/premium could not be prerendered/);
    expect(text('premium/index.html')).not.toContain('data-prerendered');
    expect(text('premium/index.html')).toContain('<link rel="canonical" href="https://ticketo.test/premium" />');
    expect(run(['rollback', 'marketing']).status).toBe(0);
    expect(text('premium/index.html')).toContain('data-prerendered="/premium"');
  });

  it('writes them again on every later deploy and rollback, and removes a page that is gone', () => {
    expect(run(['marketing', '--dist', withoutPremium]).status).toBe(0);
    expect(existsSync(file('premium/index.html'))).toBe(false);
    expect(text('sitemap.xml')).not.toContain('/premium');
    expect(run(['rollback', 'marketing']).status).toBe(0);
    expect(text('premium/index.html')).toContain('data-prerendered="/premium"');
  });
});

describe('deployAll (npm start, `deploy.mjs all`)', () => {
  it('refuses `all --base-url` before deploying anything (the shell is always served at the site root)', async () => {
    // @ts-expect-error: plain ESM without types
    const { deployAll, DeployError } = await import('../../../scripts/deploy.mjs');
    const untouched = join(work, 'site-base-url');
    await expect(deployAll(['marketing', 'shell'], { site: untouched, build: false, baseUrl: 'https://cdn.tickety.test' })).rejects.toBeInstanceOf(DeployError);
    expect(existsSync(untouched)).toBe(false);
  });

  it('deploys a mount moved from one remote to another whatever the order', async () => {
    // @ts-expect-error: plain ESM without types
    const { deployAll } = await import('../../../scripts/deploy.mjs');
    const moved = join(work, 'site-moved');
    const withInvoices = (name: 'billing' | 'marketing', base: { mounts: readonly string[]; routes: readonly unknown[] }) => ({
      ...base,
      mounts: [...base.mounts, '/invoices'],
      routes: [...base.routes, { path: '/invoices', layout: 'public', page: 'Invoices' }],
      remote: name,
    });
    const before = remoteDist(join(work, 'moved-billing-1'), 'billing', withInvoices('billing', TABLES.billing));
    expect(deployCli(['billing', '--dist', before, '--site', moved]).status).toBe(0);
    // Now marketing owns /invoices and billing gave it up: marketing is deployed first and collides,
    // then again once billing is live.
    const failures = await deployAll(['marketing', 'billing'], {
      site: moved,
      build: false,
      dists: {
        marketing: remoteDist(join(work, 'moved-marketing'), 'marketing', withInvoices('marketing', TABLES.marketing)),
        billing: remoteDist(join(work, 'moved-billing-2'), 'billing', TABLES.billing),
      },
    });
    expect(failures).toEqual([]);
    const cfg = JSON.parse(readFileSync(join(moved, 'config.json'), 'utf8'));
    expect(cfg.remotes.marketing.routes.mounts).toContain('/invoices');
    expect(cfg.remotes.billing.routes.mounts).toEqual(['/billing']);
  });
});

describe.each(databases())('the all-in-one server on a deployed site on $name', (database) => {
  const served = join(work, 'served');
  beforeAll(() => {
    for (const [app, dist] of [
      ['billing', remoteDist(join(work, 'served-billing'), 'billing', TABLES.billing)],
      ['dashboard', remoteDist(join(work, 'served-dashboard'), 'dashboard', TABLES.dashboard)],
      ['shell', shellDist(join(work, 'served-shell'), 'served', 'main.33333333.js')],
    ] as const) {
      const result = deployCli([app, '--dist', dist, '--site', served]);
      expect(result.status, result.stderr).toBe(0);
    }
  });
  const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: served } });

  it('serves what the script deployed: pages 200, other addresses 404, the remote’s files, the composition', async () => {
    const html = { accept: 'text/html' };
    const page = await new Browser(t.app).get('/dashboard/1100000000000000001/configs', { headers: html });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-build="served"');
    expect((await new Browser(t.app).get('/nope', { headers: html })).statusCode).toBe(404);
    const cfg = (await new Browser(t.app).get('/config.json')).json();
    const version = cfg.remotes.billing.version;
    const manifest = await new Browser(t.app).get(cfg.remotes.billing.manifest);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(cfg.remotes.billing.manifest).toBe(`/remotes/billing/${version}/mf-manifest.json`);
    expect((await new Browser(t.app).get('/assets/main.33333333.js')).statusCode).toBe(200);
    expect(cfg.shell.version).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('scripts/deploy.mjs compresses a version once', () => {
  const precompressed = join(work, 'precompressed');
  const chunk = `export default ${JSON.stringify('a chunk the compressors can fold; '.repeat(100))};`;
  const css = `.a{color:red}\n${'.b{margin:0}\n'.repeat(100)}`;

  it('writes brotli and gzip copies beside a remote’s and the shell assets’ larger files, and names the version by the build alone', () => {
    const dist = remoteDist(join(work, 'precompressed-billing'), 'billing', TABLES.billing, chunk);
    writeFile(join(dist, 'static/css/page.0123abcd.css'), css);
    writeFile(join(dist, 'static/js/page.0123abcd.js.map'), `{"mappings":"${'A'.repeat(4000)}"}`);
    expect(deployCli(['billing', '--dist', dist, '--site', precompressed]).status).toBe(0);
    const version = JSON.parse(readFileSync(join(precompressed, 'config.json'), 'utf8')).remotes.billing.version;
    const folder = join(precompressed, 'remotes/billing', version);
    expect(deployCli(['billing', '--dist', dist, '--site', precompressed]).stdout).toContain('already live, nothing changed');
    for (const [file, body] of [
      ['static/js/page.0123abcd.js', chunk],
      ['static/css/page.0123abcd.css', css],
    ]) {
      expect(brotliDecompressSync(readFileSync(join(folder, `${file}.br`))).toString(), file).toBe(body);
      expect(gunzipSync(readFileSync(join(folder, `${file}.gz`))).toString(), file).toBe(body);
      expect(statSync(join(folder, `${file}.br`)).size).toBeLessThan(statSync(join(folder, `${file}.gz`)).size);
    }
    // Under 1 KiB (sent as it is) and source maps: no copies.
    for (const file of ['remoteEntry.js', 'mf-manifest.json', 'static/js/page.0123abcd.js.map']) {
      expect(existsSync(join(folder, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(folder, `${file}.gz`)), file).toBe(false);
    }
    const shell = shellDist(join(work, 'precompressed-shell'), 'precompressed', 'main.44444444.js');
    writeFile(join(shell, 'assets/main.44444444.js'), chunk);
    writeFile(join(shell, 'big.svg'), `<svg>${'<g/>'.repeat(400)}</svg>`);
    expect(deployCli(['shell', '--dist', shell, '--site', precompressed]).status).toBe(0);
    expect(brotliDecompressSync(readFileSync(join(precompressed, 'assets/main.44444444.js.br'))).toString()).toBe(chunk);
    expect(existsSync(join(precompressed, 'assets/main.44444444.js.gz'))).toBe(true);
    // Files outside assets/ are replaced by the next shell: no copy that could go stale.
    expect(existsSync(join(precompressed, 'big.svg.br'))).toBe(false);
  });
});

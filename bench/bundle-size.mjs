// @ts-check
/**
 * Script a browser downloads per page, on the wire as served: Chromium's transfer size (headers and
 * the encoded body, cache off) of every script response, per app (`/remotes/<name>/` or the shell)
 * and per package (each script's source map splits its body among the sources it came from; a
 * package's share of the wire bytes is its share of the body). Pages: `/` (a visitor, as loaded and
 * after a first tap), `/dashboard` and every server page (Ava), `/billing`; with their budgets
 * (signed-in `/dashboard` <= 190 KiB, each server page <= 200 KiB): PASS or FAIL (figures only: exit 0).
 * BENCH_VERBOSE=1 lists every file; BENCH_PAGE=<path> measures that page alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { appOf, kb, launchChromium, REPO_DIR, signInContext, startServer, table } from './lib.mjs';

const KIB = 1024;
const SERVER = '1100000000000000001';

/** The server pages: the dashboard remote's route table (its children of `/dashboard/:server` without a parameter). */
function serverPages() {
  const routes = JSON.parse(readFileSync(join(REPO_DIR, 'apps/dashboard/dist/routes.json'), 'utf8')).routes;
  const server = routes.find((/** @type {{ path: string }} */ route) => route.path === '/dashboard/:server');
  return server.children
    .filter((/** @type {{ path?: string, page?: string }} */ child) => child.page && child.path && !child.path.includes(':'))
    .map((/** @type {{ path: string, title?: string }} */ child) => ({ path: `/dashboard/${SERVER}/${child.path}`, title: child.title ?? child.path }));
}

/**
 * The package a source of a source map belongs to: the last `node_modules/<name>` in its path, a
 * workspace package by its folder, the bundler's own runtime, else the app itself.
 * @param {string} source
 */
function packageOf(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope = '', name = ''] = source.slice(modules + 'node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const workspace = source.match(/(?:^|\/)(packages|apps)\/([^/]+)\//);
  if (workspace) return `@tickety/${workspace[2]}`;
  if (/webpack\/runtime|rspack\/runtime|^webpack:\/\/[^/]*\/webpack\//.test(source)) return '(bundler runtime)';
  return '(app)';
}

/**
 * Characters of a script per package, from its source map (a stretch between two mappings belongs
 * to the first one's source; what no mapping covers is `(unmapped)`).
 * @param {string} code
 * @param {any} map
 * @returns {Map<string, number>}
 */
function attribute(code, map) {
  /** @type {Map<string, number>} */
  const out = new Map();
  const add = (/** @type {string} */ name, /** @type {number} */ count) => count > 0 && out.set(name, (out.get(name) ?? 0) + count);
  const lines = code.split('\n');
  /** @type {{ line: number, column: number, source: string | null }[]} */
  const marks = [];
  new SourceMapConsumer(map).eachMapping((mapping) => marks.push({ line: mapping.generatedLine, column: mapping.generatedColumn, source: mapping.source }));
  let index = 0;
  lines.forEach((text, at) => {
    const line = at + 1;
    let column = 0;
    let owner = '(unmapped)';
    while (index < marks.length && /** @type {{ line: number }} */ (marks[index]).line === line) {
      const mark = /** @type {{ column: number, source: string | null }} */ (marks[index]);
      add(owner, mark.column - column);
      column = mark.column;
      owner = mark.source ? packageOf(mark.source) : '(unmapped)';
      index++;
    }
    add(owner, text.length + 1 - column);
  });
  return out;
}

/**
 * The scripts a page loads with the cache off, as Chromium counts them.
 * @param {import('playwright-core').Browser} browser
 * @param {string} baseURL
 * @param {string} path
 * @param {'ava' | null} user
 */
async function measure(browser, baseURL, path, user, tap = false) {
  const context = await browser.newContext({ baseURL });
  if (user) await signInContext(context, baseURL, user);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  /** @type {Map<string, { url: string, encoding: string }>} */
  const scripts = new Map();
  /** @type {Map<string, number>} */
  const transfer = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script' && !/\.m?js(\?|$)/.test(response.url)) return;
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]));
    scripts.set(requestId, { url: response.url, encoding: headers['content-encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => transfer.set(requestId, encodedDataLength));
  await page.goto(path, { waitUntil: 'networkidle', timeout: 120_000 });
  if (tap) {
    // A tap on an empty spot of the page: what any first interaction starts.
    await page.mouse.click(2, 300);
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
  }
  await page.waitForTimeout(300);
  const files = [];
  for (const [requestId, script] of scripts) {
    const wire = transfer.get(requestId);
    if (wire === undefined) continue;
    const body = await context.request.get(script.url);
    files.push({ ...script, wire, code: await body.text() });
  }
  await context.close();
  return files;
}

/** Per-package characters of a script, from its source map (cached per URL: chunks repeat across pages). */
const attributionCache = new Map();
/**
 * @param {import('playwright-core').APIRequestContext} request
 * @param {string} url
 * @param {string} code
 */
async function packagesOf(request, url, code) {
  if (attributionCache.has(url)) return attributionCache.get(url);
  const name = code.match(/\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
  let result = new Map([['(no source map)', code.length]]);
  if (name) {
    const answer = await request.get(new URL(name, url).href);
    if (answer.ok()) result = attribute(code, await answer.json());
  }
  attributionCache.set(url, result);
  return result;
}

const pages = [
  { path: '/', title: 'Home', user: null, tap: false },
  { path: '/', title: 'Home, after a first tap', user: null, tap: true },
  { path: '/dashboard', title: 'Manage Servers', user: 'ava', tap: false, budget: 190 * KIB },
  ...serverPages().map((page) => ({ ...page, user: 'ava', tap: false, budget: 200 * KIB })),
  { path: '/billing', title: 'Billing', user: 'ava', tap: false },
].filter((page) => !process.env.BENCH_PAGE || page.path === process.env.BENCH_PAGE);

const server = await startServer();
const browser = await launchChromium();
const summary = [];
try {
  const { request } = await browser.newContext();
  console.log(`script on the wire per page (Chromium's transfer size as served, cache off; server ${server.url})\n`);
  for (const { path, title, user, tap, budget } of /** @type {{ path: string, title: string, user: 'ava' | null, tap: boolean, budget?: number }[]} */ (pages)) {
    const files = await measure(browser, server.url, path, user, tap);
    /** @type {Map<string, { files: number, raw: number, wire: number }>} */
    const byApp = new Map();
    /** @type {Map<string, { raw: number, wire: number }>} */
    const byPackage = new Map();
    for (const file of files) {
      const app = appOf(file.url, server.url);
      const row = byApp.get(app) ?? { files: 0, raw: 0, wire: 0 };
      row.files += 1;
      row.raw += file.code.length;
      row.wire += file.wire;
      byApp.set(app, row);
      const packages = await packagesOf(request, file.url, file.code);
      const total = [...packages.values()].reduce((sum, count) => sum + count, 0) || 1;
      for (const [name, count] of packages) {
        const key = name === '(app)' ? `(app: ${app})` : name;
        const share = byPackage.get(key) ?? { raw: 0, wire: 0 };
        share.raw += count;
        share.wire += (file.wire * count) / total;
        byPackage.set(key, share);
      }
    }
    const wire = files.reduce((sum, file) => sum + file.wire, 0);
    const raw = files.reduce((sum, file) => sum + file.code.length, 0);
    const encodings = [...new Set(files.map((file) => file.encoding))].join(', ');
    const verdict = budget === undefined ? '-' : wire <= budget ? 'PASS' : 'FAIL';
    summary.push([path + (tap ? ' (tap)' : ''), title, user ?? 'visitor', files.length, kb(wire), budget === undefined ? '-' : kb(budget), verdict]);
    console.log(`${path} ${title}${user ? ` (signed in as ${user})` : ' (visitor)'}: ${files.length} scripts, ${kb(wire)} on the wire (content-encoding: ${encodings || '-'})`);
    const apps = [...byApp.keys()].sort((a, b) => (a === 'shell' ? -1 : b === 'shell' ? 1 : a.localeCompare(b)));
    table(
      ['app', 'files', 'raw bytes', 'on the wire', 'wire'],
      [...apps.map((app) => [app, byApp.get(app)?.files ?? 0, byApp.get(app)?.raw ?? 0, byApp.get(app)?.wire ?? 0, kb(byApp.get(app)?.wire ?? 0)]), ['TOTAL', files.length, raw, wire, kb(wire)]],
    );
    console.log('');
    table(
      ['package', 'raw chars', 'wire (share)'],
      [...byPackage].sort(([, a], [, b]) => b.wire - a.wire).map(([name, share]) => [name, share.raw, kb(share.wire)]),
    );
    if (process.env.BENCH_VERBOSE) for (const file of files) console.log(`  ${file.wire}\t${file.code.length}\t${file.encoding}\t${file.url}`);
    console.log('');
  }
  console.log('budgets (signed-in /dashboard <= 190 KiB, each server page <= 200 KiB of script on the wire)');
  table(['page', 'title', 'as', 'scripts', 'on the wire', 'budget', 'verdict'], summary);
} finally {
  await browser.close();
  await server.stop();
}
const missed = summary.filter((row) => row[6] === 'FAIL').length;
if (missed) console.log(`\n${missed} page(s) over budget (figures only: the exit code stays 0, as every bench's).`);

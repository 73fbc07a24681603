// @ts-check
/**
 * Lighthouse 12.8.2 mobile performance of `/`, `/status`, `/premium` (a visitor) and the Panel Menu
 * (Ava signed in: her cookie in Lighthouse's extraHeaders), each beside its static copy in the same
 * run (the page as it renders with every script removed, same stylesheets and images), LIGHTHOUSE_RUNS
 * (3) runs each. Server: `npm start`'s (built all-in-one, demo bot on), or LIGHTHOUSE_URL's (a running
 * one); LIGHTHOUSE_PAGES (comma-separated) picks pages. Prints each run, then medians and targets:
 * `/` within 0.02 of its copy's score and TBT <= 50 ms, the Panel Menu >= 0.90; `/`'s JavaScript
 * before Time to Interactive (gzip) and LCP against its copy's. LIGHTHOUSE_SAVE=dir keeps each report.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH, kb, launchChromium, median, serveStaticCopies, signIn, startServer, table } from './lib.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
process.env.CHROME_PATH = CHROMIUM_PATH;

/**
 * The pages measured; `user` signs in first, `target` is the page's target (null: none).
 * @type {{ name: string, path: string, user?: 'ava', target: null | ((app: Summary, copy: Summary) => boolean), targetText: string }[]}
 */
const PAGES = [
  { name: '/', path: '/', target: (app, copy) => Math.abs(app.score - copy.score) <= 0.02 + 1e-9 && app.tbt <= 50, targetText: "score within 0.02 of the copy's, TBT <= 50 ms" },
  { name: '/status', path: '/status', target: null, targetText: '' },
  { name: '/premium', path: '/premium', target: null, targetText: '' },
  { name: 'Panel Menu', path: '/dashboard/1100000000000000001/configs', user: 'ava', target: (app) => app.score >= 0.9 - 1e-9, targetText: 'score >= 0.90' },
];

/** @typedef {{ score: number, lcp: number, tbt: number, jsBeforeInteractive: number }} Summary */

/**
 * The page as it renders, without its scripts: Chromium loads it (with `cookie`, if any), waits for
 * the page to settle and hands back its DOM; script elements and script preloads are removed.
 * @param {string} url
 * @param {string | undefined} cookie
 */
async function staticSnapshot(url, cookie) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, extraHTTPHeaders: cookie ? { cookie } : {} });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1000);
    return await page.evaluate(() => {
      for (const el of document.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"][as="script"]')) el.remove();
      return `<!doctype html>\n${document.documentElement.outerHTML}`;
    });
  } finally {
    await browser.close();
  }
}

/**
 * One Lighthouse run (a fresh browser: no warm cache or compiled code carried over); null when
 * Lighthouse could not score it (said why).
 * @param {string} url
 * @param {string | undefined} cookie
 * @param {string} label
 * @param {(string|number)[][]} rows
 * @returns {Promise<Summary | null>}
 */
async function measureOnce(url, cookie, label, rows) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
  try {
    const settings = cookie ? { extraHeaders: { Cookie: cookie } } : {};
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...settings });
    if (!result) throw new Error('lighthouse returned nothing');
    const lhr = result.lhr;
    if (process.env.LIGHTHOUSE_SAVE) writeFileSync(join(process.env.LIGHTHOUSE_SAVE, `${label.replace(/[^\w]+/g, '-')}.json`), JSON.stringify(lhr));
    const raw = lhr.categories.performance?.score;
    if (raw === null || raw === undefined) {
      const errored = Object.values(lhr.audits).filter((a) => a.scoreDisplayMode === 'error').map((a) => `${a.id}: ${a.errorMessage ?? '?'}`);
      console.log(`${label}: no score (${errored.slice(0, 3).join('; ') || lhr.runtimeError?.message || 'unknown'})`);
      rows.push([label, 'n/a', '-', '-', '-', '-', '-', '-']);
      return null;
    }
    const ms = (/** @type {string} */ id) => {
      const value = lhr.audits[id]?.numericValue;
      return value === undefined ? '-' : Math.round(value);
    };
    const tti = lhr.audits.interactive?.numericValue ?? Number.POSITIVE_INFINITY;
    const requests = /** @type {{ items?: Array<{ resourceType?: string, transferSize?: number, networkEndTime?: number, endTime?: number }> }} */ (lhr.audits['network-requests']?.details)?.items ?? [];
    // networkEndTime is relative to the navigation (ms), like the metrics.
    const js = requests.filter((r) => r.resourceType === 'Script' && (r.networkEndTime ?? r.endTime ?? 0) <= tti).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    rows.push([label, raw.toFixed(2), ms('first-contentful-paint'), ms('largest-contentful-paint'), ms('total-blocking-time'), (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3), ms('interactive'), kb(js)]);
    for (const w of lhr.runWarnings ?? []) console.log(`${label}: warning: ${w}`);
    return { score: raw, lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN, tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN, jsBeforeInteractive: js };
  } finally {
    await chrome.kill();
  }
}

/** @param {Summary[]} runs @returns {Summary | null} */
function medians(runs) {
  if (runs.length === 0) return null;
  return { score: median(runs.map((r) => r.score)), lcp: median(runs.map((r) => r.lcp)), tbt: median(runs.map((r) => r.tbt)), jsBeforeInteractive: median(runs.map((r) => r.jsBeforeInteractive)) };
}

const wanted = process.env.LIGHTHOUSE_PAGES?.split(',').map((name) => name.trim());
const pages = PAGES.filter((page) => !wanted || wanted.includes(page.name) || wanted.includes(page.path));
// `npm start` runs the demo bot (DEMO_BOT unset); the end-to-end harness leaves it off by default.
const server = process.env.LIGHTHOUSE_URL ? undefined : await startServer({ env: { DEMO_BOT: 'on' } });
const base = (process.env.LIGHTHOUSE_URL ?? server?.url ?? '').replace(/\/$/, '');
try {
  const probe = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br, gzip' } });
  await probe.arrayBuffer();
  console.log(`Lighthouse ${RUNS}x mobile performance against ${base} (document content-encoding: ${probe.headers.get('content-encoding') ?? 'identity'}), each page beside its static copy`);
  /** @type {Map<string, string | undefined>} */
  const cookies = new Map();
  for (const page of pages) cookies.set(page.name, page.user ? (await signIn(base, page.user)).header() : undefined);
  const copies = new Map();
  for (const page of pages) copies.set(page.path, await staticSnapshot(`${base}${page.path}`, cookies.get(page.name)));
  const snapshot = await serveStaticCopies(copies, base);
  /** @type {(string|number)[][]} */
  const rows = [];
  /** @type {Map<string, { app: Summary[], copy: Summary[] }>} */
  const results = new Map(pages.map((page) => [page.name, { app: [], copy: [] }]));
  try {
    // Run by run, each page and then its copy: the machine's load changes over minutes.
    for (let run = 1; run <= RUNS; run++) {
      for (const page of pages) {
        const cookie = cookies.get(page.name);
        const found = /** @type {{ app: Summary[], copy: Summary[] }} */ (results.get(page.name));
        const app = await measureOnce(`${base}${page.path}`, cookie, `${page.name} run ${run}`, rows);
        if (app) found.app.push(app);
        const copy = await measureOnce(`${snapshot.url}${page.path}`, cookie, `${page.name} copy run ${run}`, rows);
        if (copy) found.copy.push(copy);
      }
    }
    table(['page', 'score', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'TTI ms', 'JS before TTI'], rows);
    console.log(`\nMedians of ${RUNS} runs:`);
    /** @type {(string|number)[][]} */
    const summary = [];
    for (const page of pages) {
      const found = /** @type {{ app: Summary[], copy: Summary[] }} */ (results.get(page.name));
      const app = medians(found.app);
      const copy = medians(found.copy);
      const verdict = !page.target ? '-' : app && copy ? (page.target(app, copy) ? 'PASS' : 'FAIL') : 'FAIL (no score)';
      const figure = (/** @type {Summary | null} */ sum, /** @type {keyof Summary} */ key) => (!sum ? '-' : key === 'score' ? sum[key].toFixed(2) : Math.round(sum[key]));
      summary.push([page.name, figure(app, 'score'), figure(app, 'lcp'), figure(app, 'tbt'), figure(copy, 'score'), figure(copy, 'lcp'), figure(copy, 'tbt'), app ? kb(app.jsBeforeInteractive) : '-', page.target ? `${verdict} (${page.targetText})` : verdict]);
    }
    table(['page', 'score', 'LCP ms', 'TBT ms', 'copy score', 'copy LCP ms', 'copy TBT ms', 'JS before TTI', 'target'], summary);
    const home = results.get('/');
    const app = home && medians(home.app);
    const copy = home && medians(home.copy);
    if (app && copy) console.log(`\n/: LCP ${(app.lcp / copy.lcp).toFixed(2)}x its copy's; ${kb(app.jsBeforeInteractive)} of JavaScript on the wire before Time to Interactive`);
  } finally {
    await snapshot.close();
  }
} finally {
  await server?.stop();
}

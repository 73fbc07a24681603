// @ts-check
/**
 * Lighthouse 12.8.2 mobile performance of `/` (visitor), LIGHTHOUSE_RUNS (3) runs against the
 * all-in-one server (which compresses responses), Debian's Chromium via chrome-launcher; and the same
 * runs against a plain static copy of the page as it renders (its HTML with every script removed,
 * same stylesheets and images), the baseline an HTML-first page is measured against. Prints each
 * run's metrics, then the figures against the budgets: median performance score (>= 0.98); median
 * LCP of `/` within 1.5x the static page's; JavaScript downloaded before `/` is interactive, gzip
 * (<= 100 KB: every script response that finished before Lighthouse's Time to Interactive).
 */
import { createServer } from 'node:http';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH, kb, launchChromium, median, startServer, table } from './lib.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
process.env.CHROME_PATH = CHROMIUM_PATH;

/**
 * The page as it renders, without its scripts: Chromium loads `/`, waits for the page to settle and
 * hands back its DOM; script elements and modulepreload links are removed.
 * @param {string} url
 */
async function staticSnapshot(url) {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 412, height: 823 } })).newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    return await page.evaluate(() => {
      for (const el of document.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"][as="script"]')) el.remove();
      return `<!doctype html>\n${document.documentElement.outerHTML}`;
    });
  } finally {
    await browser.close();
  }
}

/**
 * Serves `html` at `/` and forwards everything else (stylesheets, images, fonts) to the app server,
 * compressed as the app serves it.
 * @param {string} html
 * @param {string} upstream
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
async function serveStatic(html, upstream) {
  const server = createServer(async (req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(html);
      return;
    }
    const answer = await fetch(`${upstream}${req.url}`, { headers: { 'accept-encoding': String(req.headers['accept-encoding'] ?? '') } });
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

/**
 * @param {string} url
 * @param {string} label
 * @param {(string|number)[][]} rows
 */
async function measure(url, label, rows) {
  /** @type {{ score: number, lcp: number, jsBeforeInteractive: number }[]} */
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    // A fresh browser per run: no warm cache or compiled code carried over.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      if (!result) throw new Error('lighthouse returned nothing');
      const lhr = result.lhr;
      const raw = lhr.categories.performance?.score;
      if (raw === null || raw === undefined) {
        // Lighthouse could not score this run (an audit errored): say why, and leave it out of the medians.
        const errored = Object.values(lhr.audits).filter((a) => a.scoreDisplayMode === 'error').map((a) => `${a.id}: ${a.errorMessage ?? '?'}`);
        console.log(`${label} run ${run}: no score (${errored.slice(0, 3).join('; ') || lhr.runtimeError?.message || 'unknown'})`);
        rows.push([label, run, 'n/a', '-', '-', '-', '-', '-', '-']);
        continue;
      }
      const ms = (/** @type {string} */ id) => {
        const value = lhr.audits[id]?.numericValue;
        return value === undefined ? '-' : Math.round(value);
      };
      const tti = lhr.audits.interactive?.numericValue ?? Number.POSITIVE_INFINITY;
      const requests = /** @type {{ items?: Array<{ resourceType?: string, transferSize?: number, networkEndTime?: number, endTime?: number }> }} */ (lhr.audits['network-requests']?.details)?.items ?? [];
      // networkEndTime is relative to the navigation (ms), like the metrics.
      const js = requests.filter((r) => r.resourceType === 'Script' && (r.networkEndTime ?? r.endTime ?? 0) <= tti).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN;
      runs.push({ score: raw, lcp, jsBeforeInteractive: js });
      rows.push([label, run, raw.toFixed(2), ms('first-contentful-paint'), ms('largest-contentful-paint'), ms('total-blocking-time'), (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3), ms('interactive'), kb(js)]);
      for (const w of lhr.runWarnings ?? []) console.log(`${label} run ${run}: warning: ${w}`);
    } finally {
      await chrome.kill();
    }
  }
  return runs;
}

const server = await startServer();
try {
  const probe = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br, gzip' } });
  await probe.arrayBuffer();
  console.log(`Lighthouse ${RUNS}x mobile performance of ${server.url}/ (document content-encoding: ${probe.headers.get('content-encoding') ?? 'identity'}), and of a static copy of it`);
  const snapshot = await serveStatic(await staticSnapshot(`${server.url}/`), server.url);
  /** @type {(string|number)[][]} */
  const rows = [];
  try {
    const app = await measure(`${server.url}/`, 'app', rows);
    const plain = await measure(`${snapshot.url}/`, 'static', rows);
    table(['page', 'run', 'score', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'TTI ms', 'JS before TTI'], rows);
    if (app.length === 0) throw new Error('no Lighthouse run of / produced a score');
    const score = median(app.map((r) => r.score));
    const lcp = median(app.map((r) => r.lcp));
    const js = median(app.map((r) => r.jsBeforeInteractive));
    const base = plain.length > 0 ? median(plain.map((r) => r.lcp)) : Number.NaN;
    const met = (/** @type {boolean} */ ok) => (ok ? 'met' : 'NOT met');
    console.log(`\nmedian performance score of ${app.length} scored runs: ${score.toFixed(2)} (target >= 0.98: ${met(score >= 0.98)})`);
    console.log(`median LCP of /: ${Math.round(lcp)} ms; of the static page: ${Math.round(base)} ms; ratio ${(lcp / base).toFixed(2)} (target <= 1.5: ${met(lcp / base <= 1.5)})`);
    console.log(`median JS downloaded before / is interactive: ${kb(js)} on the wire (target <= 100 KB: ${met(js <= 100 * 1024)})`);
  } finally {
    await snapshot.close();
  }
} finally {
  await server.stop();
}

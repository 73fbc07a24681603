// @ts-check
/**
 * When a visitor of `/status` first sees the status (its overall line: painted, in #root), against the
 * first paint of a static copy of the page as served (its HTML without scripts, same stylesheets),
 * FIRST_STATUS_RUNS (5) fresh browsers each, unthrottled and on a throttled phone (150 ms, 1.6 Mbit/s,
 * 4x slower CPU, as Lighthouse's mobile profile). Also counts the `GET /api/status` requests of the
 * first 3 s (the app takes the page over with the status it carries: none). Target: the median
 * first status within 1.5x the static page's median first paint. Debian's Chromium.
 */
import { launchChromium, median, serveStaticCopies, startServer, table } from './lib.mjs';

const RUNS = Number(process.env.FIRST_STATUS_RUNS ?? 5);
const TITLES = ['All systems operational', 'Some systems are degraded', 'Major outage'];
const PROFILES = [
  { name: 'unthrottled', network: null, cpu: 1 },
  { name: 'mobile', network: { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }, cpu: 4 },
];

/**
 * One visit in a fresh context: the first paint, the first frame that shows a status title, and the
 * `/api/status` requests of the first 3 s.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {(typeof PROFILES)[number]} profile
 */
async function visit(browser, url, profile) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (profile.network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', profile.network);
    }
    if (profile.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    let statusRequests = 0;
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/status') statusRequests++;
    });
    // Before any of the page's scripts (the CSP does not apply to it): each frame checks for the title.
    await page.addInitScript((titles) => {
      const seen = { at: /** @type {number|null} */ (null) };
      Object.assign(window, { __firstStatus: seen });
      const check = () => {
        const text = document.getElementById('root')?.textContent ?? '';
        if (titles.some((title) => text.includes(title))) seen.at = performance.now();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }, TITLES);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => /** @type {any} */ (window).__firstStatus.at !== null, undefined, { timeout: 30_000 }).catch(() => undefined);
    await page.waitForTimeout(3_000);
    const figures = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      ttfb: /** @type {PerformanceNavigationTiming|undefined} */ (performance.getEntriesByType('navigation')[0])?.responseStart ?? Number.NaN,
      status: /** @type {any} */ (window).__firstStatus.at ?? Number.NaN,
    }));
    // A status drawn in the first frame is seen at the first paint, not before it.
    return { fcp: figures.fcp, ttfb: figures.ttfb, status: Math.max(figures.status, figures.fcp), statusRequests };
  } finally {
    await context.close();
  }
}

const server = await startServer();
try {
  const served = await (await fetch(`${server.url}/status`, { headers: { accept: 'text/html' } })).text();
  const stripped = served.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '').replace(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/gi, '');
  const copy = await serveStaticCopies(new Map([['/status', stripped]]), server.url);
  const browser = await launchChromium();
  /** @type {(string|number)[][]} */
  const rows = [];
  /** @type {string[]} */
  const verdicts = [];
  try {
    console.log(`first status text of ${server.url}/status against the first paint of a static copy, ${RUNS} runs per profile`);
    for (const profile of PROFILES) {
      /** @type {{ fcp: number, ttfb: number, status: number, statusRequests: number }[]} */
      const app = [];
      /** @type {number[]} */
      const plain = [];
      // One visit of each first, not counted: the server's first rendering loads its renderers.
      await visit(browser, `${server.url}/status`, profile);
      await visit(browser, `${copy.url}/status`, profile);
      for (let run = 1; run <= RUNS; run++) {
        const live = await visit(browser, `${server.url}/status`, profile);
        const still = await visit(browser, `${copy.url}/status`, profile);
        app.push(live);
        plain.push(still.fcp);
        rows.push([profile.name, run, Math.round(live.ttfb), Math.round(live.fcp), Math.round(live.status), live.statusRequests, Math.round(still.ttfb), Math.round(still.fcp)]);
      }
      const first = median(app.map((r) => r.status));
      const base = median(plain);
      const ratio = first / base;
      verdicts.push(
        `${profile.name}: median first status ${Math.round(first)} ms; static first paint ${Math.round(base)} ms; ratio ${ratio.toFixed(2)} (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}); /api/status requests in the first 3 s: ${app.map((r) => r.statusRequests).join(', ')}`,
      );
    }
    table(['profile', 'run', 'app TTFB ms', 'app FCP ms', 'first status ms', '/api/status (3 s)', 'static TTFB ms', 'static FCP ms'], rows);
    console.log(`\n${verdicts.join('\n')}`);
  } finally {
    await browser.close();
    await copy.close();
  }
} finally {
  await server.stop();
}

// @ts-check
/**
 * Lighthouse 12.8.2 mobile performance of `/` (visitor), 3 runs against the all-in-one server (which
 * compresses responses), Debian's Chromium via chrome-launcher. Prints each run's score and key
 * metrics, then the median score (target >= 0.90).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH, median, startServer, table } from './lib.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
process.env.CHROME_PATH = CHROMIUM_PATH;

const server = await startServer();
try {
  const probe = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br, gzip' } });
  await probe.arrayBuffer();
  console.log(`Lighthouse ${RUNS}x mobile performance of ${server.url}/ (document content-encoding: ${probe.headers.get('content-encoding') ?? 'identity'})`);
  /** @type {(string|number)[][]} */
  const rows = [];
  /** @type {number[]} */
  const scores = [];
  for (let run = 1; run <= RUNS; run++) {
    // A fresh browser per run: no warm cache or compiled code carried over.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
    try {
      const result = await lighthouse(`${server.url}/`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      if (!result) throw new Error('lighthouse returned nothing');
      const lhr = result.lhr;
      const raw = lhr.categories.performance?.score;
      if (raw === null || raw === undefined) {
        // Lighthouse could not score this run (an audit errored): say why, and leave it out of the median.
        const errored = Object.values(lhr.audits).filter((a) => a.scoreDisplayMode === 'error').map((a) => `${a.id}: ${a.errorMessage ?? '?'}`);
        console.log(`run ${run}: no score (${errored.slice(0, 3).join('; ') || lhr.runtimeError?.message || 'unknown'})`);
        rows.push([run, 'n/a', '-', '-', '-', '-', '-']);
        continue;
      }
      const score = raw;
      scores.push(score);
      const ms = (/** @type {string} */ id) => {
        const v = lhr.audits[id]?.numericValue;
        return v === undefined ? '-' : Math.round(v);
      };
      rows.push([run, score.toFixed(2), ms('first-contentful-paint'), ms('largest-contentful-paint'), ms('total-blocking-time'), (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3), ms('speed-index')]);
      if (lhr.runtimeError) console.log(`run ${run}: runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      for (const w of lhr.runWarnings ?? []) console.log(`run ${run}: warning: ${w}`);
    } finally {
      await chrome.kill();
    }
  }
  table(['run', 'score', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'SI ms'], rows);
  if (scores.length === 0) throw new Error('no Lighthouse run produced a score');
  const m = median(scores);
  console.log(`\nmedian performance score of ${scores.length} scored runs: ${m.toFixed(2)} (target >= 0.90: ${m >= 0.9 ? 'met' : 'NOT met'})`);
} finally {
  await server.stop();
}

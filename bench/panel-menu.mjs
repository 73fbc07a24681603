// @ts-check
/**
 * The Panel Menu (`/dashboard/:server/configs`, Ava on Ava's Arcade) in Chromium:
 * 1. gzip JS of the route: what the dashboard remote sends for the list (target <= 50 KB), then what
 *    opening the editor adds (its lazy chunk), beside the shell and the other apps' part;
 * 2. keystroke to preview: for each of KEYSTROKES single key presses in the panel editor's Title field,
 *    the time from the key event (its `timeStamp`, when the browser took the input) to the live
 *    preview's DOM changing, and to the next frame after that (requestAnimationFrame: when the change
 *    can be painted). Target: within one frame (16.7 ms at 60 Hz).
 * Nothing is asserted; figures are printed.
 */
import { gzipSync } from 'node:zlib';
import { appOf, kb, launchChromium, median, signInContext, startServer, table } from './lib.mjs';

const ARCADE = '1100000000000000001';
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 40);

/** @param {number[]} values @param {number} percent */
function percentile(values, percent) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((percent / 100) * sorted.length))] ?? Number.NaN;
}

const server = await startServer();
const browser = await launchChromium();
try {
  const context = await browser.newContext({ baseURL: server.url });
  await signInContext(context, server.url, 'ava');
  const page = await context.newPage();
  /** @type {{ phase: string, url: string, gzip: number }[]} */
  const files = [];
  let phase = 'list';
  /** @type {Promise<void>[]} */
  const pending = [];
  page.on('response', (response) => {
    const url = response.url();
    if (response.request().resourceType() !== 'script' && !/\.m?js(\?|$)/.test(url)) return;
    const at = phase;
    pending.push(
      response.body().then(
        (body) => void files.push({ phase: at, url, gzip: gzipSync(body, { level: 9 }).length }),
        () => {},
      ),
    );
  });

  await page.goto(`/dashboard/${ARCADE}/configs`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await Promise.all(pending.splice(0));
  phase = 'editor';
  await page.locator('a[href*="edit=panel"]').first().click();
  const title = page.getByRole('textbox', { name: 'Title', exact: true });
  await title.waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending.splice(0));

  /** @type {Map<string, { list: number, editor: number }>} */
  const byApp = new Map();
  for (const f of files) {
    const app = appOf(f.url, server.url);
    const row = byApp.get(app) ?? { list: 0, editor: 0 };
    if (f.phase === 'list') row.list += f.gzip;
    else row.editor += f.gzip;
    byApp.set(app, row);
  }
  console.log(`Panel Menu JS (gzip -9 of the response bodies; Ava, /dashboard/${ARCADE}/configs; server ${server.url})\n`);
  table(
    ['app', 'list page', 'opening the editor adds'],
    [...byApp.entries()].map(([app, r]) => [app, kb(r.list), kb(r.editor)]),
  );
  const dashboard = byApp.get('dashboard') ?? { list: 0, editor: 0 };
  console.log(`\nthe dashboard remote's part of the Panel Menu: ${kb(dashboard.list)} (target <= 50 KB: ${dashboard.list <= 50 * 1024 ? 'met' : 'NOT met'}); the editor, lazy: ${kb(dashboard.editor)}\n`);

  // Keystroke to preview.
  await title.click();
  await title.press('End');
  // In the page: each keydown (its timeStamp: when the browser took the input) starts a sample; the
  // preview's first DOM change after it ends it, and the next animation frame after that.
  await page.evaluate(() => {
    const region = document.querySelector('[role="complementary"][aria-label="Live preview"], aside[aria-label="Live preview"]');
    if (!region) throw new Error('no live preview region found');
    /** @type {{ dom: number, frame: number }[]} */
    const results = [];
    /** @type {number | null} */
    let start = null;
    document.addEventListener(
      'keydown',
      (event) => {
        start = event.timeStamp;
      },
      { capture: true },
    );
    new MutationObserver(() => {
      if (start === null) return;
      const began = start;
      start = null;
      const dom = performance.now() - began;
      requestAnimationFrame(() => results.push({ dom, frame: performance.now() - began }));
    }).observe(region, { subtree: true, childList: true, characterData: true, attributes: true });
    Object.assign(window, { __previewSamples: results });
  });
  for (let i = 0; i < KEYSTROKES; i++) {
    // A real key press through the browser's input pipeline (keydown, beforeinput, input, keyup).
    await page.keyboard.press('abcdefghij'[i % 10] ?? 'a');
    await page.waitForFunction((n) => /** @type {any} */ (window).__previewSamples.length > n, i, { timeout: 5_000 });
    await page.waitForTimeout(30);
  }
  /** @type {{ dom: number, frame: number }[]} */
  const samples = await page.evaluate(() => /** @type {any} */ (window).__previewSamples);
  const dom = samples.map((s) => s.dom);
  const frame = samples.map((s) => s.frame);
  console.log(`keystroke to preview, ${samples.length} key presses in the Title field:`);
  table(
    ['measure', 'median ms', 'p95 ms', 'max ms'],
    [
      ['preview DOM changed', median(dom).toFixed(1), percentile(dom, 95).toFixed(1), Math.max(...dom).toFixed(1)],
      ['next frame after it', median(frame).toFixed(1), percentile(frame, 95).toFixed(1), Math.max(...frame).toFixed(1)],
    ],
  );
  console.log(`\nmedian keystroke to preview updated: ${median(dom).toFixed(1)} ms (target: within one frame, 16.7 ms: ${median(dom) <= 16.7 ? 'met' : 'NOT met'})`);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

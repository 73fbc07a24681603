// @ts-check
/**
 * JavaScript a browser downloads for `/` (visitor) and `/dashboard` (Ava, signed in), per app. `/`
 * arrives prerendered and fetches the app only when the visitor first reaches for the page
 * (apps/shell/src/boot): it is measured as loaded, then after a first tap (the app taking over).
 * Every JS response the page receives is recorded; its body is gzipped here with node:zlib (level 9)
 * so the figure does not depend on the server's compression settings. Attribution by URL prefix:
 * `/remotes/<name>/` is that remote, anything else on the origin is the shell.
 */
import { gzipSync } from 'node:zlib';
import { appOf, kb, launchChromium, signInContext, startServer, table } from './lib.mjs';

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} baseURL
 * @param {string} path
 * @param {'ava' | null} user
 */
async function measure(browser, baseURL, path, user, tap = false) {
  const context = await browser.newContext({ baseURL });
  if (user) await signInContext(context, baseURL, user);
  const page = await context.newPage();
  /** @type {Promise<{ url: string, raw: number, gzip: number, wire: number, encoding: string }>[]} */
  const pending = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const url = response.url();
    if (type !== 'script' && !/\.m?js(\?|$)/.test(url)) return;
    pending.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes().catch(() => ({ responseBodySize: body.length }));
        return {
          url,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          wire: sizes.responseBodySize,
          encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
        };
      })(),
    );
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  if (tap) {
    // A tap on an empty spot of the page: what any first interaction starts.
    await page.mouse.click(2, 300);
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
  }
  const files = await Promise.all(pending);
  await context.close();
  return files;
}

const server = await startServer();
const browser = await launchChromium();
try {
  console.log(`bundle sizes (JS only; gzip -9 of the response bodies; server ${server.url})\n`);
  for (const [path, user, tap] of /** @type {const} */ ([['/', null, false], ['/', null, true], ['/dashboard', 'ava', false]])) {
    const files = await measure(browser, server.url, path, user, tap);
    /** @type {Map<string, { files: number, raw: number, gzip: number, wire: number }>} */
    const byApp = new Map();
    for (const f of files) {
      const app = appOf(f.url, server.url);
      const row = byApp.get(app) ?? { files: 0, raw: 0, gzip: 0, wire: 0 };
      row.files += 1;
      row.raw += f.raw;
      row.gzip += f.gzip;
      row.wire += f.wire;
      byApp.set(app, row);
    }
    const apps = [...byApp.keys()].sort((a, b) => (a === 'shell' ? -1 : b === 'shell' ? 1 : a.localeCompare(b)));
    const total = files.reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip, wire: sum.wire + file.wire }), { raw: 0, gzip: 0, wire: 0 });
    const encodings = [...new Set(files.map((f) => f.encoding))].join(', ');
    console.log(`${path}${user ? ` (signed in as ${user})` : ' (visitor)'}${tap ? ', after a first tap' : ''}: ${files.length} JS files, served with content-encoding: ${encodings || '-'}`);
    table(
      ['app', 'files', 'raw bytes', 'gzip bytes', 'gzip', 'on the wire'],
      [
        ...apps.map((app) => {
          const sizes = /** @type {{ files: number, raw: number, gzip: number, wire: number }} */ (byApp.get(app));
          return [app, sizes.files, sizes.raw, sizes.gzip, kb(sizes.gzip), sizes.wire];
        }),
        ['TOTAL', files.length, total.raw, total.gzip, kb(total.gzip), total.wire],
      ],
    );
    if (path === '/dashboard') console.log(`signed-in /dashboard: ${kb(total.gzip)} gzip (target <= 170 KB: ${total.gzip <= 170 * 1024 ? 'met' : 'NOT met'})`);
    if (process.env.BENCH_VERBOSE) for (const f of files) console.log(`  ${f.gzip}\t${f.url}`);
    console.log('');
  }
} finally {
  await browser.close();
  await server.stop();
}

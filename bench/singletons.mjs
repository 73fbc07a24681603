// @ts-check
/**
 * How many copies of the shared singletons exist at run time on a page that has loaded the shell and
 * two remotes (`/` → marketing, then a client-side move to `/dashboard` → dashboard, as Ava).
 * Two views:
 *  1. Module Federation's share scope (react, react-dom, @tickety/shared, @tickety/ui) (`window.__FEDERATION__.__SHARE__`): the versions registered by
 *     each app and which of them were actually loaded (target: exactly 1 loaded per package).
 *  2. The JS the page downloaded: the distinct chunks whose code *defines* each package, found by a
 *     marker that only the package's own code contains (target: 1 each).
 */
import { appOf, launchChromium, signInContext, startServer, table } from './lib.mjs';

/** A definition marker per package (strings that only the package's own production code contains). */
const MARKERS = {
  // react.production.js assigns its internals; react-dom only reads them.
  react: /__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE\s*=(?!=)/,
  // react-dom.production.js assigns its internals; react-dom/client only reads them.
  'react-dom': /__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE\s*=(?!=)/,
  // react-dom/client (the reconciler, the big part of react-dom).
  'react-dom/client': /rendererPackageName\s*:\s*"react-dom"/,
  // react-router's hook guard message survives production builds.
  'react-router': /may be used only in the context of a <Router> component/,
  // react-redux's context key.
  'react-redux': /react-redux-context/,
  // Redux Toolkit's production error formatter.
  '@reduxjs/toolkit': /Minified Redux Toolkit error #/,
};
/**
 * What Module Federation shares (build-config's SINGLETONS). The router and the store packages are not
 * in the share scope on purpose: remotes reach them through @tickety/shared, so they are bundled once,
 * in the shell; view 2 checks that exactly one copy of each is downloaded.
 */
const PACKAGES = ['react', 'react-dom', '@tickety/shared', '@tickety/ui'];

const server = await startServer();
const browser = await launchChromium();
try {
  const context = await browser.newContext({ baseURL: server.url });
  await signInContext(context, server.url, 'ava');
  const page = await context.newPage();
  /** @type {Promise<{ url: string, body: string }>[]} */
  const scripts = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script' && !/\.m?js(\?|$)/.test(response.url())) return;
    scripts.push(response.text().then((body) => ({ url: response.url(), body })));
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  // A client-side move keeps the same JS realm, so both remotes live in one page.
  const dashboardLoaded = page.waitForResponse((r) => r.url().includes('/remotes/dashboard/'), { timeout: 30_000 });
  const link = page.locator('a[href="/dashboard"]').first();
  if (await link.count()) await link.click();
  else await page.evaluate(() => {
    history.pushState({}, '', '/dashboard');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await dashboardLoaded;
  // The dashboard remote has rendered its page (not just fetched its manifest).
  await page.getByRole('heading', { name: 'Manage Servers' }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');

  const runtime = await page.evaluate((packages) => {
    const fed = /** @type {any} */ (globalThis).__FEDERATION__;
    if (!fed) return null;
    /** @type {Record<string, { version: string, from: string, loaded: boolean, useIn: string[], scope: string }[]>} */
    const out = {};
    for (const [hostName, scopes] of Object.entries(fed.__SHARE__ ?? {})) {
      for (const [scope, pkgs] of Object.entries(/** @type {Record<string, Record<string, Record<string, any>>>} */ (scopes))) {
        for (const [pkg, versions] of Object.entries(pkgs)) {
          if (!packages.includes(pkg)) continue;
          for (const [version, shared] of Object.entries(versions)) {
            if (!out[pkg]) out[pkg] = [];
            out[pkg].push({
              version,
              from: String(shared.from ?? '?'),
              loaded: Boolean(shared.loaded || shared.lib),
              useIn: Array.isArray(shared.useIn) ? shared.useIn : [],
              scope: `${hostName}/${scope}`,
            });
          }
        }
      }
    }
    const instances = (fed.__INSTANCES__ ?? []).map((/** @type {any} */ i) => i.name ?? i.options?.name);
    return { shared: out, instances };
  }, PACKAGES);

  const files = await Promise.all(scripts);
  const apps = [...new Set(files.map((f) => appOf(f.url, server.url)))];
  console.log(`singletons on /dashboard after / (Ava), server ${server.url}`);
  console.log(`apps whose JS was loaded: ${apps.join(', ')}; JS files: ${files.length}`);
  if (!runtime) console.log('window.__FEDERATION__ is missing: Module Federation runtime not found');
  else {
    console.log(`federation instances: ${runtime.instances.join(', ')}\n`);
    console.log('1. share scope (target: 1 loaded copy per package)');
    table(
      ['package', 'registered', 'loaded', 'loaded version (from -> used in)'],
      PACKAGES.map((pkg) => {
        const entries = runtime.shared[pkg] ?? [];
        const loaded = entries.filter((e) => e.loaded);
        return [
          pkg,
          entries.length,
          loaded.length,
          loaded.map((e) => `${e.version} (${e.from} -> ${e.useIn.join('+') || '-'})`).join('; ') || '-',
        ];
      }),
    );
  }
  console.log('\n2. downloaded JS chunks defining each package (target: 1)');
  table(
    ['package', 'chunks', 'distinct bodies', 'apps'],
    Object.entries(MARKERS).map(([pkg, marker]) => {
      const hits = files.filter((f) => marker.test(f.body));
      return [pkg, hits.length, new Set(hits.map((f) => f.body)).size, [...new Set(hits.map((f) => appOf(f.url, server.url)))].join(', ') || '-'];
    }),
  );
  if (process.env.BENCH_VERBOSE) {
    for (const [pkg, marker] of Object.entries(MARKERS)) for (const f of files) if (marker.test(f.body)) console.log(`  ${pkg}: ${f.url}`);
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

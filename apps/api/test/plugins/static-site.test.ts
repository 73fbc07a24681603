import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheControlFor, cspWithOrigins, inlineScriptHashes } from '../../src/plugins/app/static-site';
import { FOREIGN_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { entry, TABLES, writeFile, writeSite } from '../helpers/site';

const VERSIONS = { marketing: 'aaaaaaaaaaa1', billing: 'bbbbbbbbbbb1', dashboard: 'ddddddddddd1', shell: 'eeeeeeeeeee1' };

const root = mkdtempSync(join(tmpdir(), 'tickety-site-'));
const empty = mkdtempSync(join(tmpdir(), 'tickety-site-empty-'));
const foreign = mkdtempSync(join(tmpdir(), 'tickety-site-foreign-'));
afterAll(() => {
  for (const d of [root, empty, foreign]) rmSync(d, { recursive: true, force: true });
});

// The layout scripts/deploy.mjs writes. staff's table is malformed (a layout the shell does not
// have): the composition refuses it whole, and addresses under its mount are still pages (they show
// the remote's error). billing is deployed but its files are gone.
writeSite(root, {
  shell: VERSIONS.shell,
  remotes: {
    marketing: entry('marketing', VERSIONS.marketing),
    billing: entry('billing', VERSIONS.billing),
    dashboard: entry('dashboard', VERSIONS.dashboard),
    staff: { manifest: '/remotes/staff/fffffffffff1/mf-manifest.json', version: 'fffffffffff1', routes: { ...TABLES.staff, routes: [{ path: '/staff/system', layout: 'sidebar', page: 'System' }] } },
  },
});
writeFile(join(root, '404.html'), '<!doctype html><title>Tickety</title><div id="root"></div>');
writeFile(join(root, 'assets/main-3f9a2c1d7e.js'), 'console.log(1)');
writeFile(join(root, 'favicon.svg'), '<svg/>');
writeFile(join(root, 'deployments.json'), '[]');
writeFile(join(root, `shell/${VERSIONS.shell}/index.html`), '<!doctype html><title>old shell</title>');
writeFile(join(root, `remotes/marketing/${VERSIONS.marketing}/mf-manifest.json`), '{"name":"marketing"}');
writeFile(join(root, `remotes/marketing/${VERSIONS.marketing}/remoteEntry.js`), 'var marketing;');
writeFile(join(root, `remotes/marketing/${VERSIONS.marketing}/routes.json`), JSON.stringify(TABLES.marketing));
writeFile(join(root, `remotes/marketing/${VERSIONS.marketing}/static/js/page.0123abcd.js`), 'x');
writeFile(join(root, 'remotes/marketing/unversioned/remoteEntry.js'), 'var marketing;');

// A site whose billing remote is served from another origin.
writeSite(foreign, {
  remotes: { marketing: entry('marketing', VERSIONS.marketing), billing: entry('billing', VERSIONS.billing, TABLES.billing, 'https://cdn.tickety.test') },
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('cacheControlFor', () => {
  it('makes version folders and hashed assets immutable, and entry points revalidate', () => {
    expect(cacheControlFor('/assets/main-3f9a2c1d7e.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/page.0123abcd.css')).toBe('public, max-age=31536000, immutable');
    for (const f of ['mf-manifest.json', 'remoteEntry.js', 'routes.json', 'static/js/page.0123abcd.js']) {
      expect(cacheControlFor(`/remotes/billing/${VERSIONS.billing}/${f}`), f).toBe('public, max-age=31536000, immutable');
    }
    for (const f of ['/index.html', '/404.html', '/mf-manifest.json', '/favicon.svg', `/shell/${VERSIONS.shell}/index.html`, '/remotes/billing/latest/remoteEntry.js']) {
      expect(cacheControlFor(f), f).toBe('no-cache');
    }
  });
});

describe('cspWithOrigins', () => {
  it('lets the page load scripts, styles and manifests from the given origins, nothing else', () => {
    const csp = "default-src 'self'; script-src 'self' https://cdn.paddle.com; frame-src https://*.paddle.com; connect-src 'self'; object-src 'none'";
    expect(cspWithOrigins(csp, [])).toBe(csp);
    expect(cspWithOrigins(csp, ['https://cdn.tickety.test'])).toBe(
      "default-src 'self' https://cdn.tickety.test; script-src 'self' https://cdn.paddle.com https://cdn.tickety.test; frame-src https://*.paddle.com; connect-src 'self' https://cdn.tickety.test; object-src 'none'",
    );
  });
});

describe.each(databases())('all-in-one site on $name', (database) => {
  describe('a deployed site', () => {
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: root } });

    it('serves the shell at / with a CSP, no framing and a popup-friendly opener policy', async () => {
      const res = await new Browser(t.app).get('/', { headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('id="root"');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(res.headers['x-frame-options']).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      for (const d of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self'"]) {
        expect(csp).toContain(d);
      }
      // Demo mode: Paddle.js and its checkout are the stand-in's, on this origin.
      expect(csp).not.toContain('paddle.com');
    });

    it('answers a page address (a deployed route, the shell’s own, a refused table’s mount) with 200 and the shell', async () => {
      const pages = [
        '/premium',
        '/premium/',
        '/billing',
        '/billing/1000000000000000001/paddle/sub_1',
        '/dashboard/1100000000000000001',
        '/dashboard/1100000000000000001/configs',
        '/manage-servers',
        '/login',
        '/subscriptions/sub_1',
        '/staff/system',
        '/staff/anything/below',
      ];
      for (const path of pages) {
        // A browser navigation, a plain curl (*/*) and a crawler without Accept.
        for (const headers of [html, { accept: '*/*' }, {}]) {
          const res = await new Browser(t.app).get(path, { headers });
          expect(res.statusCode, path).toBe(200);
          expect(res.body, path).toContain('id="root"');
          expect(res.headers['cache-control'], path).toBe('no-cache');
        }
      }
    });

    it('answers any other address with 404 and the shell (the client renders its 404 page)', async () => {
      for (const path of ['/no-such-page', '/dashboard', '/dashboard/1100000000000000001/nope', '/billing-x', '/premium/more', '/%70remium/x', '/shell', '/index.html']) {
        for (const headers of [html, { accept: '*/*' }, {}]) {
          if (path === '/index.html' && headers !== html) continue; // a file name: only an HTML navigation gets the shell
          const res = await new Browser(t.app).get(path, { headers });
          expect(res.statusCode, path).toBe(404);
          expect(res.headers['content-type'], path).toMatch(/^text\/html/);
          expect(res.body, path).toContain('id="root"');
          expect(res.headers['cache-control'], path).toBe('no-cache');
          expect(res.headers['cross-origin-opener-policy'], path).toBe('same-origin-allow-popups');
        }
        // An explicit non-HTML client gets the API's 404.
        expect((await new Browser(t.app).get(path, { headers: { accept: 'application/json' } })).json().code, path).toBe(1002);
      }
      // HEAD gets the same status.
      expect((await new Browser(t.app).request('HEAD', '/no-such-page', { headers: html })).statusCode).toBe(404);
      expect((await new Browser(t.app).request('HEAD', '/premium', { headers: html })).statusCode).toBe(200);
    });

    it('lets only the display pages be framed', async () => {
      for (const path of ['/home-display', '/premium-display', '/clipboard', '/clipboard/']) {
        const res = await new Browser(t.app).get(`${path}?text=1`, { headers: html });
        expect(String(res.headers['content-security-policy']), path).toContain('frame-ancestors *');
        expect(res.headers['x-frame-options'], path).toBeUndefined();
      }
      const other = await new Browser(t.app).get('/premium', { headers: html });
      expect(String(other.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    });

    it('serves hashed assets and version folders as immutable, public files; other files revalidate', async () => {
      const asset = await new Browser(t.app).get('/assets/main-3f9a2c1d7e.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const manifest = await new Browser(t.app).get(`/remotes/marketing/${VERSIONS.marketing}/mf-manifest.json`, { headers: { origin: FOREIGN_ORIGIN } });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.json()).toEqual({ name: 'marketing' });
      expect(manifest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(manifest.headers['access-control-allow-origin']).toBe('*');
      expect(manifest.headers['access-control-allow-credentials']).toBeUndefined();
      const routes = await new Browser(t.app).get(`/remotes/marketing/${VERSIONS.marketing}/routes.json`, { headers: { origin: FOREIGN_ORIGIN } });
      expect(routes.json()).toEqual(TABLES.marketing);
      expect(routes.headers['access-control-allow-origin']).toBe('*');
      const chunk = await new Browser(t.app).get(`/remotes/marketing/${VERSIONS.marketing}/static/js/page.0123abcd.js`);
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const loose = await new Browser(t.app).get('/remotes/marketing/unversioned/remoteEntry.js');
      expect(loose.headers['cache-control']).toBe('no-cache');
      const favicon = await new Browser(t.app).get('/favicon.svg');
      expect(favicon.statusCode).toBe(200);
      expect(favicon.headers['cache-control']).toBe('no-cache');
    });

    it('keeps the history, the composition file and the shell archive to itself', async () => {
      for (const path of ['/deployments.json', '/%64eployments.json', `/shell/${VERSIONS.shell}/index.html`, `/%73hell/${VERSIONS.shell}/index.html`, '/404.html', '/.deploy.lock']) {
        const res = await new Browser(t.app).get(path, { headers: { accept: '*/*' } });
        expect(res.statusCode, path).toBe(404);
        expect(res.json().code, path).toBe(1002);
      }
      // /config.json is the API's answer (runtime settings + the site's remotes), not the file.
      const config = await new Browser(t.app).get('/config.json');
      expect(config.json().apiOrigin).toBe('http://localhost:3000');
      expect(Object.keys(config.json().remotes)).toEqual(['marketing', 'billing', 'dashboard', 'staff']);
    });

    it('never answers the shell for the API, the sandbox, remotes or missing files', async () => {
      const api = await new Browser(t.app).get('/api/nope', { headers: html });
      expect(api.statusCode).toBe(404);
      expect(api.json().code).toBe(1002);
      // billing is in config.json but its files are gone: a plain 404 (its pages show the error overlay).
      const remote = await new Browser(t.app).get(`/remotes/billing/${VERSIONS.billing}/mf-manifest.json`, { headers: html });
      expect(remote.statusCode).toBe(404);
      expect(remote.headers['content-type']).toMatch(/^application\/json/);
      const script = await new Browser(t.app).get('/assets/missing.js', { headers: { accept: '*/*' } });
      expect(script.statusCode).toBe(404);
      expect(script.json().code).toBe(1002);
      const post = await new Browser(t.app).request('POST', '/dashboard', { headers: { ...html, 'content-type': 'application/json', 'x-requested-with': 'tickety', 'sec-fetch-site': 'same-origin' }, payload: '{}' });
      expect(post.statusCode).toBe(404);
    });

    it('answers an over-long path parameter under /api with the same 414 as the API-only shape, and shapes every error the same', async () => {
      // The static wildcard catches what a too-long parameter kept from matching its route.
      for (const path of [`/api/guilds/${'9'.repeat(500)}`, `/%61pi/guilds/${'9'.repeat(101)}`]) {
        const res = await new Browser(t.app).get(path);
        expect(res.statusCode, path).toBe(414);
        expect(res.json(), path).toEqual({ code: 1001, message: 'A part of the address is too long.', isAuthenticated: false });
      }
      // A parameter at the limit is fine (a well-formed id that is not one of the user's servers).
      expect((await new Browser(t.app).get(`/api/guilds/${'9'.repeat(100)}`)).statusCode).toBe(401);
    });

    it('logs the refused table once, with its problem', () => {
      const refused = t.logs.messages(/^route table refused: /);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ level: 40, remote: 'staff', mounts: ['/staff'] });
      expect(String(refused[0]!.msg)).toContain('"layout" must be one of');
    });

    it('picks up a newly deployed index.html without a restart', async () => {
      const path = join(root, 'index.html');
      writeFileSync(path, `<!doctype html><title>Tickety</title><div id="root" data-build="${database.name}"></div>`);
      const later = new Date(Date.now() + 5_000);
      utimesSync(path, later, later);
      const res = await new Browser(t.app).get('/login', { headers: html });
      expect(res.body).toContain(`data-build="${database.name}"`);
    });
  });

  describe('a remote on another origin', () => {
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: foreign } });

    it('lets the shell page load it (CSP), and its pages are pages', async () => {
      const res = await new Browser(t.app).get('/billing', { headers: html });
      expect(res.statusCode).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://cdn.tickety.test");
      expect(csp).toMatch(/connect-src 'self'[^;]* https:\/\/cdn\.tickety\.test/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      const display = await new Browser(t.app).get('/home-display', { headers: html });
      expect(String(display.headers['content-security-policy'])).toContain('frame-ancestors *');
      expect(display.headers['x-frame-options']).toBeUndefined();
    });
  });

  describe('nothing deployed yet', () => {
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: empty } });

    it('says so on pages, warns in the logs, and keeps the API up', async () => {
      const res = await new Browser(t.app).get('/', { headers: html });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('deploy');
      expect(t.logs.messages(/no shell is deployed/)).toHaveLength(1);
      expect(t.logs.messages(/the site has no config.json/)).toHaveLength(1);
      expect(t.logs.messages(/remote \w+ is not deployed/)).toHaveLength(4);
      expect((await new Browser(t.app).get('/api/auth/@me')).statusCode).toBe(200);
      const config = await new Browser(t.app).get('/config.json');
      expect(config.json().remotes).toEqual({});
      // Asked again: the missing file is not logged on every request.
      expect(t.logs.messages(/the site has no config.json/)).toHaveLength(1);
    });
  });
});

describe.each(databases())('page heads, sitemap.xml and robots.txt from the route tables on $name', (database) => {
  const site = mkdtempSync(join(tmpdir(), 'tickety-site-seo-'));
  afterAll(() => rmSync(site, { recursive: true, force: true }));
  const marketing = {
    ...TABLES.marketing,
    routes: TABLES.marketing.routes.map((r) => (r.path === '/premium' ? { ...r, description: 'Premium & more: <b>50</b> panels.' } : r)),
  };
  writeSite(site, {
    shell: 'eeeeeeeeeee2',
    html: '<!doctype html><html><head><meta name="description" content="default" /><title>Tickety - The #1 Discord support bot</title></head><body><div id="root"></div></body></html>',
    remotes: { marketing: entry('marketing', 'aaaaaaaaaaa2', marketing), billing: entry('billing', 'bbbbbbbbbbb2'), dashboard: entry('dashboard', 'ddddddddddd2') },
  });
  const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: site } });

  it('each page arrives with its title, description, canonical URL and Open Graph and Twitter tags', async () => {
    const res = await new Browser(t.app).get('/premium', { headers: html });
    expect(res.statusCode).toBe(200);
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<title>Tickety - Premium</title>');
    expect(head).toContain('<meta name="description" content="Premium &amp; more: &lt;b&gt;50&lt;/b&gt; panels." />');
    expect(head).not.toContain('content="default"');
    expect(head).toContain('<link rel="canonical" href="http://localhost:3000/premium" />');
    expect(head).toContain('<meta property="og:title" content="Tickety - Premium" />');
    expect(head).toContain('<meta property="og:url" content="http://localhost:3000/premium" />');
    expect(head).toContain('<meta name="twitter:card" content="summary" />');
    expect(head).not.toContain('noindex');
    // A signed-in page is not for search engines; an unknown address keeps the plain shell (404).
    const billing = await new Browser(t.app).get('/billing', { headers: html });
    expect(billing.body).toContain('<title>Tickety - Billing</title>');
    expect(billing.body).toContain('<meta name="robots" content="noindex" />');
    const missing = await new Browser(t.app).get('/nope', { headers: html });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('canonical');
  });

  it('sitemap.xml lists the public pages; robots.txt keeps crawlers off the signed-in ones and the API', async () => {
    const sitemap = await new Browser(t.app).get('/sitemap.xml');
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain('http://localhost:3000/');
    expect(locs).toContain('http://localhost:3000/premium');
    for (const hidden of ['/billing', '/dashboard', '/home-display', '/billing/:user/paddle/:id']) expect(locs, hidden).not.toContain(`http://localhost:3000${hidden}`);
    const robots = await new Browser(t.app).get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    for (const line of ['Disallow: /api/', 'Disallow: /dashboard', 'Disallow: /billing', 'Disallow: /login', 'Sitemap: http://localhost:3000/sitemap.xml']) {
      expect(robots.body).toContain(line);
    }
    expect(robots.body).not.toMatch(/Disallow: \/premium\b/);
  });
});

// The shell's inline boot script (apps/shell/src/boot): allowed by its hash, nothing else inline.
const BOOT = '(()=>{document.documentElement.dataset.booted="1"})()';
const BOOT_HASH = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the inline scripts of a page, never one with a src or an empty one', () => {
    expect(inlineScriptHashes(`<head><script>${BOOT}</script><script src="/a.js"></script><script></script><script type="module">${BOOT}</script></head>`)).toEqual([BOOT_HASH]);
    expect(inlineScriptHashes('<head><script defer src="/main.js"></script></head>')).toEqual([]);
  });
});

describe.each(databases())('prerendered public pages on $name', (database) => {
  const site = mkdtempSync(join(tmpdir(), 'tickety-site-prerender-'));
  afterAll(() => rmSync(site, { recursive: true, force: true }));
  writeSite(site, {
    shell: 'eeeeeeeeeee3',
    html: `<!doctype html><html><head><title>Tickety</title><script>${BOOT}</script><link href="/assets/main.css" rel="stylesheet"></head><body><div id="root"><div class="outline"></div></div>\n<noscript>JS</noscript></body></html>`,
    remotes: { marketing: entry('marketing', 'aaaaaaaaaaa3'), dashboard: entry('dashboard', 'ddddddddddd3') },
  });
  // What the builds emit as dist/prerender.mjs (here: tiny stand-ins), and the manifest naming the stylesheet.
  writeFile(
    join(site, 'shell/eeeeeeeeeee3/prerender.mjs'),
    `export const PAGE_SLOT = '<div data-tk-page=""></div>';
     export function renderFrame(layout, path, config) { return layout === 'public' ? '<header>' + config.productName + '</header><main>' + PAGE_SLOT + '</main>' : null; }
     export function renderNotFound(config, locale) { return '<header>' + config.productName + '</header><main><h1>' + (locale === 'de' ? 'Seite nicht gefunden' : 'Page not found') + '</h1></main>'; }`,
  );
  writeFile(
    join(site, 'remotes/marketing/aaaaaaaaaaa3/prerender.mjs'),
    `export function renderPage(path, config, locale) { if (path === '/premium') throw new Error('boom'); return path === '/' ? { html: locale === 'de' ? '<h1>Startseite</h1>' : '<h1>Home</h1>', layout: 'public' } : null; }`,
  );
  writeFile(
    join(site, 'remotes/marketing/aaaaaaaaaaa3/mf-manifest.json'),
    JSON.stringify({ exposes: [{ name: 'routes', path: './routes', assets: { css: { sync: ['routes.1234abcd.css'], async: [] }, js: { sync: [], async: [] } } }] }),
  );
  const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: site, PRODUCT_NAME: 'Ticketo' } });

  it('answers a public page rendered in the shell frame, with the remote stylesheet, marked for the takeover', async () => {
    const res = await new Browser(t.app).get('/', { headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root" data-prerendered="/" data-notices=""><header>Ticketo</header><main><div class="tk-remote-marketing contents"><h1>Home</h1></div></main></div>');
    // The boot script stays first; the page's stylesheet follows the shell's.
    expect(res.body).toContain(`<script>${BOOT}</script><link href="/assets/main.css" rel="stylesheet"><link rel="stylesheet" href="/remotes/marketing/aaaaaaaaaaa3/routes.1234abcd.css" /></head>`);
    expect(res.body).not.toContain('class="outline"');
    expect(res.body).toContain('<noscript>JS</noscript>');
  });

  it('allows the shell page\'s inline boot script by its hash, and no other inline script', async () => {
    for (const path of ['/', '/premium', '/no-such-page']) {
      const csp = String((await new Browser(t.app).get(path, { headers: html })).headers['content-security-policy']);
      const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
      expect(scriptSrc, path).toBe(`script-src 'self' ${BOOT_HASH}`);
    }
  });

  it('cuts every page off from a cross-origin opener alike, and marks a signed-in user\'s page to start the app at once', async () => {
    // The same header with or without a session: an opener cannot tell whether its visitor is signed in.
    const visitor = await new Browser(t.app).get('/', { headers: html });
    expect(visitor.body).toContain('data-prerendered');
    expect(visitor.body).not.toContain('data-start');
    expect(visitor.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(String(visitor.headers.vary)).toMatch(/cookie/i);
    const withSession = await new Browser(t.app).get('/', { headers: { ...html, cookie: 'tickety_session=anything' } });
    expect(withSession.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    // The app starts at once for them (apps/shell/src/boot).
    expect(withSession.body).toContain('<div id="root" data-prerendered="/" data-start="">');
    for (const path of ['/premium', '/dashboard/1100000000000000001', '/no-such-page']) {
      expect((await new Browser(t.app).get(path, { headers: html })).headers['cross-origin-opener-policy'], path).toBe('same-origin-allow-popups');
    }
  });

  it("marks a visitor's page with the notices a visitor would read (id:revision), so the boot script need not ask", async () => {
    const notice = await t.app.announcements.create('1', { severity: 'maintenance', text: 'Down at noon', audience: 'everyone', startsAt: null, endsAt: null, publish: true });
    const forUsers = await t.app.announcements.create('1', { severity: 'info', text: 'Hello', audience: 'signedIn', startsAt: null, endsAt: null, publish: true });
    try {
      const visitor = await new Browser(t.app).get('/', { headers: html });
      expect(visitor.body).toContain(`<div id="root" data-prerendered="/" data-notices="${notice.id}:${notice.revision}">`);
      const withSession = await new Browser(t.app).get('/', { headers: { ...html, cookie: 'tickety_session=anything' } });
      expect(withSession.body).not.toContain('data-notices');
    } finally {
      await t.app.announcements.withdraw('1', notice.id);
      await t.app.announcements.withdraw('1', forUsers.id);
    }
    expect((await new Browser(t.app).get('/', { headers: html })).body).toContain('data-notices=""');
  });

  it('answers an unknown address with 404 and the 404 page prerendered for that address, not to be indexed', async () => {
    const res = await new Browser(t.app).get('/no-such-page/', { headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root" data-prerendered="/no-such-page" data-notices=""><header>Ticketo</header><main><h1>Page not found</h1></main></div>');
    expect(res.body).toContain('<title>Ticketo - Not Found</title>');
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
  });

  it("renders a page in the reader's language: their pick (cookie), else Accept-Language, else English", async () => {
    const english = await new Browser(t.app).get('/', { headers: html });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('<h1>Home</h1>');
    expect(String(english.headers.vary)).toMatch(/accept-language/i);
    const german = await new Browser(t.app).get('/', { headers: { ...html, 'accept-language': 'fr-FR, de-AT;q=0.8, en;q=0.5' } });
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('<h1>Startseite</h1>');
    // the reader's pick wins over their browser's languages, and a bad cookie is ignored
    const picked = await new Browser(t.app).get('/', { headers: { ...html, 'accept-language': 'de', cookie: 'tickety-locale=en' } });
    expect(picked.body).toContain('<h1>Home</h1>');
    const bad = await new Browser(t.app).get('/', { headers: { ...html, 'accept-language': 'de', cookie: 'tickety-locale=<script>' } });
    expect(bad.body).toContain('<h1>Startseite</h1>');
    const missing = await new Browser(t.app).get('/nowhere', { headers: { ...html, 'accept-language': 'de' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<h1>Seite nicht gefunden</h1>');
    expect(missing.body).toContain('<html lang="de">');
  });

  it('does not serve the renderers themselves', async () => {
    for (const path of ['/remotes/marketing/aaaaaaaaaaa3/prerender.mjs', '/shell/eeeeeeeeeee3/prerender.mjs']) {
      expect((await new Browser(t.app).get(path)).statusCode, path).toBe(404);
    }
  });

  it('serves the plain shell page when a page cannot be prerendered (none, or it throws), and logs why', async () => {
    for (const path of ['/premium', '/home-display']) {
      const res = await new Browser(t.app).get(path, { headers: html });
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toContain('data-prerendered');
      expect(res.body, path).toContain('class="outline"');
    }
    expect(t.logs.messages(/could not be prerendered/)).toHaveLength(1);
  });
});

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { sendEncodedText } from '../../lib/encoded-answer';
import { DEFAULT_LOCALE, isLocale, isPagePath, LOCALE_STORAGE_KEY, type Locale, localeFromAcceptLanguage, pageHtml, REMOTE_IDS, robotsTxt, sitemapXml } from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pageDataFor } from '../../lib/page-data';
import { createPrerenderer } from '../../lib/prerender';
import { runtimeConfig } from '../../lib/runtime-config';
import type { SiteConfig, SiteRemotes } from '../../lib/site-config';
import { decodedPathOf, isDisplayPage, pathOf } from './security';

const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
/** A deployed version's folder (`scripts/deploy.mjs` never writes into one twice). */
const VERSIONED = /^\/?(?:remotes\/[a-z]+|shell)\/[0-9a-f]{12}\//;
/** A precompressed copy's suffix: the file it stands for has the same cache policy. */
const PRECOMPRESSED = /\.(?:br|gz)$/;
const NO_CACHE_FILES = new Set(['mf-manifest.json', 'mf-stats.json', 'remoteEntry.js', 'routes.json', 'index.html']);

/**
 * Cache policy of a site file (its path relative to the site): anything in a version folder
 * (`remotes/<name>/<version>/`) and hashed assets are immutable; entry points and manifests outside
 * version folders, and every HTML file, revalidate.
 */
export function cacheControlFor(file: string): string {
  const name = basename(file);
  if (name.endsWith('.html')) return 'no-cache';
  if (VERSIONED.test(file)) return 'public, max-age=31536000, immutable';
  if (NO_CACHE_FILES.has(name)) return 'no-cache';
  if (HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** The last path segment looks like a file name (`main.js`, `logo.png`, `mf-manifest.json`). */
const FILE_NAME = /\/[^/]*\.[a-z0-9]{1,8}$/i;

/** Paths never answered with the shell's index.html. */
const NO_FALLBACK = ['/api/', '/sandbox/', '/remotes/'];

/** Site files that are not served as they are: the composition (GET /config.json answers it), the history, the shell page and its archive. */
const NOT_SERVED = new Set(['/config.json', '/deployments.json', '/pages.json', '/index.html', '/404.html']);

export interface StaticSite {
  /** Whether a not-found request gets the shell (GET/HEAD navigations that accept HTML). */
  wantsShell(req: FastifyRequest): boolean;
  /** The shell page: 200 for a page address, 404 for any other (the client renders its 404 page). */
  sendShell(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

interface StaticSiteOptions {
  /** The site folder (STATIC_ROOT) as `scripts/deploy.mjs` writes it. */
  root: string;
  /** The site's composition (config.json and the REMOTE_<NAME>_URL overrides). */
  site: SiteConfig;
  /**
   * The HTML pages' CSP (without frame-ancestors), given the origins remotes are served from besides
   * this one and the hashes of the shell page's inline scripts (its boot script).
   */
  csp: (remoteOrigins: string[], scriptHashes: string[]) => string;
  /** This server's own origin (PUBLIC_URL). */
  origin: string;
  /** The session cookie's name: a prerendered page asked for without one is a visitor's. */
  sessionCookie: string;
  /** The notices active for a visitor, as `id:revision`: marked on a visitor's page (boot script); null when not known in time. */
  visitorNotices?: () => Promise<string[] | null>;
  onReady: (site: StaticSite) => void;
}

/** CSP sources (`'sha256-…'`) of the inline scripts of an HTML page (those without a src). */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(m[1] ?? '') || (m[2] ?? '').length === 0) continue;
    out.push(`'sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`);
  }
  return [...new Set(out)];
}

/** Adds origins to the directives that govern what a remote brings (scripts, styles, manifests, images, fonts). */
export function cspWithOrigins(csp: string, origins: string[]): string {
  if (origins.length === 0) return csp;
  const widen = new Set(['default-src', 'script-src', 'style-src', 'connect-src', 'img-src', 'font-src']);
  return csp
    .split(/;\s*/)
    .map((directive) => {
      const name = directive.split(/\s+/, 1)[0] ?? '';
      return widen.has(name) ? [directive, ...origins.filter((origin) => !directive.split(/\s+/).includes(origin))].join(' ') : directive;
    })
    .join('; ');
}

/** Origins of remotes served from elsewhere than this server (their scripts, styles and manifests). */
/** The language a page is rendered in: the reader's pick (its cookie), else their Accept-Language, else English. */
function readerLocale(req: FastifyRequest): Locale {
  const picked = req.cookies[LOCALE_STORAGE_KEY];
  if (isLocale(picked)) return picked;
  return localeFromAcceptLanguage(req.headers['accept-language']) ?? DEFAULT_LOCALE;
}

function foreignOrigins(remotes: SiteRemotes, own: string): string[] {
  const out = new Set<string>();
  for (const entry of Object.values(remotes)) {
    if (!entry) continue;
    try {
      const origin = new URL(entry.manifest).origin;
      if (origin !== own && origin !== 'null') out.add(origin);
    } catch {
      // site-relative: served here
    }
  }
  return [...out].sort();
}

/**
 * All-in-one mode: serves the site folder `scripts/deploy.mjs` writes at `/` (the live shell's
 * index.html, its content-hashed `assets/`, each remote's versions under `remotes/<name>/<version>/`),
 * and answers HTML navigations with the shell: HTTP 200 for an address of a deployed remote's route
 * table or the shell's own, 404 for any other (the client renders its 404 page either way).
 */
export default fp(
  async function staticSite(app: FastifyInstance, opts: StaticSiteOptions) {
    const indexFile = join(opts.root, 'index.html');
    const appFile = join(opts.root, 'app.html');
    if (existsSync(opts.root)) {
      await app.register(fastifyStatic, {
        root: opts.root,
        prefix: '/',
        index: false,
        cacheControl: false,
        // The immutable assets arrive compressed once at deploy time (scripts/deploy.mjs writes
        // `.br` at brotli 11 and `.gz` at gzip 9 beside them): served by Accept-Encoding, with Vary,
        // falling back to the file itself (compressed on the fly) when there is none.
        preCompressed: true,
        setHeaders(res, path) {
          const policy = cacheControlFor(`/${relative(opts.root, path).split(sep).join('/')}`.replace(PRECOMPRESSED, ''));
          res.header('cache-control', policy);
          // An immutable file is never revalidated (its name changes with its bytes): its validators
          // would only add ~70 bytes to each of a page's dozen script answers.
          if (policy.endsWith('immutable')) {
            res.removeHeader('etag');
            res.removeHeader('last-modified');
          }
        },
        // The server-side renderers (prerender.mjs) are for this server, not for browsers.
        // HTML is answered by sendShell, never as a file (pages a static-host deploy wrote are its own).
        allowedPath: (path) => !NOT_SERVED.has(path) && !path.startsWith('/shell/') && !path.endsWith('/prerender.mjs') && !path.endsWith('.html'),
        decorateReply: false,
      });
    } else {
      app.log.warn({ dir: opts.root }, 'the site folder does not exist: run `npm start` or `node scripts/deploy.mjs <app>` (pages answer 503 until then)');
    }
    if (existsSync(opts.root) && !existsSync(indexFile) && !existsSync(appFile)) {
      app.log.warn({ dir: opts.root }, 'no shell is deployed: run `node scripts/deploy.mjs shell` (pages answer 503 until then)');
    }
    const start = await opts.site.current();
    for (const id of REMOTE_IDS) {
      if (!start.remotes[id]) app.log.warn({ dir: opts.root }, `remote ${id} is not deployed (node scripts/deploy.mjs ${id}): its addresses answer 404`);
    }

    const prerenderer = createPrerenderer({ root: opts.root, log: app.log });

    // The shell page (app.html; index.html in a site deployed before there was one) is re-read when it
    // changes on disk (a deploy or rollback), not on every request.
    let cached: { key: string; html: string; scriptHashes: string[] } | null = null;
    function shellPage(): { html: string; scriptHashes: string[] } | null {
      for (const file of [appFile, indexFile]) {
        try {
          const stats = statSync(file);
          const key = `${file}:${stats.mtimeMs}:${stats.size}:${stats.ino}`;
          if (!cached || cached.key !== key) {
            const html = readFileSync(file, 'utf8');
            cached = { key, html, scriptHashes: inlineScriptHashes(html) };
          }
          return cached;
        } catch {
          // the next
        }
      }
      return null;
    }

    const site: StaticSite = {
      wantsShell(req) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return false;
        // Decoded as the router decodes it: `/%61pi/x` is an API address, not a page.
        const path = decodedPathOf(req);
        if (NO_FALLBACK.some((p) => path.startsWith(p))) return false;
        // A page address: anything but an explicit non-HTML request (e.g. a JSON client) gets the
        // shell, also a plain `curl` (Accept: */*) or a crawler without an Accept header. A missing
        // file (`/assets/x.js`: scripts and images are fetched with */*) gets a 404, not the shell.
        const accept = String(req.headers.accept ?? '*/*');
        if (accept.includes('text/html')) return true;
        return accept.includes('*/*') && !FILE_NAME.test(path);
      },
      async sendShell(req, reply) {
        const shellFile = shellPage();
        const html = shellFile?.html ?? null;
        reply.header('cache-control', 'no-cache');
        if (html === null) {
          return reply
            .code(503)
            .type('text/html; charset=utf-8')
            .send('<!doctype html><title>Not deployed</title><p>The front end is not deployed yet: run <code>npm start</code> or <code>node scripts/deploy.mjs shell</code>.</p>');
        }
        const state = await opts.site.current();
        // The same route tables the shell gets in config.json decide the status and the page's head.
        const path = decodedPathOf(req);
        const page = isPagePath(state.composition, path);
        // A public page, and the 404 page, arrive rendered (no JavaScript needed for the first paint).
        const config = runtimeConfig(app.config, state);
        // In the reader's language: the one they picked (its cookie), else their Accept-Language.
        const locale = readerLocale(req);
        // A page that shows data (the status, the plans) arrives with it, from this server's services
        // (the status as cached for a few seconds: docs/architecture.md, "Page data in the HTML").
        const withData = page
          ? await pageDataFor(state.composition, path, { status: () => app.systemHealth.statusSnapshot(req.log), plans: () => app.config.plans })
          : null;
        const prerendered = page ? await prerenderer.page(state, path, config, locale, withData?.data) : await prerenderer.notFound(state, config, locale);
        // A request with a session cookie is (likely) a signed-in user's: the app starts at once to show
        // them, where a visitor's page waits for a first interaction (apps/shell/src/boot), or, when its
        // data changes while it is open (the status), for the page to load: the app then refreshes it.
        const visitor = req.cookies[opts.sessionCookie] === undefined;
        // What `GET /api/announcements` would answer this visitor, so the page need not ask.
        const notices = (visitor && opts.visitorNotices ? await opts.visitorNotices().catch(() => null) : null) ?? undefined;
        const body = pageHtml({
          shell: html,
          composition: state.composition,
          path,
          page: prerendered,
          notFound: !page,
          origin: opts.origin,
          productName: app.config.productName,
          startNow: !visitor,
          refresh: withData?.live === true,
          notices,
          locale,
          ...(withData ? { data: withData.data } : {}),
        });
        // Cut off from a cross-origin opener (the sign-in popup it opens still reports back), on every
        // page alike: a header that depended on the session cookie would tell an opener whether its
        // visitor is signed in (its handle closes or not), and a public page signs in in place.
        reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
        const vary = reply.getHeader('vary');
        reply.header('vary', vary ? `${String(vary)}, Cookie, Accept-Language` : 'Cookie, Accept-Language');
        // The shell's inline boot script by its hash; remotes on another origin: the page may load
        // their scripts, styles and manifests.
        const display = isDisplayPage(pathOf(req));
        reply.header('content-security-policy', `${opts.csp(foreignOrigins(state.remotes, opts.origin), shellFile?.scriptHashes ?? [])}; frame-ancestors ${display ? '*' : "'none'"}`);
        if (!display) reply.header('x-frame-options', 'DENY');
        return sendEncodedText(req, reply.code(page ? 200 : 404), body, 'text/html; charset=utf-8');
      },
    };

    app.get('/', (req, reply) => site.sendShell(req, reply));
    // For search engines, from the same route tables: the public pages, and what not to crawl.
    app.get('/sitemap.xml', async (_req, reply) => {
      const { composition } = await opts.site.current();
      return reply.header('cache-control', 'no-cache').type('application/xml; charset=utf-8').send(sitemapXml(composition, opts.origin));
    });
    app.get('/robots.txt', async (_req, reply) => {
      const { composition } = await opts.site.current();
      return reply.header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(robotsTxt(composition, opts.origin));
    });
    opts.onReady(site);
  },
  { name: 'tickety-static-site' },
);

import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REMOTE_NAMES } from '../../config';
import { decodedPathOf } from './security';

const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
const NO_CACHE_FILES = new Set(['mf-manifest.json', 'mf-stats.json', 'remoteEntry.js', 'index.html']);

/** Cache policy of a built file: hashed assets are immutable, entry points and manifests revalidate. */
export function cacheControlFor(file: string): string {
  const name = basename(file);
  if (NO_CACHE_FILES.has(name) || name.endsWith('.html')) return 'no-cache';
  if (HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

function setHeaders(reply: FastifyReply, file: string): void {
  reply.header('cache-control', cacheControlFor(file));
}

/** The last path segment looks like a file name (`main.js`, `logo.png`, `mf-manifest.json`). */
const FILE_NAME = /\/[^/]*\.[a-z0-9]{1,8}$/i;

/** Paths never answered with the shell's index.html. */
const NO_FALLBACK = ['/api/', '/sandbox/', '/remotes/'];

export interface StaticSite {
  /** Whether a not-found request gets the shell (GET/HEAD navigations that accept HTML). */
  wantsShell(req: FastifyRequest): boolean;
  sendShell(reply: FastifyReply): FastifyReply;
}

/**
 * All-in-one mode: the shell at `/` from `<root>/shell/dist`, each remote at `/remotes/<name>/` from
 * `<root>/<name>/dist` (a missing remote is skipped with a warning: only its pages fail), and any
 * other HTML navigation answered with the shell's index.html (the client renders its 404).
 */
export default fp(
  async function staticSite(app: FastifyInstance, opts: { root: string; onReady: (site: StaticSite) => void }) {
    const shellDir = join(opts.root, 'shell', 'dist');
    const indexFile = join(shellDir, 'index.html');
    if (existsSync(shellDir)) {
      await app.register(fastifyStatic, {
        root: shellDir,
        prefix: '/',
        index: false,
        cacheControl: false,
        setHeaders,
        decorateReply: false,
      });
    } else {
      app.log.warn({ dir: shellDir }, 'the shell is not built: run `pnpm build` (pages answer 503 until then)');
    }
    for (const name of REMOTE_NAMES) {
      const dir = join(opts.root, name, 'dist');
      if (!existsSync(dir)) {
        app.log.warn({ dir }, `remote ${name} is not built: its pages will show the error overlay`);
        continue;
      }
      await app.register(fastifyStatic, {
        root: dir,
        prefix: `/remotes/${name}/`,
        index: false,
        cacheControl: false,
        setHeaders,
        decorateReply: false,
      });
    }

    // index.html is re-read when it changes on disk (a rebuild), not on every request.
    let cached: { mtimeMs: number; html: string } | null = null;
    function shellHtml(): string | null {
      try {
        const { mtimeMs } = statSync(indexFile);
        if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexFile, 'utf8') };
        return cached.html;
      } catch {
        return null;
      }
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
      sendShell(reply) {
        const html = shellHtml();
        reply.header('cache-control', 'no-cache').header('cross-origin-opener-policy', 'same-origin-allow-popups');
        if (html === null) {
          return reply
            .code(503)
            .type('text/html; charset=utf-8')
            .send('<!doctype html><title>Not built</title><p>The front end is not built yet: run <code>pnpm build</code>.</p>');
        }
        return reply.code(200).type('text/html; charset=utf-8').send(html);
      },
    };

    app.get('/', (_req, reply) => site.sendShell(reply));
    opts.onReady(site);
  },
  { name: 'tickety-static-site' },
);

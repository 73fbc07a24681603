import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REMOTE_IDS, type RemoteId, type RuntimeConfig, leafPaths } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SiteState } from './site-config';

/** What an app's dist/prerender.mjs exports (the shell: the frame; a remote: its pages). */
interface ShellModule {
  PAGE_SLOT: string;
  renderFrame(layout: string, path: string, config: RuntimeConfig): string | null;
}
interface RemoteModule {
  renderPage(path: string, config: RuntimeConfig): { html: string; layout: string } | null;
}

const MAX_CACHED_PAGES = 200;
const SAFE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Public pages as HTML before any script: the live shell's frame (its dist/prerender.mjs) around the
 * owning remote's page (its dist/prerender.mjs), rendered with this server's runtime settings and
 * kept per deployed versions. These modules are the site's own builds (deployed like the browser
 * bundles); a page that cannot be rendered is served as the plain shell page instead.
 */
export interface Prerendered {
  /** The #root content: the frame with the page in it. */
  body: string;
  /** <link> tags for the head: the remote's stylesheets, so the page is styled before any script. */
  head: string;
}

function escapeAttr(value: string): string {
  return value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The stylesheets the remote's ./routes module loads (from its mf-manifest.json), beside its manifest URL. */
function stylesheets(versionDir: string, manifestUrl: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(versionDir, 'mf-manifest.json'), 'utf8')) as {
      exposes?: Array<{ name?: string; path?: string; assets?: { css?: { sync?: string[] } } }>;
    };
    const routes = manifest.exposes?.find((e) => e.path === './routes' || e.name === 'routes');
    const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
    return (routes?.assets?.css?.sync ?? []).filter((f) => /^[\w./-]+\.css$/.test(f) && !f.includes('..')).map((f) => `${base}${f}`);
  } catch {
    return [];
  }
}

export function createPrerenderer(opts: { root: string; log: FastifyBaseLogger }) {
  const modules = new Map<string, Promise<unknown> | null>();
  const pages = new Map<string, Prerendered | null>();
  const warned = new Set<string>();

  function load<T>(file: string): Promise<T | null> {
    if (!modules.has(file)) {
      modules.set(
        file,
        existsSync(file)
          ? import(pathToFileURL(file).href).catch((error: unknown) => {
              if (!warned.has(file)) opts.log.warn({ file, err: error }, 'a prerender module could not be loaded: its pages are served without prerendered HTML');
              warned.add(file);
              return null;
            })
          : null,
      );
    }
    return (modules.get(file) ?? Promise.resolve(null)) as Promise<T | null>;
  }

  function ownerOf(state: SiteState, path: string): RemoteId | null {
    for (const id of REMOTE_IDS) {
      const table = state.composition.tables[id];
      if (table && leafPaths(table).some((l) => l.path === path && l.route.page)) return id;
    }
    return null;
  }

  return {
    /** The page at `path` (decoded) rendered, or null. */
    async page(state: SiteState, path: string, config: RuntimeConfig): Promise<Prerendered | null> {
      const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
      const remote = ownerOf(state, clean);
      const shellVersion = state.shell?.version;
      const entry = remote ? state.remotes[remote] : undefined;
      const remoteVersion = entry?.version;
      if (!remote || !entry || !shellVersion || !remoteVersion) return null;
      // Versions name folders of the site: plain names only (config.json is the operator's, but a
      // typo must not load a module from elsewhere).
      if (!SAFE_VERSION.test(shellVersion) || !SAFE_VERSION.test(remoteVersion)) return null;
      const key = `${shellVersion}|${remote}@${remoteVersion}|${clean}`;
      if (pages.has(key)) return pages.get(key)!;
      const [shell, page] = await Promise.all([
        load<ShellModule>(join(opts.root, 'shell', shellVersion, 'prerender.mjs')),
        load<RemoteModule>(join(opts.root, 'remotes', remote, remoteVersion, 'prerender.mjs')),
      ]);
      let html: Prerendered | null = null;
      try {
        const rendered = shell && page ? page.renderPage(clean, config) : null;
        const frame = rendered ? shell!.renderFrame(rendered.layout, clean, config) : null;
        if (rendered && frame?.includes(shell!.PAGE_SLOT)) {
          const versionDir = join(opts.root, 'remotes', remote, remoteVersion);
          html = {
            body: frame.replace(shell!.PAGE_SLOT, () => `<div class="tk-remote-${remote} contents">${rendered.html}</div>`),
            head: stylesheets(versionDir, entry.manifest)
              .map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}" />`)
              .join(''),
          };
        }
      } catch (error) {
        opts.log.warn({ path: clean, remote, err: error }, 'a page could not be prerendered: served as the plain shell page');
      }
      if (pages.size >= MAX_CACHED_PAGES) pages.delete(pages.keys().next().value!);
      pages.set(key, html);
      return html;
    },
  };
}

/**
 * The shell page with the prerendered page as the content of its #root (marked, so the app knows to
 * take it over) and its stylesheets in the head.
 */
export function withPrerenderedRoot(shell: string, page: Prerendered, opts: { startNow?: boolean } = {}): string {
  // The page's stylesheets go after the shell's (the boot script stays first: it needs none).
  const headEnd = shell.indexOf('</head>');
  const links = [...shell.slice(0, headEnd === -1 ? 0 : headEnd).matchAll(/<link(?=[^>]*\brel="stylesheet")[^>]*>/g)];
  const last = links.at(-1);
  const at = last?.index !== undefined ? last.index + last[0].length : headEnd;
  const html = at === -1 ? shell : `${shell.slice(0, at)}${page.head}${shell.slice(at)}`;
  const body = page.body;
  const start = html.indexOf('<div id="root">');
  if (start === -1) return html;
  const noscript = html.indexOf('<noscript>', start);
  const end = html.lastIndexOf('</div>', noscript === -1 ? html.length : noscript);
  if (end <= start) return html;
  // data-start: the shell's boot script starts the app at once (a signed-in user's request), instead
  // of at the visitor's first interaction.
  return `${html.slice(0, start)}<div id="root" data-prerendered=""${opts.startNow ? ' data-start=""' : ''}>${body}</div>${html.slice(end + '</div>'.length)}`;
}

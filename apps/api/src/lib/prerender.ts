import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_LOCALE,
  type Locale,
  manifestStylesheets,
  type PageData,
  type PrerenderedPage,
  pageOwner,
  type RemoteRenderer,
  type RuntimeConfig,
  renderNotFound,
  renderPage,
  type ShellRenderer,
} from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SiteState } from './site-config';

const MAX_CACHED_PAGES = 200;
const SAFE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Public pages as HTML before any script (packages/api-contract site-pages.ts), rendered with this
 * server's runtime settings by the deployed versions' renderers and kept per versions. These modules
 * are the site's own builds (deployed like the browser bundles); a page that cannot be rendered is
 * served as the plain shell page instead.
 */
export function createPrerenderer(opts: { root: string; log: FastifyBaseLogger }) {
  const modules = new Map<string, Promise<unknown> | null>();
  const pages = new Map<string, PrerenderedPage | null>();
  // A page rendered with data (the status): its last rendering per page, with the data it shows.
  const withData = new Map<string, { data: string; page: PrerenderedPage | null }>();
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

  function stylesheets(versionDir: string, manifestUrl: string): string[] {
    try {
      return manifestStylesheets(JSON.parse(readFileSync(join(versionDir, 'mf-manifest.json'), 'utf8')), manifestUrl);
    } catch {
      return [];
    }
  }

  function remember(key: string, page: PrerenderedPage | null): PrerenderedPage | null {
    if (pages.size >= MAX_CACHED_PAGES) pages.delete(pages.keys().next().value!);
    pages.set(key, page);
    return page;
  }

  function shellOf(state: SiteState): Promise<ShellRenderer | null> {
    const version = state.shell?.version;
    // Versions name folders of the site: plain names only (config.json is the operator's, but a
    // typo must not load a module from elsewhere).
    if (!version || !SAFE_VERSION.test(version)) return Promise.resolve(null);
    return load<ShellRenderer>(join(opts.root, 'shell', version, 'prerender.mjs'));
  }

  return {
    /** The page at `path` (decoded) rendered, or null; with `data`, showing it (re-rendered when it changes). */
    async page(state: SiteState, address: string, config: RuntimeConfig, locale: Locale = DEFAULT_LOCALE, data?: PageData): Promise<PrerenderedPage | null> {
      // One cache entry per page, however its address is written (`/premium`, `/premium//`).
      const path = address.length > 1 ? address.replace(/\/+$/, '') : address;
      const remote = pageOwner(state.composition, path);
      const entry = remote ? state.remotes[remote] : undefined;
      const version = entry?.version;
      if (!remote || !entry || !version || !SAFE_VERSION.test(version)) return null;
      const key = `${state.shell?.version}|${remote}@${version}|${locale}|${path}`;
      const dataKey = data ? JSON.stringify(data) : null;
      if (dataKey !== null) {
        const last = withData.get(key);
        if (last?.data === dataKey) return last.page;
      } else if (pages.has(key)) return pages.get(key)!;
      const keep = (rendered: PrerenderedPage | null) => {
        if (dataKey === null) return remember(key, rendered);
        if (withData.size >= MAX_CACHED_PAGES) withData.delete(withData.keys().next().value!);
        withData.set(key, { data: dataKey, page: rendered });
        return rendered;
      };
      const [shell, page] = await Promise.all([shellOf(state), load<RemoteRenderer>(join(opts.root, 'remotes', remote, version, 'prerender.mjs'))]);
      if (!shell || !page) return keep(null);
      try {
        const versionDir = join(opts.root, 'remotes', remote, version);
        return keep(renderPage({ shell, remote: page, remoteId: remote, path, config, locale, stylesheets: stylesheets(versionDir, entry.manifest), ...(data ? { data } : {}) }));
      } catch (error) {
        opts.log.warn({ path, remote, err: error }, 'a page could not be prerendered: served as the plain shell page');
        return keep(null);
      }
    },

    /** The shell's 404 page rendered, or null. */
    async notFound(state: SiteState, config: RuntimeConfig, locale: Locale = DEFAULT_LOCALE): Promise<PrerenderedPage | null> {
      const key = `${state.shell?.version}|${locale}|404`;
      if (pages.has(key)) return pages.get(key)!;
      const shell = await shellOf(state);
      if (!shell) return remember(key, null);
      try {
        return remember(key, renderNotFound(shell, config, locale));
      } catch (error) {
        opts.log.warn({ err: error }, 'the 404 page could not be prerendered: served as the plain shell page');
        return remember(key, null);
      }
    },
  };
}

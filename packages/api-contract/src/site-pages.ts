/**
 * Public pages as HTML, assembled from the site's own builds: the live shell's frame (its
 * dist/prerender.mjs) around the owning remote's page (its dist/prerender.mjs), in the shell page
 * (its index.html), with the page's stylesheets and head tags. The all-in-one server answers with
 * these (apps/api static-site); `scripts/deploy.mjs --public-url` writes them for a static host. How
 * the renderer modules are loaded is the caller's (both load them from the site folder).
 */

import { DEFAULT_LOCALE, type Locale } from './locales';
import { documentTitle, headTags, pageMeta, withHeadTags } from './page-meta';
import { type Composition, isOpenPage, leafPaths, REMOTE_IDS, type RemoteId, tablePages } from './route-table';
import type { Plan, StatusResponse } from './runtime';
import type { RuntimeConfig } from './runtime-config';

/**
 * What a page that waits for data on arrival gets in its HTML (the status, the plans): rendered into
 * the prerendered page, and embedded as JSON (`PAGE_DATA_ID`) so the app takes over without fetching.
 */
export interface PageData {
  status?: StatusResponse;
  plans?: Plan[];
}

/** The id of the `<script type="application/json">` element that carries a page's data. */
export const PAGE_DATA_ID = 'tk-page-data';

/** The page data as a JSON script element: never executed (CSP-free), and `<`, `>`, `&` escaped so no text in it can close it. */
export function pageDataScript(data: PageData): string {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`;
}

/** What the shell's dist/prerender.mjs exports. */
export interface ShellRenderer {
  /** Where the page goes in a rendered frame. */
  PAGE_SLOT: string;
  renderFrame(layout: string, path: string, config: RuntimeConfig, locale?: Locale): string | null;
  /** The 404 page in the public layout (the shell owns it). */
  renderNotFound?(config: RuntimeConfig, locale?: Locale): string | null;
}

/** What a remote's dist/prerender.mjs exports. */
export interface RemoteRenderer {
  renderPage(path: string, config: RuntimeConfig, locale?: Locale, data?: PageData): { html: string; layout: string } | null;
}

/** A prerendered page: the content of #root, and the <link> tags its stylesheets need. */
export interface PrerenderedPage {
  body: string;
  head: string;
}

/** `data-prerendered` of a page served for any address (a static host's 404.html). */
export const ANY_ADDRESS = '*';

function clean(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function escapeAttr(value: string): string {
  return value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The remote that owns the page at `path` (decoded), if a deployed table names it exactly. */
export function pageOwner(composition: Composition, path: string): RemoteId | null {
  const want = clean(path);
  for (const id of REMOTE_IDS) {
    const table = composition.tables[id];
    if (table && leafPaths(table).some((l) => l.path === want && l.route.page)) return id;
  }
  return null;
}

/** The paths of the pages anyone may open (no sign-in, no parameters): the ones prerendered. */
export function openPagePaths(composition: Composition): string[] {
  const paths = REMOTE_IDS.flatMap((id) => {
    const table = composition.tables[id];
    return table ? tablePages(table).filter(isOpenPage).map((p) => p.path) : [];
  });
  return [...new Set(paths)].sort();
}

/**
 * The stylesheets the remote's ./routes module loads (its mf-manifest.json), as URLs beside its
 * manifest URL. Only plain relative file names are taken.
 */
export function manifestStylesheets(manifest: unknown, manifestUrl: string): string[] {
  const exposes = (manifest as { exposes?: Array<{ name?: string; path?: string; assets?: { css?: { sync?: unknown } } }> } | null)?.exposes;
  const routes = Array.isArray(exposes) ? exposes.find((e) => e?.path === './routes' || e?.name === 'routes') : undefined;
  const sync = routes?.assets?.css?.sync;
  const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
  return (Array.isArray(sync) ? sync : []).filter((f): f is string => typeof f === 'string' && /^[\w-][\w./-]*\.css$/.test(f) && !f.includes('..')).map((f) => `${base}${f}`);
}

/** A remote's page in the shell's frame (null when either renderer has nothing for it; throws what they throw). */
export function renderPage(options: {
  shell: ShellRenderer;
  remote: RemoteRenderer;
  remoteId: RemoteId;
  path: string;
  config: RuntimeConfig;
  stylesheets: string[];
  locale?: Locale;
  /** The data the page shows (a renderer built before there was any ignores it). */
  data?: PageData;
}): PrerenderedPage | null {
  const locale = options.locale ?? DEFAULT_LOCALE;
  const rendered = options.remote.renderPage(clean(options.path), options.config, locale, options.data);
  const frame = rendered ? options.shell.renderFrame(rendered.layout, clean(options.path), options.config, locale) : null;
  if (!rendered || !frame?.includes(options.shell.PAGE_SLOT)) return null;
  return {
    body: frame.replace(options.shell.PAGE_SLOT, () => `<div class="tk-remote-${options.remoteId} contents">${rendered.html}</div>`),
    head: options.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}" />`).join(''),
  };
}

/** The shell's 404 page, prerendered (null when the shell's renderer has none). */
export function renderNotFound(shell: ShellRenderer, config: RuntimeConfig, locale: Locale = DEFAULT_LOCALE): PrerenderedPage | null {
  const body = shell.renderNotFound?.(config, locale) ?? null;
  return body === null ? null : { body, head: '' };
}

/**
 * The shell page with `page` as the content of its #root, marked `data-prerendered` with the address
 * it was rendered for (ANY_ADDRESS for a page served at any address), so the shell's boot script and
 * takeover know what they have; its stylesheets after the shell's. `startNow` marks a signed-in
 * user's page: the app starts at once (apps/shell/src/boot); `refresh` a page whose data changes
 * while it is open: the app starts once it has loaded and the browser is idle. `notices` (`id:revision`
 * keys) are the notices active for a visitor, so the boot script needs no request to know (`data-notices`).
 */
export function withPrerenderedRoot(
  shell: string,
  page: PrerenderedPage,
  options: { path: string; startNow?: boolean; refresh?: boolean; notices?: readonly string[] },
): string {
  // The page's stylesheets go after the shell's (the boot script stays first: it needs none).
  const headEnd = shell.indexOf('</head>');
  const links = [...shell.slice(0, headEnd === -1 ? 0 : headEnd).matchAll(/<link(?=[^>]*\brel="stylesheet")[^>]*>/g)];
  const last = links.at(-1);
  const at = last?.index !== undefined ? last.index + last[0].length : headEnd;
  const html = at === -1 ? shell : `${shell.slice(0, at)}${page.head}${shell.slice(at)}`;
  const start = html.indexOf('<div id="root">');
  if (start === -1) return html;
  const noscript = html.indexOf('<noscript>', start);
  const end = html.lastIndexOf('</div>', noscript === -1 ? html.length : noscript);
  if (end <= start) return html;
  const notices = options.notices ? ` data-notices="${escapeAttr(options.notices.join(' '))}"` : '';
  const marks = `data-prerendered="${escapeAttr(options.path === ANY_ADDRESS ? options.path : clean(options.path))}"${options.startNow ? ' data-start=""' : ''}${options.refresh ? ' data-refresh=""' : ''}${notices}`;
  return `${html.slice(0, start)}<div id="root" ${marks}>${page.body}</div>${html.slice(end + '</div>'.length)}`;
}

/** The page with its data's JSON element at the end of its body (or at its end, without one). */
export function withPageData(html: string, data: PageData): string {
  const end = html.lastIndexOf('</body>');
  const script = pageDataScript(data);
  return end === -1 ? `${html}${script}` : `${html.slice(0, end)}${script}${html.slice(end)}`;
}

/** The page with `<html lang="…">` set to `locale`. */
export function withLang(html: string, locale: Locale): string {
  return html.replace(/<html\b([^>]*)>/i, (_, attrs: string) => `<html${attrs.replace(/\s+lang="[^"]*"/i, '')} lang="${locale}">`);
}

/** The head of the 404 page: its title, and not to be indexed. */
export function notFoundHeadTags(productName: string): string {
  return [`<title>${escapeAttr(documentTitle(productName, 'Not Found'))}</title>`, '<meta name="robots" content="noindex" />'].join('\n    ');
}

/** The full HTML of a page: prerendered root (when there is one) and head tags, in the shell page. */
export function pageHtml(options: {
  shell: string;
  composition: Composition;
  path: string;
  page: PrerenderedPage | null;
  notFound?: boolean;
  origin: string;
  productName: string;
  startNow?: boolean;
  /** The page's data changes while it is open (the status): the app starts after load and idle to refresh it. */
  refresh?: boolean;
  /** The notices active for a visitor (`id:revision`), when the server knows them (withPrerenderedRoot). */
  notices?: readonly string[];
  /** The language the page is rendered in (`<html lang>`; the boot script compares it with the reader's). */
  locale?: Locale;
  /** The page's data, embedded after #root for the app's takeover. */
  data?: PageData;
}): string {
  const rooted = options.page
    ? withPrerenderedRoot(options.shell, options.page, { path: options.path, startNow: options.startNow, refresh: options.refresh, notices: options.notices })
    : options.shell;
  const body = withLang(options.data ? withPageData(rooted, options.data) : rooted, options.locale ?? DEFAULT_LOCALE);
  if (options.notFound) return withHeadTags(body, notFoundHeadTags(options.productName));
  const meta = pageMeta(options.composition, options.path, options.productName);
  return meta ? withHeadTags(body, headTags(meta, { origin: options.origin, productName: options.productName })) : body;
}

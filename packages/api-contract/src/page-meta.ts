/**
 * What a page's HTML says about it before any script runs, from the same route tables the shell
 * routes with: its title, description, canonical URL and Open Graph / Twitter tags; and the site's
 * sitemap.xml and robots.txt. The all-in-one server puts these into the shell page it answers; the
 * deploy script writes them for static hosts.
 */
import { type Composition, isOpenPage, REMOTE_IDS, SHELL_PATHS, type TablePage, tablePages } from './route-table';

/** '{product} - <title>', or the default title (docs/behaviour.md#look-and-titles). */
export function documentTitle(productName: string, title?: string): string {
  return title ? `${productName} - ${title}` : `${productName} - The #1 Discord support bot`;
}

export function defaultDescription(productName: string): string {
  return `${productName}: the ticket-support bot for Discord. Panels, forms, transcripts and statistics, configured from the web.`;
}

export interface PageMeta {
  /** The canonical path (no trailing slash but `/`). */
  path: string;
  title: string;
  description: string;
  /** A public page search engines should list (no sign-in, no parameters, not an embed). */
  indexable: boolean;
}

function leaves(composition: Composition): TablePage[] {
  return REMOTE_IDS.flatMap((id) => {
    const table = composition.tables[id];
    return table ? tablePages(table) : [];
  });
}

/** Listed for search engines: open, and in a layout meant to be visited (not an embed). */
function isIndexable(leaf: TablePage): boolean {
  return isOpenPage(leaf) && (leaf.layout === 'public' || leaf.layout === 'subscription');
}

function clean(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The meta of the page at `path` (decoded), or null when no table names it exactly. */
export function pageMeta(composition: Composition, path: string, productName: string): PageMeta | null {
  const want = clean(path);
  const leaf = leaves(composition).find((l) => l.path === want);
  if (!leaf) return null;
  return {
    path: want,
    title: documentTitle(productName, leaf.route.title),
    description: leaf.route.description ?? defaultDescription(productName),
    indexable: isIndexable(leaf),
  };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The head tags of a page: title, description, canonical, Open Graph and Twitter (noindex when not indexable). */
export function headTags(meta: PageMeta, site: { origin: string; productName: string }): string {
  const url = `${site.origin}${meta.path}`;
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(site.productName)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    ...(meta.indexable ? [] : ['<meta name="robots" content="noindex" />']),
  ].join('\n    ');
}

/** The shell page with the page's head tags in place of its default title and description. */
export function withHeadTags(html: string, tags: string): string {
  return html.replace(/\s*<meta name="description"[^>]*>/g, '').replace(/<title>[\s\S]*?<\/title>/, () => tags);
}

/** sitemap.xml: every indexable page of the site. */
export function sitemapXml(composition: Composition, origin: string): string {
  const paths = [...new Set(leaves(composition).filter(isIndexable).map((l) => l.path))].sort();
  const urls = paths.map((p) => `  <url><loc>${escapeHtml(`${origin}${p}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: signed-in pages, the API, the sign-in pages and the sandbox are disallowed. */
export function robotsTxt(composition: Composition, origin: string): string {
  const guarded = new Set<string>();
  for (const leaf of leaves(composition)) {
    if (!leaf.guarded) continue;
    // The literal part before the first parameter: /billing/:user → /billing/.
    const i = leaf.path.indexOf('/:');
    guarded.add(i === -1 ? leaf.path : leaf.path.slice(0, i + 1));
  }
  // Crawlers match by prefix: a path already covered by a shorter one is left out.
  const sorted = [...guarded].sort();
  const kept = sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(q)));
  const disallow = ['/api/', '/sandbox/', ...SHELL_PATHS, ...kept];
  return `User-agent: *\n${disallow.map((p) => `Disallow: ${p}`).join('\n')}\n\nSitemap: ${origin}/sitemap.xml\n`;
}

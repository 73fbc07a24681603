import type { MessageKey } from '../../lib/i18n';

/**
 * The five policy documents: where each is served and its title (the catalogue's `title.<page>` of
 * its route, whose English is the route table's). Their text: documents.ts.
 */
export const POLICIES = {
  'terms-of-service': { path: '/terms-of-service', title: 'title.termsOfService' },
  'privacy-policy': { path: '/privacy-policy', title: 'title.privacyPolicy' },
  legal: { path: '/legal', title: 'title.legal' },
  'refund-policy': { path: '/refund-policy', title: 'title.refundPolicy' },
  'aup-policy': { path: '/aup-policy', title: 'title.aupPolicy' },
} as const satisfies Record<string, { path: string; title: MessageKey }>;

export type PolicyId = keyof typeof POLICIES;

export const POLICY_IDS = Object.keys(POLICIES) as PolicyId[];

export function isPolicyId(id: string | undefined): id is PolicyId {
  return id !== undefined && Object.hasOwn(POLICIES, id);
}

interface PolicyDocument {
  /** "2026-11-22" from the front matter's `updated:` line, or null. */
  updated: string | null;
  /** The Markdown without its front matter. */
  body: string;
}

/** Splits a `---`-fenced front matter (only `key: value` lines are read) from the Markdown. */
export function parseFrontMatter(source: string): PolicyDocument {
  const frontMatter = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!frontMatter) return { updated: null, body: source };
  let updated: string | null = null;
  for (const line of frontMatter[1]!.split(/\r?\n/)) {
    const kv = /^\s*updated\s*:\s*["']?([^"'\s]+)["']?\s*$/.exec(line);
    if (kv) updated = kv[1]!;
  }
  return { updated, body: source.slice(frontMatter[0].length) };
}

/** Backslash-escapes Markdown punctuation so a configured name can't turn into formatting or a link. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}

/**
 * Fills `{product}` (escaped: it is plain text) and URL placeholders such as `{supportUrl}` (used
 * inside link targets). Unknown placeholders are left as they are.
 */
export function fillPlaceholders(body: string, values: { product: string; urls: Record<string, string> }): string {
  return body.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (key === 'product') return escapeMarkdown(values.product);
    const url = values.urls[key];
    return url === undefined ? whole : url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  });
}

export interface TocEntry {
  id: string;
  text: string;
  /** 1-based line of the heading in the filled body (matches react-markdown's node positions). */
  line: number;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9\s-]/g, '')
      .trim()
      .replace(/[\s-]+/g, '-') || 'section'
  );
}

/** Plain text of a heading's inline Markdown (links, emphasis, code and escapes removed). */
function plainHeading(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/[*_`~]/g, '')
    .trim();
}

/** The table of contents: every level-1 or level-2 ATX heading outside code fences, with unique ids. */
export function tableOfContents(body: string): TocEntry[] {
  const entries: TocEntry[] = [];
  const used = new Map<string, number>();
  let fence: string | null = null;
  body.split(/\r?\n/).forEach((line, i) => {
    const fenceLine = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceLine) {
      if (fence === null) fence = fenceLine[1]!.charAt(0);
      else if (fenceLine[1]!.charAt(0) === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const heading = /^\s{0,3}#{1,2}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) return;
    const text = plainHeading(heading[1]!);
    const base = slugify(text);
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    entries.push({ id: seen === 0 ? base : `${base}-${seen}`, text, line: i + 1 });
  });
  return entries;
}

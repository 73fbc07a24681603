/**
 * Announcements (staff's System Update, the shell's banner): the words they are made of, and their
 * short markdown text parsed to a small tree of text only (so nothing in it is ever HTML). No zod
 * here: the shell and the staff remote import this at run time. The subset and the link rules:
 * docs/api.md#announcement-text.
 */

/** How a notice looks: information, planned maintenance, or an incident happening now. */
export const ANNOUNCEMENT_SEVERITIES = ['info', 'maintenance', 'critical'] as const;

/** Who sees it: everyone (visitors too), signed-in users (staff included), or staff only. */
export const ANNOUNCEMENT_AUDIENCES = ['everyone', 'signedIn', 'staff'] as const;

/**
 * Where a notice stands: a draft (not published), scheduled (published, its start to come), active,
 * ended (its end has passed) or withdrawn by staff.
 */
export const ANNOUNCEMENT_STATUSES = ['draft', 'scheduled', 'active', 'ended', 'withdrawn'] as const;

/** The longest text, in characters (code points): a banner is a sentence or two, not a page. */
export const ANNOUNCEMENT_TEXT_MAX = 500;

/** Characters of a text as people count them (an emoji is one). */
export function announcementTextLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** The text as it is stored: line endings made `\n`, spaces around it trimmed. */
export function normalizeAnnouncementText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export type AnnouncementInline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'strong' | 'em'; children: AnnouncementInline[] }
  | { type: 'code'; text: string }
  /** `external`: another site's address (opened in a new tab by the renderers). */
  | { type: 'link'; href: string; external: boolean; children: AnnouncementInline[] };

export type AnnouncementBlock = { type: 'paragraph'; children: AnnouncementInline[] } | { type: 'list'; items: AnnouncementInline[][] };

/** Nesting deeper than this is text (`**_**_…` cannot recurse without end). */
const MAX_DEPTH = 4;
const ESCAPABLE = '\\`*_[]()#-!>~';
const LINK = /\[([^[\]\n]{1,200})\]\(([^()\s]{1,500})\)/y;
const LIST_ITEM = /^\s{0,3}[-*]\s+(.*)$/;

/**
 * The address a link may keep: https, http and mailto addresses, and paths on this site (`/status`,
 * not `//elsewhere`). Null for anything else (javascript:, data:, vbscript:, relative words).
 */
export function safeAnnouncementHref(raw: string): { href: string; external: boolean } | null {
  const target = raw.trim();
  if (/^\/(?![/\\])/.test(target)) return { href: target, external: false };
  if (!/^(?:https?:\/\/|mailto:)/i.test(target)) return null;
  try {
    const url = new URL(target);
    if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'mailto:') return null;
    return { href: url.href, external: true };
  } catch {
    return null;
  }
}

/** Letters, digits and `_`: an `_` beside one is part of a word (`snake_case`, `__x`), not emphasis. */
function isWordChar(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}_]/u.test(character);
}

function inline(src: string, depth: number): AnnouncementInline[] {
  const out: AnnouncementInline[] = [];
  let buf = '';
  const flush = () => {
    if (buf === '') return;
    const last = out[out.length - 1];
    if (last?.type === 'text') last.text += buf;
    else out.push({ type: 'text', text: buf });
    buf = '';
  };
  let i = 0;
  while (i < src.length) {
    const character = src[i]!;
    const next = src[i + 1];
    if (character === '\\' && next !== undefined && ESCAPABLE.includes(next)) {
      buf += next;
      i += 2;
      continue;
    }
    if (character === '\n') {
      flush();
      out.push({ type: 'break' });
      i += 1;
      continue;
    }
    if (character === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ type: 'code', text: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (depth < MAX_DEPTH && character === '*' && next === '*') {
      const end = src.indexOf('**', i + 2);
      if (end > i + 2 && src[i + 2] !== ' ' && src[end - 1] !== ' ') {
        flush();
        out.push({ type: 'strong', children: inline(src.slice(i + 2, end), depth + 1) });
        i = end + 2;
        continue;
      }
    }
    if (depth < MAX_DEPTH && (character === '*' || character === '_') && next !== character && next !== ' ' && next !== undefined && !(character === '_' && isWordChar(src[i - 1]))) {
      let end = src.indexOf(character, i + 1);
      // `*a **b** c*`: a closing `*` is not the start of `**`.
      while (character === '*' && end !== -1 && src[end + 1] === '*') {
        const close = src.indexOf('**', end + 2);
        end = close === -1 ? -1 : src.indexOf(character, close + 2);
      }
      if (end > i + 1 && src[end - 1] !== ' ' && !(character === '_' && isWordChar(src[end + 1]))) {
        flush();
        out.push({ type: 'em', children: inline(src.slice(i + 1, end), depth + 1) });
        i = end + 1;
        continue;
      }
    }
    if (character === '[') {
      LINK.lastIndex = i;
      const match = LINK.exec(src);
      if (match) {
        flush();
        const children = depth < MAX_DEPTH ? inline(match[1]!, depth + 1) : [{ type: 'text' as const, text: match[1]! }];
        const safe = safeAnnouncementHref(match[2]!);
        if (safe) out.push({ type: 'link', href: safe.href, external: safe.external, children });
        else out.push(...children);
        i += match[0].length;
        continue;
      }
    }
    buf += character;
    i += 1;
  }
  flush();
  return out;
}

/**
 * Parses a notice's text to blocks (see the file's comment). Linear in practice: the text is at most
 * ANNOUNCEMENT_TEXT_MAX characters and nesting stops at MAX_DEPTH.
 */
export function parseAnnouncementText(text: string): AnnouncementBlock[] {
  const blocks: AnnouncementBlock[] = [];
  const chunks = normalizeAnnouncementText(text).split(/\n[ \t]*\n+/);
  for (const chunk of chunks) {
    if (chunk.trim() === '') continue;
    const lines = chunk.split('\n');
    let paragraph: string[] = [];
    let items: string[] = [];
    const endParagraph = () => {
      if (paragraph.length > 0) blocks.push({ type: 'paragraph', children: inline(paragraph.join('\n'), 0) });
      paragraph = [];
    };
    const endList = () => {
      if (items.length > 0) blocks.push({ type: 'list', items: items.map((item) => inline(item, 0)) });
      items = [];
    };
    for (const line of lines) {
      const item = LIST_ITEM.exec(line);
      if (item) {
        endParagraph();
        items.push(item[1]!);
      } else {
        endList();
        paragraph.push(line);
      }
    }
    endParagraph();
    endList();
  }
  return blocks;
}

/** The text without markup (an accessible summary, a list's excerpt). */
export function announcementPlainText(text: string): string {
  const flat = (nodes: AnnouncementInline[]): string =>
    nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.text : n.type === 'break' ? ' ' : flat(n.children))).join('');
  return parseAnnouncementText(text)
    .map((b) => (b.type === 'paragraph' ? flat(b.children) : b.items.map(flat).join(' · ')))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

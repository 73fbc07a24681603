/**
 * Discord's message markdown, rendered to HTML for the sandbox's channel pages. Safe by construction:
 * every piece of the source reaches the output through escapeHtml, the only tags are the fixed ones
 * written here, and link targets are http(s) URLs that the patterns themselves require (escaped in
 * their attribute). Patterns only use negated classes or single-character look-aheads, so a long or
 * hostile text renders in linear time; nesting stops at MAX_DEPTH.
 */
import { escapeHtml } from '../kit/html';

export interface MarkdownContext {
  /** A user's display name for `<@id>`, or null (shown as @unknown-user). */
  user(id: string): string | null;
  /** A role's name and colour for `<@&id>`, or null. */
  role(id: string): { name: string; color: number } | null;
  /** A channel's name and link for `<#id>`, or null. */
  channel(id: string): { name: string; href: string } | null;
  /** Where a custom emoji's picture is. */
  emojiSrc(id: string, animated: boolean): string;
}

const MAX_DEPTH = 4;

const INLINE = new RegExp(
  [
    /`([^`\n]+)`/.source, // 1 inline code
    /\*\*((?:[^*]|\*(?!\*))+?)\*\*/.source, // 2 bold
    /__((?:[^_]|_(?!_))+?)__/.source, // 3 underline
    /\*([^*\n]+?)\*/.source, // 4 italic
    /\b_([^_\n]+?)_\b/.source, // 5 italic
    /~~((?:[^~]|~(?!~))+?)~~/.source, // 6 strikethrough
    /\|\|((?:[^|]|\|(?!\|))+?)\|\|/.source, // 7 spoiler
    /\[([^[\]\n]{1,256})\]\((https?:\/\/[^\s()<>]{1,2048})\)/.source, // 8 label, 9 url: masked link
    /<(https?:\/\/[^\s<>]{1,2048})>/.source, // 10 link without preview
    /(https?:\/\/[^\s<>]{0,2047}[^\s<>.,;:!?"')\]])/.source, // 11 bare link
    /<@!?(\d{1,20})>/.source, // 12 user mention
    /<@&(\d{1,20})>/.source, // 13 role mention
    /<#(\d{1,20})>/.source, // 14 channel mention
    /<(a?):(\w{2,32}):(\d{1,20})>/.source, // 15 animated, 16 name, 17 id: custom emoji
    /<t:(-?\d{1,13})(?::([tTdDfFR]))?>/.source, // 18 seconds, 19 style: timestamp
    /@(everyone|here)\b/.source, // 20
  ].join('|'),
  'g',
);

function link(url: string, label: string): string {
  return `<a href="${escapeHtml(url)}" rel="noopener noreferrer nofollow" target="_blank">${label}</a>`;
}

function hex(color: number): string {
  return color.toString(16).padStart(6, '0');
}

/** `<t:…>`: a fixed, locale-free rendering (the page runs no script). */
function timestampText(seconds: number, style: string | undefined): string | null {
  const ms = seconds * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 16);
  switch (style) {
    case 't':
      return `${time} UTC`;
    case 'T':
      return `${iso.slice(11, 19)} UTC`;
    case 'd':
    case 'D':
      return date;
    case 'R':
      return `${date} ${time} UTC`;
    default:
      return `${date} ${time} UTC`;
  }
}

/** Inline markdown of one line or paragraph. */
export function renderInline(text: string, ctx: MarkdownContext, depth = 0): string {
  if (depth >= MAX_DEPTH) return escapeHtml(text);
  const inner = (s: string) => renderInline(s, ctx, depth + 1);
  let out = '';
  let last = 0;
  // A fresh RegExp per call: the recursion must not share lastIndex.
  const re = new RegExp(INLINE.source, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out += escapeHtml(text.slice(last, m.index));
    last = m.index + m[0].length;
    const match = m;
    if (match[1] !== undefined) out += `<code>${escapeHtml(match[1])}</code>`;
    else if (match[2] !== undefined) out += `<strong>${inner(match[2])}</strong>`;
    else if (match[3] !== undefined) out += `<u>${inner(match[3])}</u>`;
    else if (match[4] !== undefined) out += `<em>${inner(match[4])}</em>`;
    else if (match[5] !== undefined) out += `<em>${inner(match[5])}</em>`;
    else if (match[6] !== undefined) out += `<s>${inner(match[6])}</s>`;
    else if (match[7] !== undefined) out += `<span class="spoiler">${inner(match[7])}</span>`;
    else if (match[8] !== undefined && match[9] !== undefined) out += link(match[9], inner(match[8]));
    else if (match[10] !== undefined) out += link(match[10], escapeHtml(match[10]));
    else if (match[11] !== undefined) out += link(match[11], escapeHtml(match[11]));
    else if (match[12] !== undefined) {
      const name = ctx.user(match[12]);
      out += `<span class="mention">@${escapeHtml(name ?? 'unknown-user')}</span>`;
    } else if (match[13] !== undefined) {
      const role = ctx.role(match[13]);
      out += role
        ? `<span class="mention${role.color ? ` k-${hex(role.color)}` : ''}">@${escapeHtml(role.name)}</span>`
        : '<span class="mention">@unknown-role</span>';
    } else if (match[14] !== undefined) {
      const channel = ctx.channel(match[14]);
      out += channel ? `<a class="mention" href="${escapeHtml(channel.href)}">#${escapeHtml(channel.name)}</a>` : '<span class="mention">#unknown</span>';
    } else if (match[16] !== undefined && match[17] !== undefined) {
      out += `<img class="emoji" src="${escapeHtml(ctx.emojiSrc(match[17], match[15] === 'a'))}" alt=":${escapeHtml(match[16])}:" title=":${escapeHtml(match[16])}:" width="22" height="22">`;
    } else if (match[18] !== undefined) {
      const shown = timestampText(Number(match[18]), match[19]);
      out += shown === null ? escapeHtml(match[0]) : `<time class="stamp">${escapeHtml(shown)}</time>`;
    } else if (match[20] !== undefined) out += `<span class="mention">@${escapeHtml(match[20])}</span>`;
    else out += escapeHtml(match[0]);
  }
  return out + escapeHtml(text.slice(last));
}

/** Lines of text (no code block): headings, subtext, quotes, lists and plain lines. */
function renderLines(text: string, ctx: MarkdownContext, depth: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let list: string[] = [];
  let quote: string[] = [];
  let plain: string[] = [];
  const flushPlain = () => {
    if (plain.length) out.push(plain.map((l) => renderInline(l, ctx, depth)).join('<br>'));
    plain = [];
  };
  const flushList = () => {
    if (list.length) out.push(`<ul>${list.map((l) => `<li>${renderInline(l, ctx, depth)}</li>`).join('')}</ul>`);
    list = [];
  };
  const flushQuote = () => {
    if (quote.length) out.push(`<blockquote>${renderLines(quote.join('\n'), ctx, depth + 1)}</blockquote>`);
    quote = [];
  };
  const flushAll = () => {
    flushPlain();
    flushList();
    flushQuote();
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (depth < MAX_DEPTH && line.startsWith('>>> ')) {
      flushAll();
      quote = [line.slice(4), ...lines.slice(i + 1)];
      break;
    }
    const match = depth < MAX_DEPTH ? /^> ?(.*)$/.exec(line) : null;
    if (match) {
      flushPlain();
      flushList();
      quote.push(match[1]!);
      continue;
    }
    flushQuote();
    const heading = /^(#{1,3}) (.+)$/.exec(line);
    const sub = /^-# (.+)$/.exec(line);
    const item = /^\s*[-*] (.+)$/.exec(line);
    if (heading) {
      flushPlain();
      flushList();
      out.push(`<div class="md-h${heading[1]!.length}">${renderInline(heading[2]!, ctx, depth)}</div>`);
    } else if (sub) {
      flushPlain();
      flushList();
      out.push(`<div class="md-sub">${renderInline(sub[1]!, ctx, depth)}</div>`);
    } else if (item) {
      flushPlain();
      list.push(item[1]!);
    } else {
      flushList();
      plain.push(line);
    }
  }
  flushAll();
  return out.join('');
}

/** Discord markdown (code blocks, quotes, headings, lists, inline styles, mentions, emoji, links) as safe HTML. */
export function renderMarkdown(text: string, ctx: MarkdownContext, depth = 0): string {
  const out: string[] = [];
  const fence = /```(?:([A-Za-z0-9_+-]{1,20})\n)?([^`]*(?:`(?!``)[^`]*)*)```/g;
  let last = 0;
  for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
    if (m.index > last) out.push(renderLines(text.slice(last, m.index).replace(/^\n|\n$/g, ''), ctx, depth));
    out.push(`<pre><code${m[1] ? ` data-lang="${escapeHtml(m[1])}"` : ''}>${escapeHtml(m[2]!.replace(/^\n/, ''))}</code></pre>`);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(renderLines(text.slice(last).replace(/^\n/, ''), ctx, depth));
  return out.join('');
}

/** Colour classes (`k-rrggbb`) the rendered HTML may use for these colours. */
export function colourCss(colours: Iterable<number>): string {
  return [...new Set(colours)]
    .filter((c) => Number.isInteger(c) && c > 0 && c <= 0xffffff)
    .map((c) => `.k-${hex(c)}{--k:#${hex(c)}}`)
    .join('');
}

export { hex as colourHex };

/**
 * Discord's markdown, parsed to a small tree that `markdown-view.tsx` renders as React elements (never
 * as an HTML string: every piece of the source reaches the page as a text node). Our own parser:
 * Discord's subset only (blocks: code, quotes, headings, subtext, lists; inline: emphasis, spoilers,
 * code, links, mentions, emojis, timestamps, escapes), with simple-markdown's inline rules so
 * `***x***` and `snake_case_names` come out as in Discord. Patterns are sticky and check for a closing
 * delimiter before they run, and nesting stops at MAX_DEPTH, so a hostile 4,096-character text parses fast.
 */

export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'em' | 'underline' | 'strike' | 'spoiler'; children: InlineNode[] }
  | { type: 'code'; text: string }
  | { type: 'link'; url: string; children: InlineNode[] }
  | { type: 'url'; url: string }
  | { type: 'user' | 'role' | 'channel'; id: string }
  | { type: 'emoji'; id: string; name: string; animated: boolean }
  | { type: 'timestamp'; seconds: number; style: string }
  | { type: 'everyone' | 'here' };

export type BlockNode =
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'heading'; level: 1 | 2 | 3; children: InlineNode[] }
  | { type: 'subtext'; children: InlineNode[] }
  | { type: 'codeBlock'; lang: string | null; text: string }
  | { type: 'quote'; children: BlockNode[] }
  | { type: 'list'; ordered: boolean; start: number; items: BlockNode[][] };

interface ParseOptions {
  /** Masked links `[text](url)`: embeds and webhooks have them, a user's message does not. Default true. */
  maskedLinks?: boolean;
}

const MAX_DEPTH = 8;

/* ---------------------------------------------------------------------------------------------- *
 * Inline
 * ---------------------------------------------------------------------------------------------- */

interface Rule {
  /** A quick test on the character at the position (skips the pattern when it cannot match). */
  first: string;
  /** Anchored (sticky) pattern. */
  pattern: RegExp;
  /** A closing delimiter the pattern needs after its opening one (skips it when there is none). */
  closer?: string;
  build: (match: RegExpExecArray, inner: (text: string) => InlineNode[]) => InlineNode | null;
}

const ID = String.raw`\d{1,20}`;

const RULES: Rule[] = [
  { first: '\\', pattern: /\\([^0-9A-Za-z\s])/y, build: (m) => ({ type: 'text', text: m[1]! }) },
  { first: '`', pattern: /(`+)([\s\S]*?[^`])\1(?!`)/y, build: (m) => ({ type: 'code', text: m[2]!.replace(/^ (.*) $/s, '$1') }) },
  { first: '<', pattern: /<(https?:\/\/[^\s<>]+)>/y, build: (m) => ({ type: 'url', url: m[1]! }) },
  { first: '<', pattern: new RegExp(`<@!?(${ID})>`, 'y'), build: (m) => ({ type: 'user', id: m[1]! }) },
  { first: '<', pattern: new RegExp(`<@&(${ID})>`, 'y'), build: (m) => ({ type: 'role', id: m[1]! }) },
  { first: '<', pattern: new RegExp(`<#(${ID})>`, 'y'), build: (m) => ({ type: 'channel', id: m[1]! }) },
  {
    first: '<',
    pattern: new RegExp(`<(a?):(\\w{2,32}):(${ID})>`, 'y'),
    build: (m) => ({ type: 'emoji', animated: m[1] === 'a', name: m[2]!, id: m[3]! }),
  },
  {
    first: '<',
    pattern: /<t:(-?\d{1,13})(?::([tTdDfFR]))?>/y,
    build: (m) => ({ type: 'timestamp', seconds: Number(m[1]), style: m[2] ?? 'f' }),
  },
  {
    first: '[',
    pattern: /\[((?:\\[\s\S]|[^\\[\]\n]){1,256})\]\(<?(https?:\/\/[^\s()<>]{1,2048})>?\)/y,
    build: (m, inner) => ({ type: 'link', url: m[2]!, children: inner(m[1]!) }),
  },
  { first: 'h', pattern: /https?:\/\/[^\s<]+[^<.,:;"')\]\s]/y, build: (m) => ({ type: 'url', url: m[0] }) },
  { first: '@', pattern: /@(everyone|here)\b/y, build: (m) => ({ type: m[1] as 'everyone' | 'here' }) },
  { first: '|', closer: '||', pattern: /\|\|([\s\S]+?)\|\|/y, build: (m, inner) => ({ type: 'spoiler', children: inner(m[1]!) }) },
  { first: '*', closer: '**', pattern: /\*\*((?:\\[\s\S]|[^\\])+?)\*\*(?!\*)/y, build: (m, inner) => ({ type: 'strong', children: inner(m[1]!) }) },
  { first: '_', closer: '__', pattern: /__((?:\\[\s\S]|[^\\])+?)__(?!_)/y, build: (m, inner) => ({ type: 'underline', children: inner(m[1]!) }) },
  {
    first: '*',
    closer: '*',
    pattern: /\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s*\\]|\*\*)|[^\s*\\])+?)\*(?!\*)/y,
    build: (m, inner) => ({ type: 'em', children: inner(m[1]!) }),
  },
  { first: '_', closer: '_', pattern: /\b_((?:__|\\[\s\S]|[^\\_])+?)_\b/y, build: (m, inner) => ({ type: 'em', children: inner(m[1]!) }) },
  { first: '~', closer: '~~', pattern: /~~([\s\S]+?)~~/y, build: (m, inner) => ({ type: 'strike', children: inner(m[1]!) }) },
];

/** Characters that may start a rule: text runs up to the next of them. */
const SPECIAL = /[\\`<[h@|*_~]/g;

function pushText(out: InlineNode[], text: string): void {
  const last = out.at(-1);
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** Inline markdown of `text`. */
export function parseInline(text: string, options: ParseOptions = {}, depth = 0): InlineNode[] {
  if (depth >= MAX_DEPTH) return text === '' ? [] : [{ type: 'text', text }];
  const masked = options.maskedLinks ?? true;
  const inner = (s: string) => parseInline(s, options, depth + 1);
  const out: InlineNode[] = [];
  let pos = 0;
  while (pos < text.length) {
    const ch = text[pos]!;
    let matched = false;
    for (const rule of RULES) {
      if (rule.first !== ch) continue;
      if (!masked && rule.first === '[') continue;
      if (rule.closer && text.indexOf(rule.closer, pos + rule.closer.length) === -1) continue;
      rule.pattern.lastIndex = pos;
      const match = rule.pattern.exec(text);
      if (!match) continue;
      const node = rule.build(match, inner);
      if (!node) continue;
      if (node.type === 'text') pushText(out, node.text);
      else out.push(node);
      pos += match[0].length;
      matched = true;
      break;
    }
    if (matched) continue;
    // Plain text up to the next character that could start a rule (at least one character).
    SPECIAL.lastIndex = pos + 1;
    const next = SPECIAL.exec(text);
    const end = next ? next.index : text.length;
    pushText(out, text.slice(pos, end));
    pos = end;
  }
  return out;
}

/* ---------------------------------------------------------------------------------------------- *
 * Blocks
 * ---------------------------------------------------------------------------------------------- */

const CODE_BLOCK = /```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][\s\S]*?)\n*```/gi;
const HEADING = /^(#{1,3}) +(\S.*)$/;
const SUBTEXT = /^-# +(\S.*)$/;
const LIST_ITEM = /^( *)([-*]|\d{1,9}\.) +(\S.*)$/;
const QUOTE = /^> (.*)$|^>$/;
const QUOTE_REST = /^>>> ?([\s\S]*)$/;

interface ListLine {
  indent: number;
  ordered: boolean;
  number: number;
  text: string;
}

function listLine(line: string): ListLine | null {
  const match = LIST_ITEM.exec(line);
  if (!match) return null;
  const marker = match[2]!;
  const ordered = marker.endsWith('.');
  return { indent: match[1]!.length, ordered, number: ordered ? Number(marker.slice(0, -1)) : 1, text: match[3]! };
}

/** Lines of one list (consecutive list lines), nested by indentation. */
function buildList(lines: ListLine[], options: ParseOptions, depth: number): BlockNode {
  const first = lines[0]!;
  const items: BlockNode[][] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const item: BlockNode[] = [{ type: 'paragraph', children: parseInline(line.text, options, depth) }];
    let end = i + 1;
    while (end < lines.length && lines[end]!.indent > first.indent) end++;
    if (end > i + 1 && depth < MAX_DEPTH) item.push(buildList(lines.slice(i + 1, end), options, depth + 1));
    items.push(item);
    i = end;
  }
  return { type: 'list', ordered: first.ordered, start: first.number, items };
}

/** Blocks of a text without code blocks. */
function parseLines(text: string, options: ParseOptions, depth: number, inQuote: boolean): BlockNode[] {
  const blocks: BlockNode[] = [];
  const paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const joined = paragraph.join('\n');
    paragraph.length = 0;
    if (joined !== '') blocks.push({ type: 'paragraph', children: parseInline(joined, options, depth) });
  };
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!inQuote && depth < MAX_DEPTH) {
      const rest = QUOTE_REST.exec(line);
      if (rest) {
        flush();
        const body = [rest[1]!, ...lines.slice(i + 1)].join('\n');
        blocks.push({ type: 'quote', children: parseLines(body, options, depth + 1, true) });
        return blocks;
      }
      if (QUOTE.test(line)) {
        flush();
        const quoted: string[] = [];
        while (i < lines.length) {
          const quote = QUOTE.exec(lines[i]!);
          if (!quote) break;
          quoted.push(quote[1] ?? '');
          i++;
        }
        blocks.push({ type: 'quote', children: parseLines(quoted.join('\n'), options, depth + 1, true) });
        continue;
      }
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1]!.length as 1 | 2 | 3, children: parseInline(heading[2]!, options, depth) });
      i++;
      continue;
    }
    const subtext = SUBTEXT.exec(line);
    if (subtext) {
      flush();
      blocks.push({ type: 'subtext', children: parseInline(subtext[1]!, options, depth) });
      i++;
      continue;
    }
    const item = listLine(line);
    if (item && item.indent === 0) {
      flush();
      const items: ListLine[] = [item];
      i++;
      while (i < lines.length) {
        const next = listLine(lines[i]!);
        // A nested item, or a sibling of the same kind (a bullet after a numbered item starts a new list).
        if (!next || (next.indent === 0 && next.ordered !== item.ordered)) break;
        items.push(next);
        i++;
      }
      blocks.push(buildList(items, options, depth));
      continue;
    }
    paragraph.push(line);
    i++;
  }
  flush();
  return blocks;
}

/** The blocks of a Discord markdown text (an embed description, a message's content). */
export function parseMarkdown(text: string, options: ParseOptions = {}): BlockNode[] {
  const blocks: BlockNode[] = [];
  let last = 0;
  CODE_BLOCK.lastIndex = 0;
  for (let block = CODE_BLOCK.exec(text); block; block = CODE_BLOCK.exec(text)) {
    blocks.push(...parseLines(trimBlockEdges(text.slice(last, block.index)), options, 0, false));
    blocks.push({ type: 'codeBlock', lang: block[1] ?? null, text: block[2]! });
    last = block.index + block[0].length;
  }
  blocks.push(...parseLines(last === 0 ? text : trimBlockEdges(text.slice(last)), options, 0, false));
  return blocks;
}

/** The newline next to a code block belongs to the block (Discord shows no empty line there). */
function trimBlockEdges(text: string): string {
  return text.replace(/^\n/, '').replace(/\n$/, '');
}

/** The text of inline nodes without formatting (a select option, a tooltip). */
export function plainText(nodes: InlineNode[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'code':
          return node.text;
        case 'url':
          return node.url;
        case 'strong':
        case 'em':
        case 'underline':
        case 'strike':
        case 'spoiler':
        case 'link':
          return plainText(node.children);
        case 'emoji':
          return `:${node.name}:`;
        case 'everyone':
        case 'here':
          return `@${node.type}`;
        default:
          return '';
      }
    })
    .join('');
}

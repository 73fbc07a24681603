/**
 * The v2 viewer's model: who is who, the plain text of each message for the in-page search, and
 * the matches of a query. Pure functions (tested without a browser; `bench/` may time them).
 */
import type { TranscriptMessage, TranscriptV2 } from '@tickety/api-contract';

/** A message's searchable text: its content, its embeds' words (author, title, description, fields, footer) and files' names, lower-cased. */
export function searchText(message: TranscriptMessage): string {
  let text = message.content;
  for (const e of message.embeds) text += ` ${e.author?.name ?? ''} ${e.title ?? ''} ${e.description ?? ''} ${e.fields.map((f) => `${f.name} ${f.value}`).join(' ')} ${e.footer?.text ?? ''}`;
  for (const a of message.attachments) text += ` ${a.filename}`;
  return text.toLowerCase();
}

/** The index: one lower-cased text per message, built once per transcript. */
export function buildIndex(transcript: TranscriptV2): string[] {
  return transcript.messages.map(searchText);
}

/** The positions of the messages that contain `query` (case-insensitive), in order. */
export function search(index: readonly string[], query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const hits: number[] = [];
  for (let i = 0; i < index.length; i++) if (index[i]!.includes(needle)) hits.push(i);
  return hits;
}

/** Finds a message by id (a reply's original, a `#m-<id>` link). */
export interface MessageLookup {
  get(id: string): TranscriptMessage | undefined;
}

/**
 * The messages by id: a scan until `build()` has made the map (after the first paint, when the
 * browser is idle), so 50,000 messages cost nothing before the first rows show.
 */
export class MessageIndex implements MessageLookup {
  private positions: Map<string, number> | null = null;
  constructor(readonly messages: readonly TranscriptMessage[]) {}
  build(): void {
    if (this.positions) return;
    const positions = new Map<string, number>();
    for (let i = 0; i < this.messages.length; i++) positions.set(this.messages[i]!.id, i);
    this.positions = positions;
  }
  /** The message's position, or -1. */
  indexOf(id: string): number {
    return this.positions ? (this.positions.get(id) ?? -1) : this.messages.findIndex((m) => m.id === id);
  }
  get(id: string): TranscriptMessage | undefined {
    const position = this.indexOf(id);
    return position >= 0 ? this.messages[position] : undefined;
  }
}

/** Whether a message starts a new group (another author, a system line, a reply, or 7 minutes later), as Discord groups them. */
export function startsGroup(messages: readonly TranscriptMessage[], index: number): boolean {
  const message = messages[index]!;
  const prev = messages[index - 1];
  if (!prev || message.system || prev.system || message.replyTo) return true;
  return prev.authorId !== message.authorId || Date.parse(message.createdAt) - Date.parse(prev.createdAt) > 7 * 60_000;
}

/** The address of a file the API copied: `/api/transcripts/v2/<server>/<file>/attachments/<id>`, nothing else. */
const OWN_FILE = /^\/api\/transcripts\/v2\/[1-9]\d{16,19}\/[A-Za-z0-9_-]{1,64}\/attachments\/[1-9]\d{16,19}$/;

/**
 * Only our API's copies are loaded as pictures; anything else is a link (no request to another host).
 * The whole address must have the copies' shape: a bot's `/api/transcripts/v2/../..` must not make
 * the viewer's download fetch another of the API's addresses with the viewer's session.
 */
export function isOwnFile(url: string): boolean {
  return OWN_FILE.test(url);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The name of the highlight the search paints (`::highlight(tk-transcript-match)` in styles.css). */
const MATCH_HIGHLIGHT = 'tk-transcript-match';

/**
 * Marks every occurrence of `query` in the text under `root` with the CSS Custom Highlight API;
 * an empty query (or no root) clears it. Where the browser lacks the API, the matching messages are
 * still tinted by the viewer.
 */
export function highlightMatches(root: Element | null, query: string): void {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
  const Highlight = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  if (!registry || !Highlight) return;
  const needle = query.trim().toLowerCase();
  if (!root || needle === '') {
    registry.delete(MATCH_HIGHLIGHT);
    return;
  }
  const ranges: Range[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    if (text.length !== (node.nodeValue ?? '').length) continue;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = root.ownerDocument.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  registry.set(MATCH_HIGHLIGHT, new Highlight(...ranges));
}

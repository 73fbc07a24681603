/**
 * The v2 viewer's model: who is who, the plain text of each message for the in-page search, and
 * the matches of a query. Pure functions (tested without a browser; `bench/` may time them).
 */
import type { TranscriptMessage, TranscriptV2 } from '@tickety/api-contract';
import type { MessageLookup } from '../../../components/discord/message-model';

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

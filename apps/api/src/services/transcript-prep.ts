import { gzipSync } from 'node:zlib';
import { TRANSCRIPT_HEAD_MESSAGES, type TranscriptHead, type TranscriptV2 } from '@tickety/api-contract';

/**
 * The CPU-heavy half of storing a transcript (up to 64 MB of JSON): what the upload says about
 * itself, and the bytes to store once its attachments are copied. Pure functions, no I/O: they run in
 * the body worker (lib/body-worker.ts), off the event loop; services/transcripts.ts does the rest.
 */

/** The list's text filter reads at most this much of a transcript's text. */
export const SEARCH_TEXT_MAX = 1024 * 1024;

/** An attachment the upload names. */
export interface NamedAttachment {
  id: string;
  url: string;
  filename: string;
  contentType: string | null;
}

/** What the upload says about itself: enough to check it and copy its attachments. */
export interface TranscriptOutline {
  serverId: string;
  messageCount: number;
  /** Every attachment (in message order; an id may repeat). */
  attachments: NamedAttachment[];
}

/** What is stored: the transcript's row values and its compressed JSON and head. */
export interface TranscriptArtifacts {
  jsonBytes: number;
  content: Uint8Array;
  head: Uint8Array;
  messageCount: number;
  searchText: string;
  ticket: TranscriptV2['ticket'];
  openerName: string;
  closerName: string | null;
}

/** A copied attachment's new address and size. */
export type CopiedAttachments = ReadonlyMap<string, { path: string; size: number }>;

/**
 * A transcript's text as a PostgreSQL `text` value: without NUL characters, which `text` cannot
 * hold (the upload would fail as a whole). The JSON the viewer reads is stored as it came.
 */
export function asText(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

/** A transcript's head: its first messages and how many it has. */
export function headOf(transcript: TranscriptV2): TranscriptHead {
  return { ...transcript, messages: transcript.messages.slice(0, TRANSCRIPT_HEAD_MESSAGES), totalMessages: transcript.messages.length };
}

export function outlineOf(transcript: TranscriptV2): TranscriptOutline {
  return {
    serverId: transcript.server.id,
    messageCount: transcript.messages.length,
    attachments: transcript.messages.flatMap((m) => m.attachments.map((a) => ({ id: a.id, url: a.url, filename: a.filename, contentType: a.contentType ?? null }))),
  };
}

/** Points the transcript at its copied attachments, then makes what is stored. */
export function artifactsOf(transcript: TranscriptV2, copies: CopiedAttachments): TranscriptArtifacts {
  for (const m of transcript.messages) {
    for (const a of m.attachments) {
      const copy = copies.get(a.id);
      if (copy) {
        a.url = copy.path;
        a.size = copy.size;
      }
    }
  }
  const json = Buffer.from(JSON.stringify(transcript));
  const users = new Map(transcript.users.map((u) => [u.id, asText(u.displayName ?? u.username)]));
  const ticket = transcript.ticket;
  let searchText = '';
  for (const m of transcript.messages) {
    if (searchText.length >= SEARCH_TEXT_MAX) break;
    searchText += `${m.content}\n`;
    // Embeds as the viewer shows them: a welcome embed's form answers are in its fields.
    for (const e of m.embeds) searchText += `${e.author?.name ?? ''} ${e.title ?? ''} ${e.description ?? ''} ${e.fields.map((f) => `${f.name} ${f.value}`).join(' ')} ${e.footer?.text ?? ''}\n`;
  }
  return {
    jsonBytes: json.length,
    content: gzipSync(json),
    head: gzipSync(Buffer.from(JSON.stringify(headOf(transcript)))),
    messageCount: transcript.messages.length,
    searchText: asText(searchText).slice(0, SEARCH_TEXT_MAX).toLowerCase(),
    ticket,
    openerName: users.get(ticket.openerId) ?? ticket.openerId,
    closerName: ticket.closedBy ? (users.get(ticket.closedBy) ?? ticket.closedBy) : null,
  };
}

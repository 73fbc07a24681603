/**
 * What the Discord-like conversation needs besides markup (the transcript viewer and the Tickets
 * page): Discord's grouping of messages, the lookup of a reply's original, and which file addresses
 * may load as pictures. Pure functions.
 */
import type { TranscriptMessage } from '@tickety/api-contract';

/** Finds a message by id (a reply's original, a `#m-<id>` link). */
export interface MessageLookup {
  get(id: string): TranscriptMessage | undefined;
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

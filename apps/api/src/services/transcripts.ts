import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import {
  SNOWFLAKE_PATTERN,
  TRANSCRIPT_ATTACHMENT_MAX_BYTES,
  TRANSCRIPT_ATTACHMENTS_MAX,
  TRANSCRIPT_ATTACHMENTS_TOTAL_MAX_BYTES,
  TRANSCRIPT_LIST_PAGE,
  type TranscriptList,
  type TranscriptListQuery,
  type TranscriptStored,
  type TranscriptSummary,
  type TranscriptV2,
} from '@tickety/api-contract';
import type { Db, Queryable } from '../db/driver';
import { type BlobStore, BlobStoreError } from '../lib/blob-store';
import { type Clock, iso, toMs } from '../lib/clock';
import type { FetchLike } from '../lib/discord';
import type { TranscriptDraft } from '../lib/body-worker';
import { ApiHttpError } from '../lib/errors';
import { artifactsOf, asText, headOf, type NamedAttachment, outlineOf } from './transcript-prep';

/** A transcript given as an object (tests): prepared in process. */
function inProcessDraft(transcript: TranscriptV2): TranscriptDraft {
  return { outline: outlineOf(transcript), finish: async (copies) => artifactsOf(transcript, copies), discard: () => undefined };
}

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

/** Attachments copied (and blobs written) at once during an upload. */
const COPY_CONCURRENCY = 4;

/** Blob deletions left from earlier (the store was down) retried after each change. */
const SWEEP_BATCH = 200;

/** The blob keys of a transcript stored under `prefix` (`transcripts/<server>/<file id>/<upload id>`). */
export const blobKeys = {
  content: (prefix: string) => `${prefix}/content.json.gz`,
  head: (prefix: string) => `${prefix}/head.json.gz`,
  attachment: (prefix: string, attachmentId: string) => `${prefix}/attachments/${attachmentId}`,
};

function keysOf(prefix: string, attachmentIds: readonly string[]): string[] {
  return [blobKeys.content(prefix), blobKeys.head(prefix), ...attachmentIds.map((id) => blobKeys.attachment(prefix, id))];
}

/** A blob store that failed as the API's answer (503 code 1031); anything else (the database) as it is. */
function storageError(error: unknown, message: string): unknown {
  return error instanceof BlobStoreError ? new ApiHttpError('STORAGE_UNAVAILABLE', { retryAfter: 5, message, cause: error }) : error;
}

/** Runs `work` on every item, at most `limit` at once; the first failure fails it (after the running ones end). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failed = lanes.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A stored transcript's row as the access check needs it. */
export interface TranscriptRow {
  guildId: string;
  fileId: string;
  botId: string;
  openerId: string;
  panelId: string | null;
  number: number;
  closedAt: string;
}

/** A copied attachment. */
interface StoredAttachment {
  filename: string;
  contentType: string;
  size: number;
  content: Buffer;
}

/** The API's address of a copied attachment (the viewer and the downloaded HTML load it from here). */

function attachmentPath(guildId: string, fileId: string, attachmentId: string): string {
  return `/api/transcripts/v2/${guildId}/${fileId}/attachments/${attachmentId}`;
}

/**
 * Whether `url` is an attachment on Discord's CDN: same origin as `cdnBase` and, once normalised (no
 * `..` escaping it), under its `/attachments/` path. Nothing else is ever fetched.
 */
export function isCdnAttachment(url: string, cdnBase: string): boolean {
  let parsed: URL;
  let base: URL;
  try {
    parsed = new URL(url);
    base = new URL(cdnBase);
  } catch {
    return false;
  }
  const prefix = `${base.pathname.replace(/\/+$/, '')}/attachments/`;
  return parsed.origin === base.origin && parsed.pathname.startsWith(prefix) && !/%2e|%2f|%5c/i.test(parsed.pathname) && parsed.username === '' && parsed.password === '';
}

/** A content type we store and serve for an attachment: a plain `type/subtype`, else octet-stream. */
function safeContentType(value: string | null): string {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9.+-]{0,63}\/[a-z0-9][a-z0-9.+-]{0,63}$/.test(type) ? type : 'application/octet-stream';
}

interface ListRow {
  guild_id: string;
  guild_name: string | null;
  file_id: string;
  ticket_id: string;
  number: number;
  panel_id: string | null;
  opener_id: string;
  opener_name: string;
  closed_by: string | null;
  closer_name: string | null;
  opened_at: unknown;
  closed_at: unknown;
  message_count: number;
  rating: number | null;
}

function isoOf(value: unknown): string | null {
  const ms = toMs(value);
  return ms === null ? null : iso(ms);
}

function toSummary(row: ListRow): TranscriptSummary {
  return {
    serverId: row.guild_id,
    serverName: row.guild_name ?? row.guild_id,
    fileId: row.file_id,
    ticketId: row.ticket_id,
    number: Number(row.number),
    panelId: row.panel_id,
    opener: { id: row.opener_id, name: row.opener_name },
    closedBy: row.closed_by ? { id: row.closed_by, name: row.closer_name ?? row.closed_by } : null,
    openedAt: isoOf(row.opened_at),
    closedAt: isoOf(row.closed_at),
    messages: Number(row.message_count),
    rating: row.rating === null ? null : Number(row.rating),
  };
}

/** Cursor of the lists: the last row's close time and file id (newest first). */
function encodeCursor(row: ListRow): string {
  const at = isoOf(row.closed_at) ?? '';
  return Buffer.from(`${at}|${row.guild_id}|${row.file_id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; guildId: string; fileId: string } {
  const [at, guildId, fileId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !guildId || !fileId || Number.isNaN(Date.parse(at)) || !SNOWFLAKE_PATTERN.test(guildId) || !/^[A-Za-z0-9_-]{1,64}$/.test(fileId)) {
    throw new ApiHttpError('VALIDATION_FAILED', { message: 'cursor: not a cursor this list gave out.' });
  }
  return { at: new Date(at).toISOString(), guildId, fileId };
}

const LIST_COLUMNS = `t.guild_id, g.name AS guild_name, t.file_id, t.ticket_id, t.number, t.panel_id, t.opener_id, t.opener_name,
  t.closed_by, t.closer_name, t.opened_at, t.closed_at, t.message_count, k.rating`;
const LIST_FROM = `transcripts t
  LEFT JOIN guilds g ON g.id = t.guild_id
  LEFT JOIN tickets k ON k.bot_id = t.bot_id AND k.guild_id = t.guild_id AND k.ticket_id = t.ticket_id`;

type Warn = (fields: object, msg: string) => void;

/**
 * Transcripts (v2): stored compressed with their attachments copied; read, listed, and every view
 * logged. The rows (what lists and access checks read) are in the database; the bytes (the gzip, its
 * head, the attachments) in the blob store under the row's `blob_prefix`. Rows stored before the blob
 * store keep their bytes in their own columns and are read from there.
 */
export class Transcripts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cdnBase: string,
    private readonly fetchCdn: FetchLike,
    private readonly blobs: BlobStore,
    private readonly warn: Warn = () => undefined,
  ) {}

  /**
   * Stores a validated transcript for `botId` (a second upload of the same id by the same bot
   * replaces it): one the body worker read (lib/body-worker.ts, the bot API), or an object (tests).
   * Every attachment on Discord's CDN is copied first; one that cannot be copied refuses the upload
   * (nothing stored) so the bot sends it again while its links work.
   */
  async store(botId: string, guildId: string, fileId: string, input: TranscriptV2 | TranscriptDraft): Promise<TranscriptStored> {
    const draft = 'outline' in input ? input : inProcessDraft(input);
    try {
      return await this.#store(botId, guildId, fileId, draft);
    } finally {
      draft.discard();
    }
  }

  async #store(botId: string, guildId: string, fileId: string, draft: TranscriptDraft): Promise<TranscriptStored> {
    const { outline } = draft;
    if (outline.serverId !== guildId) {
      throw new ApiHttpError('VALIDATION_FAILED', { message: `server.id (${outline.serverId}) is not the server in the address (${guildId}).` });
    }
    // Attachments come as links (Discord's CDN, copied below; anything else stays a link, or text when
    // it is no http(s) link). An address on this service (a path) would make viewers fetch another
    // transcript's files: refused.
    const relative = outline.attachments.find((a) => /^[/\\]/.test(a.url.trim()));
    if (relative) {
      throw new ApiHttpError('VALIDATION_FAILED', { message: `The attachment ${relative.id} has the address "${relative.url.slice(0, 100)}", a path on this service: send Discord's CDN link. Nothing was stored.` });
    }
    // Checked early (no copying for a refused upload) and again in the transaction below.
    const owner = await this.db.query<{ bot_id: string }>('SELECT bot_id FROM transcripts WHERE guild_id = $1 AND file_id = $2', [guildId, fileId]);
    if (owner.rows[0] && owner.rows[0].bot_id !== botId) throw new ApiHttpError('TRANSCRIPT_CONFLICT');

    const copies = await this.copyAttachments(outline.attachments);
    const stored = await draft.finish(new Map([...copies].map(([id, a]) => [id, { path: attachmentPath(guildId, fileId, id), size: a.size }])));
    const ticket = stored.ticket;
    // The bytes first, under a prefix of this upload's own: a failed upload never touches the blobs
    // of the transcript it would replace, and what it wrote is removed again.
    const prefix = `transcripts/${guildId}/${fileId}/${randomUUID()}`;
    const written: string[] = [];
    const put = async (key: string, bytes: Uint8Array, contentType: string) => {
      await this.blobs.put(key, bytes, contentType);
      written.push(key);
    };
    try {
      await put(blobKeys.content(prefix), stored.content, 'application/gzip');
      await put(blobKeys.head(prefix), stored.head, 'application/gzip');
      await eachLimited([...copies], COPY_CONCURRENCY, ([id, a]) => put(blobKeys.attachment(prefix, id), a.content, a.contentType));
    } catch (error) {
      await this.#forget(written);
      throw storageError(error, 'Transcript storage is not answering, so the transcript was not stored (nothing was changed). Send it again shortly.');
    }
    const row = [
      guildId,
      fileId,
      botId,
      ticket.id,
      ticket.number,
      ticket.panelId,
      ticket.openerId,
      stored.openerName,
      ticket.closedBy,
      stored.closerName,
      new Date(ticket.openedAt).toISOString(),
      new Date(ticket.closedAt).toISOString(),
      stored.messageCount,
      stored.searchText,
      stored.jsonBytes,
      iso(this.clock()),
      prefix,
    ];
    let replaced: string[];
    try {
      replaced = await this.db.transaction(async (tx) => {
        // Only this bot's own earlier upload is replaced; another bot's (stored meanwhile) stays, and
        // the insert then meets its key: 409, nothing written. The replaced blobs are queued for deletion.
        const old = await this.#deleteRow(tx, guildId, fileId, botId);
        const inserted = await tx.query(
          `INSERT INTO transcripts (guild_id, file_id, bot_id, ticket_id, number, panel_id, opener_id, opener_name, closed_by, closer_name,
             opened_at, closed_at, message_count, search_text, json_bytes, created_at, blob_prefix)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
           ON CONFLICT (guild_id, file_id) DO NOTHING RETURNING file_id`,
          row,
        );
        if (inserted.rows.length === 0) throw new ApiHttpError('TRANSCRIPT_CONFLICT');
        // The ticket's live messages (services/ticket-messages.ts) end here: the transcript has them now.
        await tx.query('DELETE FROM ticket_messages WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3', [botId, guildId, row[3]]);
        for (const [id, a] of copies) {
          await tx.query(
            'INSERT INTO transcript_attachments (guild_id, file_id, attachment_id, filename, content_type, size) VALUES ($1, $2, $3, $4, $5, $6)',
            [guildId, fileId, id, asText(a.filename), a.contentType === null ? null : asText(a.contentType), a.size],
          );
        }
        return old;
      });
    } catch (error) {
      await this.#forget(written);
      throw error;
    }
    await this.#sweep(replaced);
    return {
      fileId,
      messages: stored.messageCount,
      attachmentsCopied: copies.size,
      bytes: stored.jsonBytes,
      storedBytes: stored.content.byteLength,
      url: `/transcript/v2/${guildId}/${fileId}`,
    };
  }

  /**
   * Copies the attachments on Discord's CDN (only that origin: the API fetches nothing else); the
   * caller points the transcript at the copies. Limits: TRANSCRIPT_ATTACHMENT_MAX_BYTES each,
   * TRANSCRIPT_ATTACHMENTS_TOTAL_MAX_BYTES together, TRANSCRIPT_ATTACHMENTS_MAX files.
   */
  private async copyAttachments(attachments: readonly NamedAttachment[]): Promise<Map<string, StoredAttachment>> {
    const wanted = attachments.filter((a) => isCdnAttachment(a.url, this.cdnBase));
    if (new Set(wanted.map((a) => a.id)).size > TRANSCRIPT_ATTACHMENTS_MAX) {
      throw new ApiHttpError('PAYLOAD_TOO_LARGE', {
        message: `The transcript has more than ${TRANSCRIPT_ATTACHMENTS_MAX.toLocaleString('en')} attachments on Discord's CDN to copy: nothing was stored.`,
      });
    }
    const copies = new Map<string, StoredAttachment>();
    let total = 0;
    let next = 0;
    const copyOne = async () => {
      while (next < wanted.length) {
        const attachment = wanted[next++]!;
        if (copies.has(attachment.id)) continue;
        const content = await this.download(attachment.url, attachment.filename);
        total += content.length;
        if (total > TRANSCRIPT_ATTACHMENTS_TOTAL_MAX_BYTES) {
          throw new ApiHttpError('PAYLOAD_TOO_LARGE', {
            message: `The transcript's attachments come to more than ${TRANSCRIPT_ATTACHMENTS_TOTAL_MAX_BYTES / 1024 / 1024} MiB: nothing was stored.`,
          });
        }
        copies.set(attachment.id, { filename: attachment.filename, contentType: safeContentType(attachment.contentType), size: content.length, content });
      }
    };
    await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, wanted.length) }, copyOne));
    return copies;
  }

  private async download(url: string, filename: string): Promise<Buffer> {
    let res: Response;
    try {
      res = await this.fetchCdn(url, { redirect: 'error', signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: 5, message: `The attachment ${filename} could not be fetched from Discord's CDN: nothing was stored. Try again.`, cause: error });
    }
    if (!res.ok) {
      throw new ApiHttpError('VALIDATION_FAILED', {
        message: `The attachment ${filename} could not be copied: Discord's CDN answered ${res.status} (an expired link?). Nothing was stored: send the transcript again with fresh links.`,
      });
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > TRANSCRIPT_ATTACHMENT_MAX_BYTES) throw this.tooLarge(filename);
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > TRANSCRIPT_ATTACHMENT_MAX_BYTES) {
          await reader.cancel();
          throw this.tooLarge(filename);
        }
        chunks.push(Buffer.from(value));
      }
    }
    return Buffer.concat(chunks);
  }

  private tooLarge(filename: string): ApiHttpError {
    return new ApiHttpError('PAYLOAD_TOO_LARGE', {
      message: `The attachment ${filename} is larger than ${TRANSCRIPT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MiB: nothing was stored.`,
    });
  }

  /** The transcript's row (for the access check), or null. */
  async find(guildId: string, fileId: string): Promise<TranscriptRow | null> {
    const { rows } = await this.db.query<{ bot_id: string; opener_id: string; panel_id: string | null; number: number; closed_at: unknown }>(
      'SELECT bot_id, opener_id, panel_id, number, closed_at FROM transcripts WHERE guild_id = $1 AND file_id = $2',
      [guildId, fileId],
    );
    const row = rows[0];
    if (!row) return null;
    return { guildId, fileId, botId: row.bot_id, openerId: row.opener_id, panelId: row.panel_id, number: Number(row.number), closedAt: isoOf(row.closed_at) ?? '' };
  }

  /** The stored gzip of the transcript's JSON. */
  async content(guildId: string, fileId: string): Promise<Buffer | null> {
    const { rows } = await this.db.query<{ content: Uint8Array | null; blob_prefix: string | null }>(
      'SELECT content, blob_prefix FROM transcripts WHERE guild_id = $1 AND file_id = $2',
      [guildId, fileId],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.blob_prefix === null) return row.content ? Buffer.from(row.content) : null;
    return this.#read(blobKeys.content(row.blob_prefix), 'the transcript');
  }

  /** A blob the row names; missing (removed behind the API's back) it is logged and answered as null. */
  async #read(key: string, what: string): Promise<Buffer | null> {
    let bytes: Buffer | null;
    try {
      bytes = await this.blobs.get(key);
    } catch (error) {
      throw storageError(error, `Transcript storage is not answering, so ${what} could not be read. Try again shortly.`);
    }
    if (bytes === null) this.warn({ store: this.blobs.kind, key }, 'blob store: a stored transcript’s blob is missing');
    return bytes;
  }

  /**
   * The stored gzip of the transcript's head (its first messages and `totalMessages`); for a
   * transcript stored before heads were, made from the whole one.
   */
  async head(guildId: string, fileId: string): Promise<Buffer | null> {
    const { rows } = await this.db.query<{ head: Uint8Array | null; blob_prefix: string | null }>(
      'SELECT head, blob_prefix FROM transcripts WHERE guild_id = $1 AND file_id = $2',
      [guildId, fileId],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.blob_prefix !== null) return this.#read(blobKeys.head(row.blob_prefix), 'the transcript');
    if (row.head) return Buffer.from(row.head);
    const whole = await this.json(guildId, fileId);
    if (!whole) return null;
    // Made once, then kept (only the dashboard's own read gets here).
    const head = await gzip(Buffer.from(JSON.stringify(headOf(whole))));
    await this.db.query('UPDATE transcripts SET head = $3 WHERE guild_id = $1 AND file_id = $2 AND head IS NULL', [guildId, fileId, head]);
    return head;
  }

  /** The transcript as JSON (tests, clients that do not take gzip). */
  async json(guildId: string, fileId: string): Promise<TranscriptV2 | null> {
    const content = await this.content(guildId, fileId);
    return content ? (JSON.parse((await gunzip(content)).toString('utf8')) as TranscriptV2) : null;
  }

  async attachment(guildId: string, fileId: string, attachmentId: string): Promise<StoredAttachment | null> {
    const { rows } = await this.db.query<{ filename: string; content_type: string; size: number; content: Uint8Array | null; blob_prefix: string | null }>(
      `SELECT a.filename, a.content_type, a.size, a.content, t.blob_prefix FROM transcript_attachments a
         JOIN transcripts t ON t.guild_id = a.guild_id AND t.file_id = a.file_id
        WHERE a.guild_id = $1 AND a.file_id = $2 AND a.attachment_id = $3`,
      [guildId, fileId, attachmentId],
    );
    const row = rows[0];
    if (!row) return null;
    const content = row.blob_prefix === null ? (row.content ? Buffer.from(row.content) : null) : await this.#read(blobKeys.attachment(row.blob_prefix, attachmentId), `the attachment ${row.filename}`);
    return content ? { filename: row.filename, contentType: row.content_type, size: Number(row.size), content } : null;
  }

  /**
   * Deletes a transcript: its row and attachments' rows at once, then its blobs. Blobs the store
   * could not delete stay queued (`blob_deletions`) and are retried after the next change.
   */
  async remove(guildId: string, fileId: string): Promise<boolean> {
    const { removed, keys } = await this.db.transaction(async (tx) => {
      const exists = await tx.query('SELECT 1 FROM transcripts WHERE guild_id = $1 AND file_id = $2 FOR UPDATE', [guildId, fileId]);
      return { removed: exists.rows.length > 0, keys: await this.#deleteRow(tx, guildId, fileId, null) };
    });
    await this.#sweep(keys);
    return removed;
  }

  /** Deletes a transcript's row (its bot's, or any when null) and queues its blobs' deletion; answers their keys. */
  async #deleteRow(tx: Queryable, guildId: string, fileId: string, botId: string | null): Promise<string[]> {
    const attachments = await tx.query<{ attachment_id: string }>(
      'SELECT attachment_id FROM transcript_attachments WHERE guild_id = $1 AND file_id = $2',
      [guildId, fileId],
    );
    const deleted = await tx.query<{ blob_prefix: string | null }>(
      'DELETE FROM transcripts WHERE guild_id = $1 AND file_id = $2 AND ($3::text IS NULL OR bot_id = $3) RETURNING blob_prefix',
      [guildId, fileId, botId],
    );
    const prefix = deleted.rows[0]?.blob_prefix;
    if (!prefix) return [];
    const keys = keysOf(prefix, attachments.rows.map((a) => a.attachment_id));
    await tx.query('INSERT INTO blob_deletions (key, since) SELECT k, $2 FROM unnest($1::text[]) AS k ON CONFLICT (key) DO NOTHING', [keys, iso(this.clock())]);
    return keys;
  }

  /** Deletes queued blobs (these keys, then up to SWEEP_BATCH older ones); a store that fails leaves them queued, logged. */
  async #sweep(keys: readonly string[]): Promise<void> {
    try {
      const { rows } = await this.db.query<{ key: string }>('SELECT key FROM blob_deletions WHERE NOT (key = ANY($1::text[])) ORDER BY since LIMIT $2', [keys, SWEEP_BATCH]);
      const all = [...keys, ...rows.map((r) => r.key)];
      if (all.length === 0) return;
      await this.blobs.delete(all);
      await this.db.query('DELETE FROM blob_deletions WHERE key = ANY($1::text[])', [all]);
    } catch (error) {
      this.warn({ store: this.blobs.kind, keys: keys.length, cause: String((error as Error).message ?? error).slice(0, 300) }, 'blob store: deletion postponed (kept in blob_deletions)');
    }
  }

  /** Deletes blobs an upload wrote but did not keep; failing that, queues them (or, the database down too, logs them). */
  async #forget(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.blobs.delete(keys);
    } catch {
      try {
        await this.db.query('INSERT INTO blob_deletions (key, since) SELECT k, $2 FROM unnest($1::text[]) AS k ON CONFLICT (key) DO NOTHING', [keys, iso(this.clock())]);
      } catch {
        this.warn({ store: this.blobs.kind, keys: keys.slice(0, 20) }, 'blob store: blobs of a failed upload left behind');
      }
    }
  }

  /** A server's transcripts, newest first, filtered. */
  async list(guildId: string, query: TranscriptListQuery): Promise<TranscriptList> {
    const where = ['t.guild_id = $1'];
    const params: unknown[] = [guildId];
    const add = (sql: (placeholder: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (query.opener) add((n) => `t.opener_id = $${n}`, query.opener);
    if (query.closer) add((n) => `t.closed_by = $${n}`, query.closer);
    if (query.panel) add((n) => `t.panel_id = $${n}`, query.panel);
    if (query.rating) add((n) => `k.rating = $${n}`, query.rating);
    if (query.from) add((n) => `t.closed_at >= $${n}`, new Date(query.from).toISOString());
    if (query.to) add((n) => `t.closed_at < $${n}`, new Date(query.to).toISOString());
    if (query.q) add((n) => `strpos(t.search_text, $${n}) > 0`, query.q.toLowerCase());
    return this.page(where, params, query.cursor);
  }

  /** "Your tickets": transcripts of tickets the user opened, in every server, newest first. */
  async mine(userId: string, cursor?: string): Promise<TranscriptList> {
    return this.page(['t.opener_id = $1'], [userId], cursor);
  }

  private async page(where: string[], params: unknown[], cursor: string | undefined): Promise<TranscriptList> {
    if (cursor) {
      const position = decodeCursor(cursor);
      params.push(position.at, position.guildId, position.fileId);
      const last = params.length;
      where.push(`(t.closed_at, t.guild_id, t.file_id) < ($${last - 2}::timestamptz, $${last - 1}, $${last})`);
    }
    const { rows } = await this.db.query<ListRow>(
      `SELECT ${LIST_COLUMNS} FROM ${LIST_FROM} WHERE ${where.join(' AND ')}
       ORDER BY t.closed_at DESC, t.guild_id DESC, t.file_id DESC LIMIT ${TRANSCRIPT_LIST_PAGE + 1}`,
      params,
    );
    const items = rows.slice(0, TRANSCRIPT_LIST_PAGE);
    return { items: items.map(toSummary), nextCursor: rows.length > TRANSCRIPT_LIST_PAGE ? encodeCursor(items[items.length - 1]!) : null };
  }

  /** Web Logs: who read which legacy (v1) transcript, in which channel (once a minute, as `logView`). */
  async logLegacyView(guildId: string, target: string, viewer: { id: string; name: string; avatarUrl: string | null }): Promise<void> {
    await this.logOnce(guildId, viewer, target.slice(0, 200));
  }

  /** A `transcript.view` entry, unless the viewer has the same one from the last minute. */
  private async logOnce(guildId: string, viewer: { id: string; name: string; avatarUrl: string | null }, target: string): Promise<void> {
    const now = this.clock();
    await this.db.query(
      `INSERT INTO web_logs (guild_id, at, actor_id, actor_name, actor_avatar_url, action, target, version, changes)
       SELECT $1, $2, $3, $4, $5, 'transcript.view', $6, NULL, '[]'::jsonb
        WHERE NOT EXISTS (SELECT 1 FROM web_logs WHERE guild_id = $1 AND actor_id = $3 AND at > $7 AND action = 'transcript.view' AND target = $6)`,
      [guildId, iso(now), viewer.id, viewer.name, viewer.avatarUrl, target, iso(now - 60_000)],
    );
  }

  /**
   * Web Logs: who read which transcript, and why they could. One entry per viewer, transcript and
   * minute: the viewer's head and whole reads (and a reload at once) are one view.
   */
  async logView(row: TranscriptRow, viewer: { id: string; name: string; avatarUrl: string | null }, reason: string): Promise<void> {
    await this.logOnce(row.guildId, viewer, `Transcript of ticket #${row.number} (${reason}; ${row.fileId})`);
  }
}

import { randomBytes } from 'node:crypto';
import {
  type BotCommandPayload,
  embedPayload,
  type ConfigActor,
  type ConfigFieldChange,
  REPLY_ATTACHMENTS_MAX_BYTES,
  type ReplyAttachment,
  type ReplyFile,
  type ServerConfig,
  type TicketCommandRequest,
  type TicketCommandView,
  type TicketLabel,
  type WebLogEntry,
} from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/driver';
import type { BlobStore } from '../lib/blob-store';
import { type Clock, iso } from '../lib/clock';
import { ApiHttpError } from '../lib/errors';
import { publishTickets, type Signals } from '../lib/signals';
import { type BotCommands, newCommandId } from './bot-commands';
import { insertWebLog, type ServerConfigs } from './server-config';
import { commandView } from './ticket-queue';

/** Unused uploads are deleted after a day; used ones with their command's 30 days. */
const UNUSED_KEEP_MS = 24 * 3600 * 1000;
const USED_KEEP_MS = 30 * 24 * 3600 * 1000;
const PRUNE_BATCH = 50;
/** How often each instance prunes reply files on its own (besides at each upload). */
const PRUNE_EVERY_MS = 15 * 60 * 1000;
/** Unsent reply files (of the last day) one user may keep, and one server. */
export const UNSENT_MAX_BYTES_PER_USER = 50 * 1024 * 1024;
export const UNSENT_MAX_BYTES_PER_SERVER = 200 * 1024 * 1024;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function newAttachmentId(): string {
  let id = 'att_';
  for (const byte of randomBytes(26)) id += BASE32[byte & 31];
  return id;
}

/** A content type we store and serve: a plain `type/subtype`, else octet-stream. */
function safeContentType(value: string | undefined): string {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9.+-]{0,63}\/[a-z0-9][a-z0-9.+-]{0,63}$/.test(type) ? type : 'application/octet-stream';
}

/**
 * A file name as Discord shows it: no path, no control characters (C0, C1), no bidirectional overrides
 * or line/paragraph separators, at most 255 characters; `file` when nothing (or only `.`/`..`) is left.
 */
export function safeFilename(value: string | undefined): string {
  let name = value ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // Taken as sent.
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  name = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f"\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '').trim();
  name = [...name].slice(0, 255).join('');
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

const blobKey = (id: string) => `ticket-attachments/${id}`;

interface TicketRow {
  number: number | null;
  closed_at: unknown;
  labels: string[];
}

/**
 * What staff do in a ticket from the Tickets page (docs/api.md, "Tickets"): each action becomes a
 * command for the bot that serves the server (services/bot-commands.ts), with a Web Logs entry, in one
 * transaction; labels are Tickety's own and stored at once (the bot mirrors them). Reply files are
 * uploaded first (the blob store, like transcripts' files) and handed to the bot as download links.
 */
export class TicketActions {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      signals: Signals;
      botCommands: BotCommands;
      serverConfigs: ServerConfigs;
      blobStore: BlobStore;
      /** The API's public address: the bot downloads reply files from it. */
      publicUrl: string;
      log: FastifyBaseLogger;
    },
  ) {}

  #timer: NodeJS.Timeout | null = null;
  #pruning: Promise<number> | null = null;

  /** Prunes reply files every PRUNE_EVERY_MS on this instance (besides at each upload), until stop(). */
  start(): void {
    this.#timer = setInterval(() => void this.prune().catch((error: unknown) => this.#warn(error, 'reply files: pruning failed (tried again later)')), PRUNE_EVERY_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#pruning?.catch(() => undefined);
  }

  #warn(error: unknown, message: string): void {
    this.deps.log.warn({ cause: String((error as Error)?.message ?? error).slice(0, 300) }, message);
  }

  async #ticket(queryable: Queryable, botId: string, guildId: string, ticketId: string, lock: boolean): Promise<TicketRow> {
    const { rows } = await queryable.query<TicketRow>(
      `SELECT number, closed_at, labels FROM tickets WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3 AND opened_at IS NOT NULL${lock ? ' FOR UPDATE' : ''}`,
      [botId, guildId, ticketId],
    );
    const row = rows[0];
    if (!row) throw new ApiHttpError('NOT_FOUND', { message: 'This server has no ticket with this id.' });
    if (row.closed_at !== null && row.closed_at !== undefined) throw new ApiHttpError('TICKET_CLOSED');
    return row;
  }

  /** Refuses a ticket this server has not (404) or that is closed (409 1033). */
  async assertOpen(botId: string, guildId: string, ticketId: string): Promise<void> {
    await this.#ticket(this.deps.db, botId, guildId, ticketId, false);
  }

  /**
   * The tag a reply was written from: refused (400) when the configuration has no tag with the id, or
   * when the reply has no text and the tag no embed (a reply needs one or the other).
   */
  static tagOf(config: ServerConfig, tagId: string, content = ''): ServerConfig['tags'][number] {
    const tag = config.tags.find((candidate) => candidate.id === tagId);
    if (!tag) throw new ApiHttpError('VALIDATION_FAILED', { message: `tagId: “${tagId}” is not a tag of this server (it may have been deleted). Nothing was sent: choose the tag again.` });
    if (content === '' && tag.embed === null) throw new ApiHttpError('VALIDATION_FAILED', { message: 'content: A reply needs some text.' });
    return tag;
  }

  /** Label ids in the configuration's order, each once; an id not configured is refused (400). */
  static labelsOf(config: ServerConfig, ids: readonly string[]): string[] {
    const configured = new Map(config.labels.map((label: TicketLabel, index) => [label.id, index]));
    const unknown = ids.filter((id) => !configured.has(id));
    if (unknown.length > 0) {
      throw new ApiHttpError('VALIDATION_FAILED', {
        message: `labels: ${unknown.map((id) => `“${id}”`).join(', ')} ${unknown.length === 1 ? 'is not a label' : 'are not labels'} of this server. Nothing was changed: reload the page to see the server's labels.`,
      });
    }
    return [...new Set(ids)].sort((a, b) => configured.get(a)! - configured.get(b)!);
  }

  /**
   * Queues what `actor` asks of the ticket for the server's bot: refused when the ticket is unknown
   * (404), closed (409 1033), or the request names labels or files it may not (400). Nothing is
   * queued or stored when it is refused.
   */
  async command(input: { botId: string; guildId: string; ticketId: string; config: ServerConfig; actor: ConfigActor; request: TicketCommandRequest }): Promise<TicketCommandView> {
    const { botId, guildId, ticketId, config, actor, request } = input;
    const id = newCommandId();
    const now = this.deps.clock();
    const result = await this.deps.db.transaction(async (tx) => {
      const ticket = await this.#ticket(tx, botId, guildId, ticketId, true);
      let payload: BotCommandPayload;
      const changes: ConfigFieldChange[] = [];
      if (request.kind === 'reply') {
        const attachments = await this.#claimFiles(tx, guildId, ticketId, actor.id, request.attachmentIds, id);
        const tag = request.tagId === undefined ? null : TicketActions.tagOf(config, request.tagId, request.content);
        if (tag) changes.push({ path: 'tag', after: tag.name });
        payload = {
          kind: 'reply',
          content: request.content,
          ...(attachments.length > 0 ? { attachments } : {}),
          ...(tag ? { tagId: tag.id, ...(tag.embed ? { embed: embedPayload(tag.embed) } : {}) } : {}),
        };
      } else if (request.kind === 'set_labels') {
        const labels = TicketActions.labelsOf(config, request.labels);
        await tx.query('UPDATE tickets SET labels = $4 WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3', [botId, guildId, ticketId, labels]);
        changes.push({ path: 'labels', before: ticket.labels, after: labels });
        payload = { kind: 'set_labels', labels };
      } else if (request.kind === 'close') {
        const reason = request.reason && request.reason.length > 0 ? request.reason : null;
        if (reason) changes.push({ path: 'reason', after: reason });
        payload = { kind: 'close', reason };
      } else if (request.kind === 'add_member') {
        changes.push({ path: 'member', after: request.userId });
        payload = { kind: 'add_member', userId: request.userId };
      } else {
        payload = { kind: request.kind };
      }
      const view = await this.deps.botCommands.enqueue({ id, botId, guildId, ticketId, payload, requestedBy: actor }, tx);
      const action = (request.kind === 'set_labels' ? 'ticket.labels' : `ticket.${request.kind}`) as WebLogEntry['action'];
      await insertWebLog(tx, { guildId, at: iso(now), actor, action, target: `Ticket #${ticket.number ?? ticketId}`, version: null, changes });
      return view;
    });
    this.deps.botCommands.wake(botId, guildId, ticketId);
    if (request.kind === 'set_labels') publishTickets(this.deps.signals, [{ guild_id: guildId, ticket_id: ticketId }], true);
    return commandView(result);
  }

  /** The uploads a reply sends: all of them this user's, for this ticket, not sent yet, together within Discord's limit. */
  async #claimFiles(tx: Queryable, guildId: string, ticketId: string, userId: string, ids: readonly string[], commandId: string): Promise<ReplyFile[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const { rows } = await tx.query<{ id: string; filename: string; content_type: string; size: number }>(
      `UPDATE ticket_attachments SET command_id = $4 WHERE id = ANY($1::text[]) AND guild_id = $2 AND user_id = $3 AND command_id IS NULL AND created_at > $5 AND ticket_id = $6
       RETURNING id, filename, content_type, size`,
      [unique, guildId, userId, commandId, iso(this.deps.clock() - UNUSED_KEEP_MS), ticketId],
    );
    if (rows.length !== unique.length) {
      throw new ApiHttpError('VALIDATION_FAILED', {
        message: 'attachmentIds: a file is not one you uploaded for a reply in this ticket, or it was sent already or deleted (files not sent within a day are). Nothing was sent: upload it again.',
      });
    }
    const total = rows.reduce((sum, row) => sum + Number(row.size), 0);
    if (total > REPLY_ATTACHMENTS_MAX_BYTES) {
      throw new ApiHttpError('VALIDATION_FAILED', { message: `attachmentIds: the files together are larger than ${REPLY_ATTACHMENTS_MAX_BYTES / 1024 / 1024} MB, Discord's limit for one message. Nothing was sent.` });
    }
    const order = new Map(unique.map((id, index) => [id, index]));
    return rows
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
      .map((row) => ({ filename: row.filename, contentType: row.content_type, size: Number(row.size), url: `${this.deps.publicUrl}/api/bot/v1/attachments/${row.id}` }));
  }

  /**
   * Stores a file for a reply in the ticket (open, of this server) and answers its id. Old uploads are
   * tidied first; refused (429) when the user's, or the server's, files not sent yet of the last day
   * would pass UNSENT_MAX_BYTES_PER_USER or UNSENT_MAX_BYTES_PER_SERVER.
   */
  async upload(input: { botId: string; guildId: string; ticketId: string; userId: string; filename: string | undefined; contentType: string | undefined; bytes: Buffer }): Promise<ReplyAttachment> {
    await this.#ticket(this.deps.db, input.botId, input.guildId, input.ticketId, false);
    if (input.bytes.length === 0) throw new ApiHttpError('VALIDATION_FAILED', { message: 'The file is empty: send its bytes as the body.' });
    await this.prune().catch((error: unknown) => this.#warn(error, 'reply files: pruning failed (tried again later)'));
    await this.#assertRoom(input.guildId, input.userId, input.bytes.length);
    const id = newAttachmentId();
    const filename = safeFilename(input.filename);
    const contentType = safeContentType(input.contentType);
    await this.deps.blobStore.put(blobKey(id), input.bytes, contentType);
    await this.deps.db.query(
      `INSERT INTO ticket_attachments (id, guild_id, ticket_id, user_id, filename, content_type, size, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, input.guildId, input.ticketId, input.userId, filename, contentType, input.bytes.length, iso(this.deps.clock())],
    );
    return { id, filename, contentType, size: input.bytes.length };
  }

  /** Refuses (429) an upload of `size` bytes that would pass the user's or the server's room for files not sent yet. */
  async #assertRoom(guildId: string, userId: string, size: number): Promise<void> {
    const { rows } = await this.deps.db.query<{ mine: string; server: string }>(
      `SELECT (SELECT coalesce(sum(size), 0) FROM ticket_attachments WHERE user_id = $1 AND command_id IS NULL AND created_at > $3)::text AS mine,
              (SELECT coalesce(sum(size), 0) FROM ticket_attachments WHERE guild_id = $2 AND command_id IS NULL AND created_at > $3)::text AS server`,
      [userId, guildId, iso(this.deps.clock() - UNUSED_KEEP_MS)],
    );
    const mine = Number(rows[0]?.mine ?? 0);
    const server = Number(rows[0]?.server ?? 0);
    const mb = (bytes: number) => bytes / 1024 / 1024;
    if (mine + size > UNSENT_MAX_BYTES_PER_USER) {
      throw new ApiHttpError('RATE_LIMITED', {
        message: `Your files not sent yet would pass ${mb(UNSENT_MAX_BYTES_PER_USER)} MB: send them with a reply, or wait (files not sent within a day are deleted), then upload this one again.`,
      });
    }
    if (server + size > UNSENT_MAX_BYTES_PER_SERVER) {
      throw new ApiHttpError('RATE_LIMITED', {
        message: `This server's files not sent yet would pass ${mb(UNSENT_MAX_BYTES_PER_SERVER)} MB: send them with replies, or wait (files not sent within a day are deleted), then upload this one again.`,
      });
    }
  }

  /**
   * A sent reply file's server, name and type, when `botId` is the bot its reply was queued for; else
   * null. The caller checks the bot still serves the server before reading its bytes (`bytes`).
   */
  async sentFile(id: string, botId: string): Promise<{ guildId: string; filename: string; contentType: string } | null> {
    const { rows } = await this.deps.db.query<{ guild_id: string; filename: string; content_type: string }>(
      `SELECT a.guild_id, a.filename, a.content_type FROM ticket_attachments a JOIN bot_commands c ON c.id = a.command_id
        WHERE a.id = $1 AND c.bot_id = $2 AND c.guild_id = a.guild_id`,
      [id, botId],
    );
    const row = rows[0];
    return row ? { guildId: row.guild_id, filename: row.filename, contentType: row.content_type } : null;
  }

  /** A reply file's bytes, or null when the store has none. */
  bytes(id: string): Promise<Buffer | null> {
    return this.deps.blobStore.get(blobKey(id));
  }

  /**
   * Deletes uploads never sent within a day, and sent ones after 30 days (a few at a time, each
   * through its index), queueing their blobs in `blob_deletions` with the rows' deletion; then deletes
   * queued reply-file blobs, a store that fails leaving them queued for the next pass.
   */
  prune(): Promise<number> {
    this.#pruning ??= this.#prune().finally(() => {
      this.#pruning = null;
    });
    return this.#pruning;
  }

  async #prune(): Promise<number> {
    const now = this.deps.clock();
    const count = await this.deps.db.transaction(async (tx) => {
      const unsent = await tx.query<{ id: string }>(
        `DELETE FROM ticket_attachments WHERE id IN (
           SELECT id FROM ticket_attachments WHERE command_id IS NULL AND created_at <= $1 ORDER BY created_at LIMIT ${PRUNE_BATCH})
         RETURNING id`,
        [iso(now - UNUSED_KEEP_MS)],
      );
      const sent = await tx.query<{ id: string }>(
        `DELETE FROM ticket_attachments WHERE id IN (SELECT id FROM ticket_attachments WHERE created_at <= $1 ORDER BY created_at LIMIT ${PRUNE_BATCH}) RETURNING id`,
        [iso(now - USED_KEEP_MS)],
      );
      const keys = [...unsent.rows, ...sent.rows].map((row) => blobKey(row.id));
      if (keys.length > 0) await tx.query('INSERT INTO blob_deletions (key, since) SELECT k, $2 FROM unnest($1::text[]) AS k ON CONFLICT (key) DO NOTHING', [keys, iso(now)]);
      return keys.length;
    });
    await this.#sweep();
    return count;
  }

  /** Deletes queued reply-file blobs (the oldest first); a store that fails leaves them queued, logged. */
  async #sweep(): Promise<void> {
    try {
      const { rows } = await this.deps.db.query<{ key: string }>(`SELECT key FROM blob_deletions WHERE key LIKE 'ticket-attachments/%' ORDER BY since LIMIT ${PRUNE_BATCH * 2}`);
      const keys = rows.map((row) => row.key);
      if (keys.length === 0) return;
      await this.deps.blobStore.delete(keys);
      await this.deps.db.query('DELETE FROM blob_deletions WHERE key = ANY($1::text[])', [keys]);
    } catch (error) {
      this.#warn(error, 'reply files: blob deletion postponed (kept in blob_deletions)');
    }
  }

  /** `PUT /tickets/labels`: the server's labels as a new configuration version (1013 when `version` is not the live one). */
  async saveLabels(input: { guildId: string; labels: TicketLabel[]; version: number | null; actor: ConfigActor }): Promise<{ labels: TicketLabel[]; version: number }> {
    const live = await this.deps.serverConfigs.live(input.guildId);
    // No version (a member with only the Tickets area cannot read the configuration's): over the live one.
    const expectedVersion = input.version ?? live.version;
    // Saved over the version read here: if the client names a newer one than this read saw (a save in
    // between), it is refused rather than written over a configuration older than the client's.
    if (expectedVersion > live.version) throw this.deps.serverConfigs.conflict(null);
    const saved = await this.deps.serverConfigs.save({ guildId: input.guildId, expectedVersion, config: { ...live.config, labels: input.labels }, actor: input.actor });
    return { labels: saved.config.labels, version: saved.version };
  }
}

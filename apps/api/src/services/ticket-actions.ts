import { randomBytes } from 'node:crypto';
import {
  type BotCommandPayload,
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

/** A file name as Discord shows it: no path, no control characters, at most 255 characters; `file` when nothing is left. */
export function safeFilename(value: string | undefined): string {
  let name = value ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // Taken as sent.
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  name = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return [...name].slice(0, 255).join('') || 'file';
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
    },
  ) {}

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
        const attachments = await this.#claimFiles(tx, guildId, actor.id, request.attachmentIds, id);
        payload = { kind: 'reply', content: request.content, ...(attachments.length > 0 ? { attachments } : {}) };
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

  /** The uploads a reply sends: all of them this user's, of this server, not sent yet, together within Discord's limit. */
  async #claimFiles(tx: Queryable, guildId: string, userId: string, ids: readonly string[], commandId: string): Promise<ReplyFile[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const { rows } = await tx.query<{ id: string; filename: string; content_type: string; size: number }>(
      `UPDATE ticket_attachments SET command_id = $4 WHERE id = ANY($1::text[]) AND guild_id = $2 AND user_id = $3 AND command_id IS NULL AND created_at > $5
       RETURNING id, filename, content_type, size`,
      [unique, guildId, userId, commandId, iso(this.deps.clock() - UNUSED_KEEP_MS)],
    );
    if (rows.length !== unique.length) {
      throw new ApiHttpError('VALIDATION_FAILED', {
        message: 'attachmentIds: a file is not one you uploaded on this server for a reply, or it was sent already or deleted (files not sent within a day are). Nothing was sent: upload it again.',
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

  /** Stores a file for a reply in the ticket (open, of this server) and answers its id. Old uploads are tidied first. */
  async upload(input: { botId: string; guildId: string; ticketId: string; userId: string; filename: string | undefined; contentType: string | undefined; bytes: Buffer }): Promise<ReplyAttachment> {
    await this.#ticket(this.deps.db, input.botId, input.guildId, input.ticketId, false);
    if (input.bytes.length === 0) throw new ApiHttpError('VALIDATION_FAILED', { message: 'The file is empty: send its bytes as the body.' });
    await this.prune().catch(() => undefined);
    const id = newAttachmentId();
    const filename = safeFilename(input.filename);
    const contentType = safeContentType(input.contentType);
    await this.deps.blobStore.put(blobKey(id), input.bytes, contentType);
    await this.deps.db.query(
      `INSERT INTO ticket_attachments (id, guild_id, user_id, filename, content_type, size, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, input.guildId, input.userId, filename, contentType, input.bytes.length, iso(this.deps.clock())],
    );
    return { id, filename, contentType, size: input.bytes.length };
  }

  /** A reply file for the bot that serves its server, or null. */
  async file(id: string): Promise<{ guildId: string; filename: string; contentType: string; bytes: Buffer } | null> {
    const { rows } = await this.deps.db.query<{ guild_id: string; filename: string; content_type: string }>('SELECT guild_id, filename, content_type FROM ticket_attachments WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return null;
    const bytes = await this.deps.blobStore.get(blobKey(id));
    return bytes ? { guildId: row.guild_id, filename: row.filename, contentType: row.content_type, bytes } : null;
  }

  /** Deletes uploads never sent within a day, and sent ones after 30 days (a few at a time). */
  async prune(): Promise<number> {
    const now = this.deps.clock();
    const { rows } = await this.deps.db.query<{ id: string }>(
      `DELETE FROM ticket_attachments WHERE id IN (
         SELECT id FROM ticket_attachments WHERE (command_id IS NULL AND created_at <= $1) OR created_at <= $2 ORDER BY created_at LIMIT ${PRUNE_BATCH})
       RETURNING id`,
      [iso(now - UNUSED_KEEP_MS), iso(now - USED_KEEP_MS)],
    );
    if (rows.length > 0) await this.deps.blobStore.delete(rows.map((row) => blobKey(row.id)));
    return rows.length;
  }

  /** `PUT /tickets/labels`: the server's labels as a new configuration version (1013 when `version` is not the live one). */
  async saveLabels(input: { guildId: string; labels: TicketLabel[]; version: number | null; actor: ConfigActor }): Promise<{ labels: TicketLabel[]; version: number }> {
    const live = await this.deps.serverConfigs.live(input.guildId);
    const expectedVersion = input.version ?? 0;
    // Saved over the version read here: if the client names a newer one than this read saw (a save in
    // between), it is refused rather than written over a configuration older than the client's.
    if (expectedVersion > live.version) throw this.deps.serverConfigs.conflict(null);
    const saved = await this.deps.serverConfigs.save({ guildId: input.guildId, expectedVersion, config: { ...live.config, labels: input.labels }, actor: input.actor });
    return { labels: saved.config.labels, version: saved.version };
  }
}

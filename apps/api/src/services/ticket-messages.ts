import type { TicketMessageBatchResult, TicketMessageEvent, TranscriptMessage, TranscriptUser } from '@tickety/api-contract';
import type { Db } from '../db/driver';
import { publishTickets, type Signals } from '../lib/signals';

/** What one batch does to one message, its events folded in time order. */
interface MessageChange {
  guildId: string;
  ticketId: string;
  messageId: string;
  author: TranscriptUser | null;
  message: TranscriptMessage | null;
  edit: { content: string; embeds: unknown[]; attachments: unknown[]; editedAt: string } | null;
  editAt: string | null;
  deletedAt: string | null;
}

/**
 * Stores the changes, one row per message, by rules that give the same row whatever order and
 * however often the events come: the creation fills what is empty (an edit or a delete may have come
 * first); the newest edit wins (same time: the text that sorts last, by code point); the earliest
 * delete stays, and a deleted message keeps no edit. A row that would not change is left alone (not
 * returned). Nothing is stored for a ticket that is closed or whose transcript is stored. Every
 * change takes a new seq.
 */
const NEWER_EDIT = `(EXCLUDED.edit_at, EXCLUDED.edit->>'content' COLLATE "C") > (m.edit_at, m.edit->>'content' COLLATE "C")`;
const APPLY = `
INSERT INTO ticket_messages AS m (bot_id, guild_id, ticket_id, message_id, author, message, created_at, edit, edit_at, deleted_at)
SELECT $1, k.guild_id, k.ticket_id, k.message_id, k.author, k.message, (k.message->>'createdAt')::timestamptz, k.edit, k.edit_at, k.deleted_at
FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::jsonb[], $8::timestamptz[], $9::timestamptz[])
  AS k(guild_id, ticket_id, message_id, author, message, edit, edit_at, deleted_at)
WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.bot_id = $1 AND t.guild_id = k.guild_id AND t.ticket_id = k.ticket_id AND t.closed_at IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM transcripts r WHERE r.guild_id = k.guild_id AND r.ticket_id = k.ticket_id AND r.bot_id = $1)
ON CONFLICT (bot_id, guild_id, ticket_id, message_id) DO UPDATE SET
  author = coalesce(m.author, EXCLUDED.author),
  message = coalesce(m.message, EXCLUDED.message),
  created_at = coalesce(m.created_at, EXCLUDED.created_at),
  edit = CASE WHEN m.deleted_at IS NOT NULL OR EXCLUDED.deleted_at IS NOT NULL THEN NULL
              WHEN EXCLUDED.edit_at IS NOT NULL AND (m.edit_at IS NULL OR ${NEWER_EDIT}) THEN EXCLUDED.edit ELSE m.edit END,
  edit_at = CASE WHEN m.deleted_at IS NOT NULL OR EXCLUDED.deleted_at IS NOT NULL THEN NULL
                 WHEN EXCLUDED.edit_at IS NOT NULL AND (m.edit_at IS NULL OR ${NEWER_EDIT}) THEN EXCLUDED.edit_at ELSE m.edit_at END,
  deleted_at = least(m.deleted_at, EXCLUDED.deleted_at),
  seq = nextval('ticket_messages_seq')
WHERE (m.message IS NULL AND EXCLUDED.message IS NOT NULL)
   OR (m.deleted_at IS NULL AND EXCLUDED.deleted_at IS NULL AND EXCLUDED.edit_at IS NOT NULL AND (m.edit_at IS NULL OR ${NEWER_EDIT}))
   OR (EXCLUDED.deleted_at IS NOT NULL AND (m.deleted_at IS NULL OR EXCLUDED.deleted_at < m.deleted_at))
RETURNING guild_id, ticket_id`;

/** Code point order (as PostgreSQL's "C" collation orders UTF-8), for ties between edits of the same time. */
function laterText(candidate: string, current: string): boolean {
  return Buffer.compare(Buffer.from(candidate), Buffer.from(current)) > 0;
}

/** The batch's events folded per message by the rules above, in key order (batches lock rows in one order). */
function fold(events: readonly TicketMessageEvent[]): MessageChange[] {
  const changes = new Map<string, MessageChange>();
  for (const event of events) {
    const messageId = event.type === 'message_created' ? event.message.id : event.messageId;
    const key = `${event.serverId}\u0000${event.ticketId}\u0000${messageId}`;
    let change = changes.get(key);
    if (!change) {
      change = { guildId: event.serverId, ticketId: event.ticketId, messageId, author: null, message: null, edit: null, editAt: null, deletedAt: null };
      changes.set(key, change);
    }
    const when = new Date(event.at).toISOString();
    if (event.type === 'message_created') {
      change.message ??= event.message;
      change.author ??= event.author;
    } else if (event.type === 'message_edited') {
      const newer = change.editAt === null || when > change.editAt || (when === change.editAt && laterText(event.content, change.edit!.content));
      if (newer) {
        change.edit = { content: event.content, embeds: event.embeds, attachments: event.attachments, editedAt: when };
        change.editAt = when;
      }
    } else if (change.deletedAt === null || when < change.deletedAt) {
      change.deletedAt = when;
    }
  }
  for (const change of changes.values()) {
    if (change.deletedAt !== null) {
      change.edit = null;
      change.editAt = null;
    }
  }
  return [...changes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, change]) => change);
}

/** The live messages of open tickets, from the bot API (docs/api.md, `POST /api/bot/v1/messages`). */
export class TicketMessages {
  constructor(
    private readonly db: Db,
    private readonly signals: Signals | null = null,
  ) {}

  /**
   * Applies a batch in one statement. Events may come twice, late or out of order: the stored
   * message is the same whatever the order.
   *
   * A ticket's changes commit in the order of their seqs: the statement runs after every other batch
   * of the same tickets has committed (an advisory lock per ticket, taken in key order, held to the
   * commit), so its seqs, taken after the lock, are above every committed seq of those tickets. A
   * reader of one ticket that resumes "after seq N" (the Tickets page's stream) therefore misses
   * nothing: no row of that ticket can still commit below N. Batches of other tickets do not wait.
   */
  async ingest(botId: string, events: readonly TicketMessageEvent[]): Promise<TicketMessageBatchResult> {
    const changes = fold(events);
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    const { rows } = await this.db.transaction(async (tx) => {
      await tx.query(
        `SELECT pg_advisory_xact_lock(s.k) FROM (SELECT DISTINCT hashtextextended('tickety-ticket-messages:' || $1 || ':' || u.g || ':' || u.t, 0) AS k
           FROM unnest($2::text[], $3::text[]) AS u(g, t) ORDER BY 1) s`,
        [botId, changes.map((c) => c.guildId), changes.map((c) => c.ticketId)],
      );
      return tx.query<{ guild_id: string; ticket_id: string }>(APPLY, [
      botId,
      changes.map((c) => c.guildId),
      changes.map((c) => c.ticketId),
      changes.map((c) => c.messageId),
      changes.map((c) => json(c.author)),
      changes.map((c) => json(c.message)),
      changes.map((c) => json(c.edit)),
      changes.map((c) => c.editAt),
      changes.map((c) => c.deletedAt),
      ]);
    });
    if (this.signals && rows.length > 0) publishTickets(this.signals, rows, true);
    return { changed: rows.length, unchanged: changes.length - rows.length };
  }
}

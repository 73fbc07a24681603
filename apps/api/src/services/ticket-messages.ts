import type { TicketMessageBatchResult, TicketMessageEvent, TranscriptMessage, TranscriptUser } from '@tickety/api-contract';
import type { Db } from '../db/driver';
import type { Signals } from '../lib/signals';

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
 * Stores the changes, one row per message: the creation fills what is empty (an edit or a delete may
 * have come first), an edit replaces an older one, a delete stays (later edits change nothing). A row that would not change is
 * left alone (not returned), and nothing is stored for a ticket that is closed. Every change takes a
 * new seq, the readers' cursor.
 */
const APPLY = `
INSERT INTO ticket_messages AS m (bot_id, guild_id, ticket_id, message_id, author, message, created_at, edit, edit_at, deleted_at)
SELECT $1, k.guild_id, k.ticket_id, k.message_id, k.author, k.message, (k.message->>'createdAt')::timestamptz, k.edit, k.edit_at, k.deleted_at
FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::jsonb[], $8::timestamptz[], $9::timestamptz[])
  AS k(guild_id, ticket_id, message_id, author, message, edit, edit_at, deleted_at)
WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.bot_id = $1 AND t.guild_id = k.guild_id AND t.ticket_id = k.ticket_id AND t.closed_at IS NOT NULL)
ON CONFLICT (bot_id, guild_id, ticket_id, message_id) DO UPDATE SET
  author = coalesce(m.author, EXCLUDED.author),
  message = coalesce(m.message, EXCLUDED.message),
  created_at = coalesce(m.created_at, EXCLUDED.created_at),
  edit = CASE WHEN m.deleted_at IS NULL AND EXCLUDED.edit_at IS NOT NULL AND (m.edit_at IS NULL OR EXCLUDED.edit_at > m.edit_at) THEN EXCLUDED.edit ELSE m.edit END,
  edit_at = CASE WHEN m.deleted_at IS NULL THEN greatest(m.edit_at, EXCLUDED.edit_at) ELSE m.edit_at END,
  deleted_at = coalesce(m.deleted_at, EXCLUDED.deleted_at),
  seq = nextval('ticket_messages_seq')
WHERE (m.message IS NULL AND EXCLUDED.message IS NOT NULL)
   OR (m.deleted_at IS NULL AND EXCLUDED.edit_at IS NOT NULL AND (m.edit_at IS NULL OR EXCLUDED.edit_at > m.edit_at))
   OR (m.deleted_at IS NULL AND EXCLUDED.deleted_at IS NOT NULL)
RETURNING guild_id, ticket_id`;

/** The batch's events folded per message, in time order (ties: as sent). */
function fold(events: readonly TicketMessageEvent[]): MessageChange[] {
  const changes = new Map<string, MessageChange>();
  const ordered = events.map((event, index) => ({ event, index, at: Date.parse(event.at) })).sort((a, b) => a.at - b.at || a.index - b.index);
  for (const { event, at } of ordered) {
    const messageId = event.type === 'message_created' ? event.message.id : event.messageId;
    const key = `${event.serverId}\u0000${event.ticketId}\u0000${messageId}`;
    let change = changes.get(key);
    if (!change) {
      change = { guildId: event.serverId, ticketId: event.ticketId, messageId, author: null, message: null, edit: null, editAt: null, deletedAt: null };
      changes.set(key, change);
    }
    const when = new Date(at).toISOString();
    if (event.type === 'message_created') {
      change.message ??= event.message;
      change.author ??= event.author;
    } else if (event.type === 'message_edited') {
      change.edit = { content: event.content, embeds: event.embeds, attachments: event.attachments, editedAt: when };
      change.editAt = when;
    } else {
      change.deletedAt ??= when;
    }
  }
  return [...changes.values()];
}

/** The live messages of open tickets, from the bot API (docs/api.md, `POST /api/bot/v1/messages`). */
export class TicketMessages {
  constructor(private readonly deps: { db: Db; signals: Signals }) {}

  /**
   * Applies a batch in one statement. Events may come twice, late or out of order: the stored
   * message is the same as if each had come once, in order. Readers of a changed ticket are told.
   */
  async ingest(botId: string, events: readonly TicketMessageEvent[]): Promise<TicketMessageBatchResult> {
    const changes = fold(events);
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    const { rows } = await this.deps.db.query<{ guild_id: string; ticket_id: string }>(APPLY, [
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
    for (const ticket of new Set(rows.map((row) => `${row.guild_id}:${row.ticket_id}`))) this.deps.signals.publish(`ticket-messages:${ticket}`);
    return { changed: rows.length, unchanged: changes.length - rows.length };
  }
}

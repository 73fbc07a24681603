import type { TicketEvent, TicketEventBatchResult } from '@tickety/api-contract';
import type { Db, Queryable } from '../db/driver';
import { type Clock, iso } from '../lib/clock';
import { publishTickets, type Signals } from '../lib/signals';

/** The data an event carries besides id, server, ticket, type and time (stored as jsonb). */
function dataOf(event: TicketEvent): Record<string, unknown> {
  const { id: _id, serverId: _server, ticketId: _ticket, type: _type, at: _at, ...data } = event;
  return data;
}

/**
 * A ticket's row from all its events: the first 'opened', the latest claim or unclaim, the first
 * staff response, the latest of close and reopen (closed only when a close is the latest), the latest
 * counts, rating and transcript. Ties in time go by arrival. So events arriving in any order give the
 * row they would give in order. Each ticket's events are read through the ticket index in a fenced
 * subquery (see LOG_EVENTS for why).
 */
const RECOMPUTE = `
INSERT INTO tickets AS t (bot_id, guild_id, ticket_id, number, panel_id, opener_id, answers, opened_at, claimed_by,
  first_response_at, first_response_by, closed_at, closed_by, close_reason, reopen_count, messages, staff_messages,
  rating, feedback, transcript_id, updated_at)
SELECT e.bot_id, e.guild_id, e.ticket_id,
  ((array_agg(e.data->>'number' ORDER BY e.at, e.seq) FILTER (WHERE e.type = 'opened'))[1])::integer,
  (array_agg(e.data->>'panelId' ORDER BY e.at, e.seq) FILTER (WHERE e.type = 'opened'))[1],
  (array_agg(e.data->>'openerId' ORDER BY e.at, e.seq) FILTER (WHERE e.type = 'opened'))[1],
  (array_agg(e.data->'answers' ORDER BY e.at, e.seq) FILTER (WHERE e.type = 'opened'))[1],
  min(e.at) FILTER (WHERE e.type = 'opened'),
  (array_agg(CASE WHEN e.type = 'claimed' THEN e.data->>'staffId' END ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type IN ('claimed', 'unclaimed')))[1],
  min(e.at) FILTER (WHERE e.type = 'first_response'),
  (array_agg(e.data->>'staffId' ORDER BY e.at, e.seq) FILTER (WHERE e.type = 'first_response'))[1],
  (array_agg(CASE WHEN e.type = 'closed' THEN e.at END ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type IN ('closed', 'reopened')))[1],
  (array_agg(CASE WHEN e.type = 'closed' THEN e.data->>'closedBy' END ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type IN ('closed', 'reopened')))[1],
  (array_agg(CASE WHEN e.type = 'closed' THEN e.data->>'reason' END ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type IN ('closed', 'reopened')))[1],
  count(*) FILTER (WHERE e.type = 'reopened'),
  coalesce(((array_agg(e.data->>'total' ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type = 'messages'))[1])::integer, 0),
  coalesce(((array_agg(e.data->>'staff' ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type = 'messages'))[1])::integer, 0),
  ((array_agg(e.data->>'rating' ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type = 'rated'))[1])::smallint,
  (array_agg(e.data->>'feedback' ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type = 'rated'))[1],
  (array_agg(e.data->>'fileId' ORDER BY e.at DESC, e.seq DESC) FILTER (WHERE e.type = 'transcript_stored'))[1],
  $4
FROM unnest($2::text[], $3::text[]) AS k(guild_id, ticket_id)
CROSS JOIN LATERAL (SELECT * FROM ticket_events x WHERE x.bot_id = $1 AND x.guild_id = k.guild_id AND x.ticket_id = k.ticket_id OFFSET 0) e
GROUP BY e.bot_id, e.guild_id, e.ticket_id
ON CONFLICT (bot_id, guild_id, ticket_id) DO UPDATE SET
  number = EXCLUDED.number, panel_id = EXCLUDED.panel_id, opener_id = EXCLUDED.opener_id, answers = EXCLUDED.answers,
  opened_at = EXCLUDED.opened_at, claimed_by = EXCLUDED.claimed_by, first_response_at = EXCLUDED.first_response_at,
  first_response_by = EXCLUDED.first_response_by, closed_at = EXCLUDED.closed_at, closed_by = EXCLUDED.closed_by,
  close_reason = EXCLUDED.close_reason, reopen_count = EXCLUDED.reopen_count, messages = EXCLUDED.messages,
  staff_messages = EXCLUDED.staff_messages, rating = EXCLUDED.rating, feedback = EXCLUDED.feedback,
  transcript_id = EXCLUDED.transcript_id, updated_at = EXCLUDED.updated_at`;

/**
 * Web Logs entries for the events just stored that a member did (opened, claimed, closed, reopened,
 * rated): the member named as the dashboard knows them (users), else by id. Each event is looked up
 * by its primary key in a fenced subquery (`OFFSET 0`), an index lookup whatever the statistics say:
 * a plain join to unnest, planned on statistics that lagged a bulk load, scanned all of the bot's
 * events (5 s a batch at 500,000 events; bench/statistics.mjs found it).
 */
const LOG_EVENTS = `
INSERT INTO web_logs (guild_id, at, actor_id, actor_name, actor_avatar_url, action, target, version, changes)
SELECT e.guild_id, e.at, a.actor, coalesce(u.global_name, u.username, a.actor), NULL,
  'ticket.' || e.type,
  'Ticket #' || coalesce(t.number::text, e.ticket_id),
  NULL,
  jsonb_build_array()
FROM unnest($2::text[]) AS n(event_id)
CROSS JOIN LATERAL (SELECT * FROM ticket_events x WHERE x.bot_id = $1 AND x.event_id = n.event_id OFFSET 0) e
CROSS JOIN LATERAL (SELECT coalesce(e.data->>'openerId', e.data->>'staffId', e.data->>'closedBy', e.data->>'by',
  (SELECT opener_id FROM tickets WHERE bot_id = e.bot_id AND guild_id = e.guild_id AND ticket_id = e.ticket_id)) AS actor) a
LEFT JOIN users u ON u.id = a.actor
LEFT JOIN tickets t ON t.bot_id = e.bot_id AND t.guild_id = e.guild_id AND t.ticket_id = e.ticket_id
WHERE e.type IN ('opened', 'claimed', 'closed', 'reopened', 'rated') AND a.actor IS NOT NULL
ORDER BY e.at, e.seq`;

/** Ticket events from the bot API, and the tickets they make. */
export class Tickets {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signals: Signals | null = null,
  ) {}

  /**
   * Stores a batch in one transaction, after any other batch of the same tickets: events already stored (same bot, same id) are ignored, the
   * tickets the new ones touch are recomputed from all their events, and Web Logs gets what members
   * did. A failure stores nothing.
   */
  async ingest(botId: string, events: readonly TicketEvent[]): Promise<TicketEventBatchResult> {
    const now = iso(this.clock());
    const result = await this.db.transaction(async (tx) => {
      // One batch at a time per ticket: a batch recomputes its tickets from the events it can see,
      // so two at once (one with the opening, one with the close) would each miss the other's
      // events and the later would overwrite the ticket with half of them. Locks in key order, so
      // batches sharing tickets never wait for each other in a circle.
      await tx.query(
        `SELECT pg_advisory_xact_lock(s.k) FROM (SELECT DISTINCT hashtextextended('tickety-ticket:' || $1 || ':' || u.g || ':' || u.t, 0) AS k
           FROM unnest($2::text[], $3::text[]) AS u(g, t) ORDER BY 1) s`,
        [botId, events.map((e) => e.serverId), events.map((e) => e.ticketId)],
      );
      const { rows } = await tx.query<{ event_id: string; guild_id: string; ticket_id: string }>(
        `INSERT INTO ticket_events (bot_id, event_id, guild_id, ticket_id, type, at, data, received_at)
         SELECT $1, k.event_id, k.guild_id, k.ticket_id, k.type, k.at, k.data, $8
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::jsonb[]) AS k(event_id, guild_id, ticket_id, type, at, data)
         ON CONFLICT (bot_id, event_id) DO NOTHING
         RETURNING event_id, guild_id, ticket_id`,
        [
          botId,
          events.map((e) => e.id),
          events.map((e) => e.serverId),
          events.map((e) => e.ticketId),
          events.map((e) => e.type),
          events.map((e) => new Date(e.at).toISOString()),
          events.map((e) => JSON.stringify(dataOf(e))),
          now,
        ],
      );
      const tickets = await recompute(tx, botId, rows, now);
      await recordTagUses(tx, botId, events, rows);
      if (rows.length > 0) await tx.query(LOG_EVENTS, [botId, rows.map((r) => r.event_id)]);
      return { stored: rows, answer: { accepted: rows.length, duplicates: events.length - rows.length, tickets } };
    });
    if (this.signals && result.stored.length > 0) publishTickets(this.signals, result.stored, true);
    return result.answer;
  }
}

/** Recomputes the tickets of the given events; answers how many. */
async function recompute(tx: Queryable, botId: string, events: ReadonlyArray<{ guild_id: string; ticket_id: string }>, now: string): Promise<number> {
  const keys = new Map<string, { guild: string; ticket: string }>();
  for (const e of events) keys.set(`${e.guild_id}\u0000${e.ticket_id}`, { guild: e.guild_id, ticket: e.ticket_id });
  if (keys.size === 0) return 0;
  const list = [...keys.values()];
  await tx.query(RECOMPUTE, [botId, list.map((k) => k.guild), list.map((k) => k.ticket), now]);
  return list.length;
}

/** The `tag_used` events just stored (not repeats) as uses of their tags, for Statistics (migration 027). */
async function recordTagUses(tx: Queryable, botId: string, events: readonly TicketEvent[], stored: ReadonlyArray<{ event_id: string }>): Promise<void> {
  const fresh = new Set(stored.map((row) => row.event_id));
  const uses = events.filter((e): e is Extract<TicketEvent, { type: 'tag_used' }> => e.type === 'tag_used' && fresh.has(e.id));
  if (uses.length === 0) return;
  await tx.query(
    `INSERT INTO tag_uses (bot_id, source, ref, guild_id, ticket_id, tag_id, staff_id, at)
     SELECT $1, 'bot', u.ref, u.guild_id, u.ticket_id, u.tag_id, u.staff_id, u.at
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) AS u(ref, guild_id, ticket_id, tag_id, staff_id, at)
     ON CONFLICT DO NOTHING`,
    [botId, uses.map((e) => e.id), uses.map((e) => e.serverId), uses.map((e) => e.ticketId), uses.map((e) => e.tagId), uses.map((e) => e.staffId), uses.map((e) => new Date(e.at).toISOString())],
  );
}

import {
  autoCloseDue,
  type CommandFailure,
  effectiveAutoClose,
  type Guild,
  type LiveMessage,
  type ServerConfig,
  TICKET_EXCERPT_MAX,
  type TicketActivity,
  type TicketAutoClose,
  type TicketCommandView,
  type TicketCounts,
  type TicketDetail,
  type TicketPerson,
  type TicketQueue,
  type TicketQueueQuery,
  type TicketSummary,
  type TranscriptMessage,
  type TranscriptUser,
} from '@tickety/api-contract';
import type { Db } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { avatarUrl } from '../lib/discord';
import type { BotCommands, CommandView } from './bot-commands';
import type { BotKeys } from './bot-keys';
import type { StaffNames } from './staff-names';

/** Live messages a ticket's page opens with (the newest; older ones are in the transcript once it closes). */
const DETAIL_MESSAGES_MAX = 500;
/** Open tickets the queue reads at most (the oldest opened first); past it the answer says `truncated`. */
export const QUEUE_TICKETS_MAX = 500;
/** A page reads the commands of this last while. */
const COMMANDS_WINDOW_MS = 3_600_000;
/** Mentioned people a ticket's read names at most (the rest show as the page's fallback). */
const MENTIONS_MAX = 100;
const USER_MENTION = /<@!?(\d{17,20})>/g;

/**
 * Whether a message counts as staff's answer: not the opener's, not a system line, and not a bot's,
 * unless it is a dashboard reply the bot posted (its id is a done reply command's message id).
 */
const STAFF_MESSAGE = `(m.author->>'id' IS DISTINCT FROM t.opener_id AND m.message->>'system' IS NULL
  AND (m.author->>'bot' = 'false' OR EXISTS (SELECT 1 FROM bot_commands c WHERE c.bot_id = m.bot_id AND c.guild_id = m.guild_id AND c.ticket_id = m.ticket_id
    AND c.kind = 'reply' AND c.outcome->>'messageId' = m.message_id)))`;
const MEMBER_MESSAGE = `(m.author->>'id' = t.opener_id AND m.message->>'system' IS NULL)`;
/** A person's name and avatar from their latest message in the ticket. */
const AUTHOR_OF = (id: string) => `(SELECT m.author FROM ticket_messages m WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id AND m.ticket_id = t.ticket_id
  AND m.author->>'id' = ${id} ORDER BY m.created_at DESC NULLS LAST LIMIT 1)`;

/** Staff's last message (`staff_at`) and the member's first after it (`member_after`) of ticket `t`. */
const WAITING = `LEFT JOIN LATERAL (
  SELECT s.staff_at, (SELECT min(m.created_at) FROM ticket_messages m WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id AND m.ticket_id = t.ticket_id
      AND m.message IS NOT NULL AND ${MEMBER_MESSAGE} AND (s.staff_at IS NULL OR m.created_at > s.staff_at)) AS member_after
  FROM (SELECT max(m.created_at) AS staff_at FROM ticket_messages m WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id AND m.ticket_id = t.ticket_id
      AND m.message IS NOT NULL AND ${STAFF_MESSAGE}) s) w ON true`;

/**
 * The counts of every viewer at once (the stream's `queue` frames, one read per server): the open
 * tickets by claimer (null: unclaimed) and how many of them wait for staff. No names, no last message.
 */
const COUNTS = `
SELECT t.claimed_by, count(*)::int AS open, (count(*) FILTER (WHERE w.staff_at IS NULL OR w.member_after IS NOT NULL))::int AS waiting
FROM tickets t
${WAITING}
WHERE t.bot_id = $1 AND t.guild_id = $2 AND t.opened_at IS NOT NULL AND t.closed_at IS NULL
GROUP BY t.claimed_by`;

/**
 * The server's open tickets (or one ticket, open or not: `$3`) with what a queue row shows: the last
 * message, since when the ticket waits for staff (the member's first message after staff's last; the
 * opening when staff never answered), names from the messages and the users the API knows, and
 * whether `q` ($4, a pattern) is found in its messages. One statement; each ticket's messages are
 * read through their (ticket, created_at) and (ticket, seq) indexes.
 */
const TICKETS = `
SELECT t.ticket_id, t.number, t.panel_id, t.opener_id, t.claimed_by, t.labels, t.opened_at, t.closed_at,
  lm.author AS last_author, lm.content AS last_content, lm.created_at AS last_at,
  w.staff_at, w.member_after,
  (SELECT m.created_at FROM ticket_messages m WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id AND m.ticket_id = t.ticket_id
    AND m.message IS NOT NULL AND ${MEMBER_MESSAGE} ORDER BY m.created_at DESC LIMIT 1) AS member_at,
  (SELECT max(e.at) FROM ticket_events e WHERE e.bot_id = t.bot_id AND e.guild_id = t.guild_id AND e.ticket_id = t.ticket_id AND e.type = 'kept_open') AS kept_open_at,
  ${AUTHOR_OF('t.opener_id')} AS opener_author,
  CASE WHEN t.claimed_by IS NULL THEN NULL ELSE ${AUTHOR_OF('t.claimed_by')} END AS claimer_author,
  ou.username AS opener_username, ou.global_name AS opener_global_name, ou.avatar AS opener_avatar,
  cu.username AS claimer_username, cu.global_name AS claimer_global_name, cu.avatar AS claimer_avatar,
  CASE WHEN $4::text IS NULL THEN false ELSE EXISTS (SELECT 1 FROM ticket_messages m WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id
    AND m.ticket_id = t.ticket_id AND m.deleted_at IS NULL AND coalesce(m.edit->>'content', m.message->>'content') ILIKE $4) END AS text_match
FROM tickets t
LEFT JOIN LATERAL (
  SELECT m.author, coalesce(m.edit->>'content', m.message->>'content') AS content, m.created_at FROM ticket_messages m
  WHERE m.bot_id = t.bot_id AND m.guild_id = t.guild_id AND m.ticket_id = t.ticket_id AND m.message IS NOT NULL AND m.deleted_at IS NULL
  ORDER BY m.created_at DESC LIMIT 1) lm ON true
${WAITING}
LEFT JOIN users ou ON ou.id = t.opener_id
LEFT JOIN users cu ON cu.id = t.claimed_by
WHERE t.bot_id = $1 AND t.guild_id = $2 AND t.opened_at IS NOT NULL
  AND ($3::text IS NULL AND t.closed_at IS NULL OR t.ticket_id = $3)
ORDER BY t.opened_at, t.ticket_id
LIMIT $5`;

interface TicketRow {
  ticket_id: string;
  number: number | null;
  panel_id: string | null;
  opener_id: string | null;
  claimed_by: string | null;
  labels: string[];
  opened_at: unknown;
  closed_at: unknown;
  last_author: TranscriptUser | null;
  last_content: string | null;
  last_at: unknown;
  staff_at: unknown;
  member_after: unknown;
  member_at: unknown;
  kept_open_at: unknown;
  opener_author: TranscriptUser | null;
  claimer_author: TranscriptUser | null;
  opener_username: string | null;
  opener_global_name: string | null;
  opener_avatar: string | null;
  claimer_username: string | null;
  claimer_global_name: string | null;
  claimer_avatar: string | null;
  text_match: boolean;
}

interface MessageRow {
  message_id: string;
  author: TranscriptUser;
  message: TranscriptMessage;
  edit: { content: string; embeds: unknown[]; attachments: unknown[]; editedAt: string } | null;
  deleted_at: unknown;
  seq: string;
}

/** A summary with what the filters need besides it. */
interface Row {
  summary: TicketSummary;
  closed: boolean;
  textMatch: boolean;
  openerName: string;
}

/** When the ticket closes by the rules its panel follows (docs/api.md, "Auto-close"). */
function autoCloseOf(config: ServerConfig, panelId: string | null, activity: TicketActivity): TicketAutoClose | null {
  const due = autoCloseDue(effectiveAutoClose(config, panelId), activity);
  return due === null ? null : { rule: due.rule, at: iso(due.at), warnAt: due.warnAt === null ? null : iso(due.warnAt) };
}

/** `%words%` for ILIKE, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const isoOrNull = (value: unknown): string | null => {
  const ms = toMs(value);
  return ms === null ? null : iso(ms);
};

/** A message as the conversation shows it: its newest edit applied; a deleted one without content. */
export function liveMessage(row: MessageRow): LiveMessage {
  const deleted = row.deleted_at !== null && row.deleted_at !== undefined;
  const message: TranscriptMessage = { ...row.message };
  if (row.edit) Object.assign(message, { content: row.edit.content, embeds: row.edit.embeds, attachments: row.edit.attachments, editedAt: row.edit.editedAt });
  if (deleted) Object.assign(message, { content: '', embeds: [], attachments: [], reactions: [], stickers: [] });
  return { message, author: row.author, deleted };
}

/** A command as the ticket's page follows it. */
export function commandView(view: CommandView): TicketCommandView {
  const outcome = view.outcome as { reason?: CommandFailure; message?: string } | null;
  return {
    id: view.id,
    kind: view.kind,
    state: view.state,
    requestedBy: view.requestedBy,
    requestedAt: view.requestedAt,
    expiresAt: view.expiresAt,
    finishedAt: view.finishedAt,
    failure: view.state === 'failed' && outcome?.reason ? { reason: outcome.reason, message: outcome.message ?? null } : null,
    content: view.kind === 'reply' && typeof view.payload.content === 'string' ? view.payload.content : null,
  };
}

/** A server's queue counts as each viewer sees them (`mine` is the viewer's). */
export interface ServerCounts {
  of(viewerId: string): TicketCounts;
}

/**
 * The Tickets page's reads (docs/api.md, "Tickets"): the queue of a server's open tickets, one ticket
 * with its answers, messages and commands, and what the stream sends (services/ticket-stream.ts).
 * Tickets are the bot's that serves the server now (bot_servers, else the product's own).
 */
export class TicketQueueService {
  constructor(
    private readonly deps: { db: Db; clock: Clock; botKeys: BotKeys; botCommands: BotCommands; staffNames: StaffNames | null; cdnBase: string },
  ) {}

  /** The bot whose tickets the server's page shows. */
  botOf(guildId: string): Promise<string> {
    return this.deps.botKeys.botOf(guildId);
  }

  async #rows(botId: string, guild: Guild, config: ServerConfig, ticketId: string | null, search: string | null, limit: number): Promise<Row[]> {
    const { rows } = await this.deps.db.query<TicketRow>(TICKETS, [botId, guild.id, ticketId, search === null ? null : containsPattern(search), limit]);
    const panels = new Map(config.panels.map((panel) => [panel.id, panel.name]));
    const labelOrder = new Map(config.labels.map((label, index) => [label.id, index]));
    const people = rows.map((row) => this.#people(row));
    await this.#nameUnnamed(guild, people.flatMap(({ opener, claimer }) => (claimer ? [opener, claimer] : [opener])));
    return rows.map((row, index) => {
      const { opener, claimer } = people[index]!;
      const staffAt = toMs(row.staff_at);
      const memberAfter = toMs(row.member_after);
      const openedAt = isoOrNull(row.opened_at)!;
      const waiting = staffAt === null || memberAfter !== null;
      const closed = row.closed_at !== null && row.closed_at !== undefined;
      const last = row.last_author && row.last_at !== null ? row.last_author : null;
      return {
        closed,
        textMatch: row.text_match === true,
        openerName: opener.name,
        summary: {
          id: row.ticket_id,
          number: row.number === null ? null : Number(row.number),
          panelId: row.panel_id,
          panelName: row.panel_id === null ? null : (panels.get(row.panel_id) ?? null),
          opener,
          claimer,
          labels: row.labels.filter((id) => labelOrder.has(id)).sort((a, b) => labelOrder.get(a)! - labelOrder.get(b)!),
          openedAt,
          lastMessage: last
            ? {
                author: this.#person(last.id, last, null),
                excerpt: [...(row.last_content ?? '')].slice(0, TICKET_EXCERPT_MAX).join(''),
                at: isoOrNull(row.last_at)!,
                fromMember: last.id === row.opener_id,
              }
            : null,
          waitingForStaff: waiting,
          waitingSince: !waiting ? null : staffAt === null ? openedAt : iso(memberAfter!),
          autoClose: closed ? null : autoCloseOf(config, row.panel_id, { openedAt: Date.parse(openedAt), memberAt: toMs(row.member_at), staffAt, keptOpenAt: toMs(row.kept_open_at) }),
        },
      };
    });
  }

  /**
   * Names Discord knows (the bot's member lookup), for those neither a message nor a sign-in named
   * (`name` ''); whoever is still unnamed is `unknown`, named by their id.
   */
  async #nameUnnamed(guild: Guild, people: TicketPerson[]): Promise<void> {
    const unnamed = people.filter((person) => person.name === '');
    if (unnamed.length > 0 && this.deps.staffNames) {
      const ask = [...new Map(unnamed.map((p) => [p.id, { userId: p.id, name: null as string | null }])).values()];
      await this.deps.staffNames.fill(guild, ask);
      const found = new Map(ask.map((a) => [a.userId, a.name]));
      for (const person of unnamed) person.name = found.get(person.id) ?? '';
    }
    for (const person of unnamed) if (person.name === '') Object.assign(person, { name: person.id, unknown: true });
  }

  /**
   * The people a ticket's conversation names: the messages' authors (their latest message), the
   * opener, the claimer and everyone a message mentions (`<@id>`), named as the queue names them.
   */
  async #users(guild: Guild, ticket: TicketSummary, messages: readonly LiveMessage[]): Promise<TicketPerson[]> {
    const people = new Map<string, TicketPerson>();
    for (const { author } of messages) people.set(author.id, this.#person(author.id, author, null));
    for (const person of ticket.claimer ? [ticket.opener, ticket.claimer] : [ticket.opener]) if (!people.has(person.id)) people.set(person.id, { ...person });
    const mentioned = new Set<string>();
    for (const { message } of messages) {
      const texts = [message.content, ...message.embeds.flatMap((embed) => [embed.description ?? '', ...embed.fields.map((field) => field.value)])];
      for (const text of texts) for (const match of text.matchAll(USER_MENTION)) if (!people.has(match[1]!)) mentioned.add(match[1]!);
    }
    const asked = [...mentioned].slice(0, MENTIONS_MAX);
    if (asked.length > 0) {
      const { rows } = await this.deps.db.query<{ id: string; username: string | null; global_name: string | null; avatar: string | null }>(
        'SELECT id, username, global_name, avatar FROM users WHERE id = ANY($1::text[])',
        [asked],
      );
      const signedIn = new Map(rows.map((row) => [row.id, row]));
      const found = asked.map((id) => {
        const user = signedIn.get(id);
        return this.#person(id, null, user ? { username: user.username, globalName: user.global_name, avatar: user.avatar } : null);
      });
      await this.#nameUnnamed(guild, found);
      for (const person of found) people.set(person.id, person);
    }
    return [...people.values()];
  }

  #people(row: TicketRow): { opener: TicketPerson; claimer: TicketPerson | null } {
    const opener = this.#person(row.opener_id ?? '0', row.opener_author, { username: row.opener_username, globalName: row.opener_global_name, avatar: row.opener_avatar });
    const claimer = row.claimed_by === null ? null : this.#person(row.claimed_by, row.claimer_author, { username: row.claimer_username, globalName: row.claimer_global_name, avatar: row.claimer_avatar });
    return { opener, claimer };
  }

  /** Named by their message, else by their sign-in, else '' (filled in later). */
  #person(id: string, author: TranscriptUser | null, user: { username: string | null; globalName: string | null; avatar: string | null } | null): TicketPerson {
    if (author) return { id, name: author.displayName ?? author.username, avatarUrl: author.avatarUrl };
    if (user?.username) return { id, name: user.globalName ?? user.username, avatarUrl: avatarUrl(this.deps.cdnBase, id, user.avatar) };
    return { id, name: '', avatarUrl: null };
  }

  #counts(rows: Row[], viewerId: string): TicketCounts {
    return {
      open: rows.length,
      mine: rows.filter((row) => row.summary.claimer?.id === viewerId).length,
      unclaimed: rows.filter((row) => row.summary.claimer === null).length,
      waiting: rows.filter((row) => row.summary.waitingForStaff).length,
    };
  }

  /** `GET /tickets`: the open tickets the query matches, waiting for staff first (longest first), then the oldest. */
  async queue(guild: Guild, config: ServerConfig, viewerId: string, query: TicketQueueQuery): Promise<TicketQueue> {
    const botId = await this.botOf(guild.id);
    const search = query.q?.trim() ?? null;
    const read = await this.#rows(botId, guild, config, null, search, QUEUE_TICKETS_MAX + 1);
    const truncated = read.length > QUEUE_TICKETS_MAX;
    const rows = read.slice(0, QUEUE_TICKETS_MAX);
    const number = search !== null && /^#?\d{1,10}$/.test(search) ? Number(search.replace('#', '')) : null;
    const needle = search?.toLowerCase() ?? null;
    const matches = (row: Row) => {
      const { summary } = row;
      if (query.filter === 'mine' && summary.claimer?.id !== viewerId) return false;
      if (query.filter === 'unclaimed' && summary.claimer !== null) return false;
      if (query.filter === 'waiting' && !summary.waitingForStaff) return false;
      if (query.panel !== undefined && summary.panelId !== query.panel) return false;
      if (query.label !== undefined && !summary.labels.includes(query.label)) return false;
      if (needle === null) return true;
      return (number !== null && summary.number === number) || summary.opener.id === search || row.openerName.toLowerCase().includes(needle) || row.textMatch;
    };
    const since = (summary: TicketSummary) => Date.parse(summary.waitingSince ?? summary.openedAt);
    const tickets = rows
      .filter(matches)
      .map((row) => row.summary)
      .sort(
        (left, right) =>
          Number(right.waitingForStaff) - Number(left.waitingForStaff) ||
          (left.waitingForStaff ? since(left) - since(right) : 0) ||
          Date.parse(left.openedAt) - Date.parse(right.openedAt) ||
          left.id.localeCompare(right.id),
      );
    return {
      tickets,
      counts: truncated ? (await this.countsOfAll(botId, guild.id)).of(viewerId) : this.#counts(rows, viewerId),
      labels: config.labels,
      panels: config.panels.map((panel) => ({ id: panel.id, name: panel.name })),
      truncated,
    };
  }

  /** The counts of every viewer (the stream's `queue` frames) in one aggregate: `of(viewer)` gives one's. */
  async countsOfAll(botId: string, guildId: string): Promise<ServerCounts> {
    const { rows } = await this.deps.db.query<{ claimed_by: string | null; open: number; waiting: number }>(COUNTS, [botId, guildId]);
    const mine = new Map<string, number>();
    let open = 0;
    let unclaimed = 0;
    let waiting = 0;
    for (const row of rows) {
      open += Number(row.open);
      waiting += Number(row.waiting);
      if (row.claimed_by === null) unclaimed += Number(row.open);
      else mine.set(row.claimed_by, Number(row.open));
    }
    return { of: (viewerId) => ({ open, mine: mine.get(viewerId) ?? 0, unclaimed, waiting }) };
  }

  /** One ticket of the server (open or closed), or null when the server has none by this id. */
  async summary(guild: Guild, config: ServerConfig, ticketId: string): Promise<{ ticket: TicketSummary; closed: boolean } | null> {
    const [row] = await this.#rows(await this.botOf(guild.id), guild, config, ticketId, null, 1);
    return row ? { ticket: row.summary, closed: row.closed } : null;
  }

  /**
   * The newest seq of the ticket's messages: the stream's cursor. Read before the messages it
   * stands for, so a change committed in between is sent again rather than missed.
   */
  async cursor(botId: string, guildId: string, ticketId: string): Promise<string> {
    const { rows } = await this.deps.db.query<{ seq: string | null }>(
      'SELECT max(seq)::text AS seq FROM ticket_messages WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3',
      [botId, guildId, ticketId],
    );
    return rows[0]?.seq ?? '0';
  }

  /**
   * The ticket's messages changed after `cursor` (a seq), in order of change, at most `limit`;
   * `cursor` is the last one's seq; `upTo` (a seq) bounds them (a stream's catch-up to its feed). A
   * ticket's changes commit in seq order (services/ticket-messages.ts); `seqs` are the messages'.
   */
  async changedSince(
    botId: string,
    guildId: string,
    ticketId: string,
    cursor: string,
    limit: number,
    upTo: string | null = null,
  ): Promise<{ messages: LiveMessage[]; seqs: string[]; cursor: string; more: boolean }> {
    const { rows } = await this.deps.db.query<MessageRow>(
      `SELECT m.message_id, m.author, m.message, m.edit, m.deleted_at, m.seq::text AS seq FROM ticket_messages m
       WHERE m.bot_id = $1 AND m.guild_id = $2 AND m.ticket_id = $3 AND m.seq > $4::bigint AND ($6::bigint IS NULL OR m.seq <= $6::bigint)
       ORDER BY m.seq LIMIT $5`,
      [botId, guildId, ticketId, cursor, limit + 1, upTo],
    );
    const page = rows.slice(0, limit);
    const shown = page.filter((row) => row.message !== null && row.author !== null);
    return { messages: shown.map(liveMessage), seqs: shown.map((row) => row.seq), cursor: page.at(-1)?.seq ?? cursor, more: rows.length > limit };
  }

  /** The ticket's dashboard commands (for the bot that serves the server) of the last hour, oldest first. */
  async commands(guildId: string, ticketId: string): Promise<TicketCommandView[]> {
    return (await this.deps.botCommands.ofTicket(await this.botOf(guildId), guildId, ticketId, this.deps.clock() - COMMANDS_WINDOW_MS)).map(commandView);
  }

  /** `GET /tickets/:ticket`, or null when the server has no such ticket. */
  async detail(guild: Guild, config: ServerConfig, ticketId: string): Promise<TicketDetail | null> {
    const botId = await this.botOf(guild.id);
    const cursor = await this.cursor(botId, guild.id, ticketId);
    const found = await this.summary(guild, config, ticketId);
    if (!found) return null;
    const [{ rows }, answers, commands] = await Promise.all([
      this.deps.db.query<MessageRow>(
        `SELECT message_id, author, message, edit, deleted_at, seq::text AS seq FROM ticket_messages
         WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3 AND message IS NOT NULL AND author IS NOT NULL
         ORDER BY created_at DESC, message_id DESC LIMIT $4`,
        [botId, guild.id, ticketId, DETAIL_MESSAGES_MAX + 1],
      ),
      this.deps.db.query<{ answers: Array<{ question: string; answer: string }> | null }>('SELECT answers FROM tickets WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3', [
        botId,
        guild.id,
        ticketId,
      ]),
      this.commands(guild.id, ticketId),
    ]);
    const form = config.panels.find((panel) => panel.id === found.ticket.panelId)?.form ?? [];
    const questions = new Map(form.map((question) => [question.id, question.label]));
    const messages = rows.slice(0, DETAIL_MESSAGES_MAX).reverse().map(liveMessage);
    return {
      ticket: found.ticket,
      answers: (answers.rows[0]?.answers ?? []).map((a) => ({ question: questions.get(a.question) ?? a.question, answer: a.answer })),
      messages,
      users: await this.#users(guild, found.ticket, messages),
      truncated: rows.length > DETAIL_MESSAGES_MAX,
      commands,
      cursor,
      closed: found.closed,
    };
  }
}

/**
 * The Tickets page (`/dashboard/:server/tickets`, access area `tickets`): the queue of open tickets,
 * one ticket's live conversation, and the actions staff take, which become commands for the bot
 * (bot-commands-api.ts). docs/api.md, "Tickets", lists the routes: under `/api/guilds/:server`,
 * `GET /tickets`, `GET /tickets/:ticket`, `GET /tickets/stream` (SSE), `POST /tickets/:ticket/commands`,
 * `POST /tickets/:ticket/attachments` and `PUT /tickets/labels`; `tickets: read` for reads, `write` for changes.
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';
import { TicketAutoClose } from './auto-close';
import { BotTicketId, TranscriptMessage, TranscriptUser } from './bot-api';
import { BotCommandId, CommandFailure, CommandState, ReplyContent, TICKET_LABELS_MAX } from './bot-commands-api';
import { Tag, TagId } from './server-config/automation';
import { TicketLabel, TicketLabelId, TICKET_LABELS_CONFIG_MAX } from './server-config/labels';
import { REPLY_ATTACHMENTS_MAX, REPLY_ATTACHMENTS_MAX_BYTES, TICKET_EXCERPT_MAX, TICKET_QUEUE_FILTERS } from './tickets-limits';

export { TicketLabel, TicketLabelId, TICKET_LABELS_CONFIG_MAX };

export { REPLY_ATTACHMENTS_MAX, REPLY_ATTACHMENTS_MAX_BYTES, TICKET_EXCERPT_MAX, TICKET_QUEUE_FILTERS };

export const TicketParams = z.object({ server: Snowflake, ticket: BotTicketId });

/** Someone in a ticket as the dashboard names them (from their messages, their sign-in, the guild's members, else the id). */
export const TicketPerson = z.object({
  id: Snowflake,
  name: z.string(),
  avatarUrl: z.string().nullable(),
  /** Nothing named them (no message, no sign-in, not found among the server's members): `name` is their id, the page says "Unknown member". */
  unknown: z.literal(true).optional(),
});
export type TicketPerson = z.infer<typeof TicketPerson>;

export const TicketQueueFilter = z.enum(TICKET_QUEUE_FILTERS);
export type TicketQueueFilter = z.infer<typeof TicketQueueFilter>;

/** `GET /api/guilds/:server/tickets`: `mine` is claimed by the viewer; `waiting`, the member's word is the last. */
export const TicketQueueQuery = z
  .object({
    filter: TicketQueueFilter.default('all'),
    panel: z.string().min(1).max(64).optional(),
    label: TicketLabelId.optional(),
    /** A ticket number ("42" or "#42"), an opener's name or id, or words of the messages (case-insensitive). */
    q: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type TicketQueueQuery = z.infer<typeof TicketQueueQuery>;

/** The newest message of a ticket, as a queue row shows it. */
export const TicketLastMessage = z.object({
  author: TicketPerson,
  /** At most TICKET_EXCERPT_MAX characters of its text ('' for a message of only attachments or embeds). */
  excerpt: z.string(),
  at: z.string(),
  /** Whether its author is the opener (the member) rather than staff. */
  fromMember: z.boolean(),
});

/** One open ticket in the queue. */
export const TicketSummary = z.object({
  id: BotTicketId,
  number: z.int().nullable(),
  panelId: z.string().nullable(),
  /** The panel's name in the current configuration (null: a panel since removed, or none). */
  panelName: z.string().nullable(),
  opener: TicketPerson,
  claimer: TicketPerson.nullable(),
  /** Label ids, in the configuration's order; ids no longer configured are left out. */
  labels: z.array(TicketLabelId),
  openedAt: z.string(),
  lastMessage: TicketLastMessage.nullable(),
  /** The member spoke last (or nobody has yet): the ticket waits for staff since `waitingSince`. */
  waitingForStaff: z.boolean(),
  waitingSince: z.string().nullable(),
  /** When the bot will close it by the auto-close rules (docs/api.md, "Auto-close"); null: no rule applies. */
  autoClose: TicketAutoClose.nullable(),
});
export type TicketSummary = z.infer<typeof TicketSummary>;

/** Counts over all open tickets (not the filter), for the filter chips and the sidebar. */
export const TicketCounts = z.object({ open: z.int(), mine: z.int(), unclaimed: z.int(), waiting: z.int() });
export type TicketCounts = z.infer<typeof TicketCounts>;

/** The queue: the open tickets the query matches, longest waiting first, then oldest. */
export const TicketQueue = z.object({
  tickets: z.array(TicketSummary),
  counts: TicketCounts,
  /** The server's labels (configuration), for the filters and the chips. */
  labels: z.array(TicketLabel),
  /** The panels tickets may come from (id and name), for the panel filter. */
  panels: z.array(z.object({ id: z.string(), name: z.string() })),
  /** More open tickets than the queue reads (the 500 opened first are listed and filtered); the counts are over all. */
  truncated: z.boolean().optional(),
});
export type TicketQueue = z.infer<typeof TicketQueue>;

/** A message of an open ticket as the conversation shows it (the transcript's shape, its latest state). */
export const LiveMessage = z.object({
  message: TranscriptMessage,
  author: TranscriptUser,
  /** Deleted in Discord: shown as deleted, without its content. */
  deleted: z.boolean(),
});
export type LiveMessage = z.infer<typeof LiveMessage>;

/** One form answer the opener gave when opening the ticket. */
export const TicketAnswer = z.object({ question: z.string(), answer: z.string() });

/** A command the dashboard asked of the bot for this ticket, as the page shows its progress. */
export const TicketCommandView = z.object({
  id: BotCommandId,
  kind: z.enum(['reply', 'claim', 'unclaim', 'close', 'add_member', 'set_labels']),
  state: CommandState,
  requestedBy: TicketPerson,
  requestedAt: z.string(),
  expiresAt: z.string(),
  finishedAt: z.string().nullable(),
  /** For a failed command: Discord's reason, as the bot reported it. */
  failure: z.object({ reason: CommandFailure, message: z.string().nullable() }).nullable(),
  /** For a reply: its text (shown as "sending…" until the bot has posted it). */
  content: z.string().nullable(),
});
export type TicketCommandView = z.infer<typeof TicketCommandView>;

/** `GET /api/guilds/:server/tickets/:ticket`: the ticket, its form answers and its conversation so far. */
export const TicketDetail = z.object({
  ticket: TicketSummary,
  answers: z.array(TicketAnswer),
  /** Oldest first; at most the last 500 (`truncated` when there were more). */
  messages: z.array(LiveMessage),
  truncated: z.boolean(),
  /**
   * The people the conversation names: the messages' authors, the opener, the claimer and those the
   * messages mention (`<@id>`, at most 100 looked up), for the mentions' names. Stream frames add none:
   * the page also knows the authors and the opener and claimer of `ticket` frames.
   */
  users: z.array(TicketPerson),
  /** This viewer's and others' dashboard commands of the last hour, newest last. */
  commands: z.array(TicketCommandView),
  /** Where the stream resumes after this answer (`Last-Event-ID`). */
  cursor: z.string(),
  /** Closed since the queue was read: the page says so and offers Transcripts. */
  closed: z.boolean(),
});
export type TicketDetail = z.infer<typeof TicketDetail>;

/**
 * `GET /api/guilds/:server/tickets/stream?ticket=&cursor=`: without `ticket`, only queue events.
 * `cursor` is where the first connection starts (the detail's `cursor`: EventSource cannot send
 * `Last-Event-ID` on its first request); a reconnection's `Last-Event-ID` takes precedence.
 */
/** The largest message seq (PostgreSQL `bigint`): a cursor above it could never be read. */
const MAX_STREAM_CURSOR = 9223372036854775807n;
export const StreamCursor = z
  .string()
  .regex(/^\d{1,19}$/, 'Must be a stream cursor (digits).')
  .refine((value) => BigInt(value) <= MAX_STREAM_CURSOR, `Must be a stream cursor (at most ${MAX_STREAM_CURSOR}).`);
export const TicketStreamQuery = z.object({ ticket: BotTicketId.optional(), cursor: StreamCursor.optional() }).strict();

/**
 * One SSE frame's data (`event:` is its `type`; `id:` the cursor to resume from). Messages come in
 * order of change and may repeat after a reconnect: the page keeps one per `message.id`, the later.
 */
export const TicketStreamEvent = z.discriminatedUnion('type', [
  /** Messages of the streamed ticket that are new or changed. */
  z.object({ type: z.literal('messages'), messages: z.array(LiveMessage) }),
  /** The streamed ticket's summary changed (claimed, labels, closed...). */
  z.object({ type: z.literal('ticket'), ticket: TicketSummary, closed: z.boolean() }),
  /** Commands of the streamed ticket changed state. */
  z.object({ type: z.literal('commands'), commands: z.array(TicketCommandView) }),
  /** Something in the queue changed: read `GET /tickets` again (the counts are here already). */
  z.object({ type: z.literal('queue'), counts: TicketCounts }),
]);
export type TicketStreamEvent = z.infer<typeof TicketStreamEvent>;

/** A file uploaded for a reply (`POST .../attachments`, the raw file; `x-filename` names it). */
export const ReplyAttachment = z.object({
  id: z.string().regex(/^att_[a-z2-7]{26}$/),
  filename: z.string(),
  contentType: z.string(),
  size: z.int(),
});
export type ReplyAttachment = z.infer<typeof ReplyAttachment>;

/** `POST /api/guilds/:server/tickets/:ticket/commands`: what staff ask of the bot. */
export const TicketCommandRequest = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('reply'),
      /** May be empty only with a `tagId` whose tag has an embed (the embed is then the message). */
      content: z.string(),
      attachmentIds: z.array(ReplyAttachment.shape.id).max(REPLY_ATTACHMENTS_MAX).default([]),
      /** The tag chosen in the reply box (`/`): its embed is posted with the text, and Statistics counts the use. */
      tagId: TagId.optional(),
    })
    .strict()
    .superRefine((reply, ctx) => {
      if (reply.tagId !== undefined && reply.content === '') return;
      const checked = ReplyContent.safeParse(reply.content);
      for (const issue of checked.success ? [] : checked.error.issues) ctx.addIssue({ code: 'custom', path: ['content'], input: reply.content, message: issue.message });
    }),
  z.object({ kind: z.literal('claim') }).strict(),
  z.object({ kind: z.literal('unclaim') }).strict(),
  z.object({ kind: z.literal('close'), reason: z.string().trim().max(1024).nullable() }).strict(),
  z.object({ kind: z.literal('add_member'), userId: Snowflake }).strict(),
  z.object({ kind: z.literal('set_labels'), labels: z.array(TicketLabelId).max(TICKET_LABELS_MAX) }).strict(),
]);
export type TicketCommandRequest = z.infer<typeof TicketCommandRequest>;

/** `PUT /api/guilds/:server/tickets/labels`: the whole list, saved as a new configuration version. */
export const TicketLabelsUpdate = z.object({ labels: z.array(TicketLabel).max(TICKET_LABELS_CONFIG_MAX), version: z.int().positive().nullable() }).strict();
export type TicketLabelsUpdate = z.infer<typeof TicketLabelsUpdate>;
export const TicketLabels = z.object({ labels: z.array(TicketLabel), version: z.int().positive() });

/** `GET /api/guilds/:server/tickets/tags`: the server's tags, for the reply box's `/` list (`tickets: read`). */
export const TicketTags = z.object({ tags: z.array(Tag) });
export type TicketTags = z.infer<typeof TicketTags>;

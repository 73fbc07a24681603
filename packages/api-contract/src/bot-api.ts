/**
 * The bot API (`/api/bot/v1/...`): how a bot process plugs in. It reads a server's configuration and
 * writes ticket events, transcripts and shard heartbeats. The API validates with these schemas; the
 * demo bot and the OpenAPI document use the same ones (docs/api.md, "Bot API").
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';
import { ShortId } from './server-config/fields';
import { Tag } from './server-config/automation';

// ---------------------------------------------------------------------------------------------
// Keys

/** A bot key as sent in `Authorization: Bearer <key>`: `tk_bot_<id>_<secret>`. */
export const BOT_KEY_PATTERN = /^tk_bot_([a-z0-9]{8,32})_([A-Za-z0-9_-]{32,128})$/;

/** How long a rotated key keeps working beside its successor, by default (seconds). */
export const BOT_KEY_OVERLAP_DEFAULT_S = 24 * 60 * 60;

export const BotKeyRotateRequest = z
  .object({
    /** How long the key used for this call keeps working (0: revoked now). Default one day. */
    overlapSeconds: z.int().min(0).max(7 * 24 * 60 * 60).optional(),
  })
  .strict();
export type BotKeyRotateRequest = z.infer<typeof BotKeyRotateRequest>;

export const BotKeyRotateResponse = z.object({
  /** The new key: shown once, stored only as a hash. */
  key: z.string(),
  keyId: z.string(),
  /** When the key used for the call stops working. */
  previousKeyExpiresAt: z.string(),
});
export type BotKeyRotateResponse = z.infer<typeof BotKeyRotateResponse>;

/** Who a key belongs to (`GET /api/bot/v1/me`). */
export const BotIdentity = z.object({
  botId: z.string(),
  keyId: z.string(),
  keyName: z.string(),
  /** Null while the key has no end (it has not been rotated). */
  expiresAt: z.string().nullable(),
});
export type BotIdentity = z.infer<typeof BotIdentity>;

// ---------------------------------------------------------------------------------------------
// Shard heartbeats

export const SHARD_STATES = ['ready', 'connecting', 'resuming', 'disconnected'] as const;
export const ShardState = z.enum(SHARD_STATES);
export type ShardState = z.infer<typeof ShardState>;
export const SHARD_ID_MAX = 4095;

export const ShardHeartbeat = z
  .object({
    id: z.int().min(0).max(SHARD_ID_MAX),
    state: ShardState,
    /** Gateway heartbeat round trip; null before the first one. */
    latencyMs: z.int().min(0).max(600_000).nullable(),
    guilds: z.int().min(0).max(100_000_000),
  })
  .strict();
export type ShardHeartbeat = z.infer<typeof ShardHeartbeat>;

export const SHARD_HEARTBEATS_MAX = 64;
export const ShardHeartbeatBatch = z
  .object({ shards: z.array(ShardHeartbeat).min(1).max(SHARD_HEARTBEATS_MAX) })
  .strict()
  .superRefine((batch, ctx) => {
    const seen = new Set<number>();
    batch.shards.forEach((shard, i) => {
      if (seen.has(shard.id)) ctx.addIssue({ code: 'custom', path: ['shards', i, 'id'], input: shard.id, message: `Shard ${shard.id} is listed twice.` });
      seen.add(shard.id);
    });
  });
export type ShardHeartbeatBatch = z.infer<typeof ShardHeartbeatBatch>;

// ---------------------------------------------------------------------------------------------
// Ticket events

/** The bot's own id of an event: a batch sent twice has one effect. */
export const BotEventId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, "Must be 1 to 64 letters, digits, '_', '.', ':' or '-'.");
/** The bot's id of a ticket (usually its channel id). */
export const BotTicketId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Must be 1 to 64 letters, digits, '_' or '-'.");
/** A stored transcript's id (the `:fileid` of /transcript/v2/:server/:fileid). */
export const TranscriptFileId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Must be 1 to 64 letters, digits, '_' or '-'.");

/** An ISO 8601 time with a zone, not before 2015 (Discord) and not far in the future. */
export const EventTime = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 time with a zone, such as 2026-11-23T10:00:00Z.' });

export const FORM_ANSWER_MAX = 4000;
export const CLOSE_REASON_MAX = 1024;
export const FEEDBACK_MAX = 1024;

const eventBase = { id: BotEventId, serverId: Snowflake, ticketId: BotTicketId, at: EventTime };

export const TICKET_EVENT_TYPES = ['opened', 'claimed', 'unclaimed', 'first_response', 'messages', 'closed', 'reopened', 'rated', 'transcript_stored', 'tag_used', 'kept_open'] as const;

export const TicketEvent = z.discriminatedUnion('type', [
  z
    .object({
      ...eventBase,
      type: z.literal('opened'),
      panelId: ShortId,
      openerId: Snowflake,
      /** The ticket's number in the server ({count} of the naming scheme). */
      number: z.int().min(1).max(1_000_000_000),
      answers: z.array(z.object({ question: z.string().min(1).max(45), answer: z.string().max(FORM_ANSWER_MAX) }).strict()).max(5),
    })
    .strict(),
  z.object({ ...eventBase, type: z.literal('claimed'), staffId: Snowflake }).strict(),
  z.object({ ...eventBase, type: z.literal('unclaimed'), staffId: Snowflake }).strict(),
  /** The first message from a support member in the ticket. */
  z.object({ ...eventBase, type: z.literal('first_response'), staffId: Snowflake }).strict(),
  /** Message counts so far (the latest by time wins). */
  z
    .object({ ...eventBase, type: z.literal('messages'), total: z.int().min(0).max(10_000_000), staff: z.int().min(0).max(10_000_000) })
    .strict()
    .refine((e) => e.staff <= e.total, { message: 'staff cannot exceed total', path: ['staff'] }),
  z.object({ ...eventBase, type: z.literal('closed'), closedBy: Snowflake, reason: z.string().max(CLOSE_REASON_MAX).nullable() }).strict(),
  z.object({ ...eventBase, type: z.literal('reopened'), by: Snowflake }).strict(),
  z
    .object({ ...eventBase, type: z.literal('rated'), rating: z.int().min(1).max(5), feedback: z.string().max(FEEDBACK_MAX).nullable() })
    .strict(),
  z.object({ ...eventBase, type: z.literal('transcript_stored'), fileId: TranscriptFileId }).strict(),
  /** A support member posted a tag with the bot's `/tag` command (Statistics counts its uses). */
  z.object({ ...eventBase, type: z.literal('tag_used'), tagId: ShortId, staffId: Snowflake }).strict(),
  /** The opener asked to keep the ticket open (the auto-close warning's button): the inactivity count starts again. */
  z
    .object({ ...eventBase, type: z.literal('kept_open'), by: Snowflake })
    .strict()
    .describe('The opener pressed the auto-close warning\'s Keep open: the inactivity count starts again (docs/api.md, "Auto-close").'),
]);
export type TicketEvent = z.infer<typeof TicketEvent>;

/** A batch's refinement: each event id at most once in `key`'s list (a repeat is an error naming it). */
function eachIdOnce<K extends string>(key: K) {
  return (batch: Record<K, ReadonlyArray<{ id: string }>>, ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    batch[key].forEach((event, index) => {
      if (seen.has(event.id)) ctx.addIssue({ code: 'custom', path: [key, index, 'id'], input: event.id, message: `Event ${event.id} is in the batch twice.` });
      seen.add(event.id);
    });
  };
}

export const TICKET_EVENT_BATCH_MAX = 1000;
export const TicketEventBatch = z
  .object({ events: z.array(TicketEvent).min(1).max(TICKET_EVENT_BATCH_MAX) })
  .strict()
  .superRefine(eachIdOnce('events'));
export type TicketEventBatch = z.infer<typeof TicketEventBatch>;

export const TicketEventBatchResult = z.object({
  /** Events stored now. */
  accepted: z.int(),
  /** Events already stored by an earlier call (same bot, same id): ignored. */
  duplicates: z.int(),
  /** Tickets whose state was recomputed. */
  tickets: z.int(),
});
export type TicketEventBatchResult = z.infer<typeof TicketEventBatchResult>;

// ---------------------------------------------------------------------------------------------
// Transcripts (v2): the ticket's messages as JSON. Hostile input: every viewer renders it as text.

export const TRANSCRIPT_MESSAGES_MAX = 60_000;
/**
 * The messages of a transcript's head (`GET /api/transcripts/v2/:server/:fileid?part=head`): what
 * the viewer paints first while the whole transcript arrives.
 */
export const TRANSCRIPT_HEAD_MESSAGES = 150;
export const TRANSCRIPT_USERS_MAX = 10_000;
/** The upload's size on the wire (gzip) and once inflated. */
export const TRANSCRIPT_UPLOAD_MAX_BYTES = 16 * 1024 * 1024;
export const TRANSCRIPT_JSON_MAX_BYTES = 64 * 1024 * 1024;
/** Attachments the API copies per transcript, and their size. */
export const TRANSCRIPT_ATTACHMENT_MAX_BYTES = 8 * 1024 * 1024;
export const TRANSCRIPT_ATTACHMENTS_TOTAL_MAX_BYTES = 64 * 1024 * 1024;
/** Distinct attachments on Discord's CDN the API copies for one transcript (more: refused, nothing stored). */
export const TRANSCRIPT_ATTACHMENTS_MAX = 2_000;

const text = (max: number) => z.string().max(max);
const url = z.string().max(2048);

export const TranscriptUser = z
  .object({
    id: Snowflake,
    username: text(64),
    displayName: text(64).nullable(),
    avatarUrl: url.nullable(),
    bot: z.boolean(),
    /** A member of the panel's support team when the ticket closed. */
    staff: z.boolean(),
    /** The colour of the member's highest coloured role (0xRRGGBB), or null. */
    colour: z.int().min(0).max(0xffffff).nullable(),
  })
  .strict();
export type TranscriptUser = z.infer<typeof TranscriptUser>;

export const TranscriptRole = z.object({ id: Snowflake, name: text(100), colour: z.int().min(0).max(0xffffff).nullable() }).strict();
export const TranscriptChannel = z.object({ id: Snowflake, name: text(100) }).strict();

export const TranscriptAttachment = z
  .object({
    id: Snowflake,
    filename: text(255),
    contentType: text(255).nullable(),
    size: z.int().min(0),
    /** On upload: the Discord CDN link. Stored: the API's own copy (never expires). */
    url,
    width: z.int().min(0).nullable(),
    height: z.int().min(0).nullable(),
  })
  .strict();
export type TranscriptAttachment = z.infer<typeof TranscriptAttachment>;

export const TranscriptEmbed = z
  .object({
    title: text(256).nullable(),
    description: text(4096).nullable(),
    url: url.nullable(),
    colour: z.int().min(0).max(0xffffff).nullable(),
    author: z.object({ name: text(256), url: url.nullable(), iconUrl: url.nullable() }).strict().nullable(),
    fields: z.array(z.object({ name: text(256), value: text(1024), inline: z.boolean() }).strict()).max(25),
    footer: z.object({ text: text(2048), iconUrl: url.nullable() }).strict().nullable(),
    imageUrl: url.nullable(),
    thumbnailUrl: url.nullable(),
    timestamp: EventTime.nullable(),
  })
  .strict();
export type TranscriptEmbed = z.infer<typeof TranscriptEmbed>;

export const TranscriptEmoji = z.union([
  z.object({ name: text(64) }).strict(),
  z.object({ id: Snowflake, name: text(64), animated: z.boolean() }).strict(),
]);
export type TranscriptEmoji = z.infer<typeof TranscriptEmoji>;

export const TranscriptReaction = z.object({ emoji: TranscriptEmoji, count: z.int().min(1).max(1_000_000) }).strict();
export const TranscriptSticker = z.object({ id: Snowflake, name: text(64), format: z.enum(['png', 'apng', 'lottie', 'gif']) }).strict();

/** System messages the viewer renders as a line of its own, not as a chat message. */
export const TRANSCRIPT_SYSTEM_TYPES = ['pin', 'member_join', 'ticket_opened', 'ticket_claimed', 'ticket_closed', 'ticket_reopened', 'thread_created'] as const;

export const TranscriptMessage = z
  .object({
    id: Snowflake,
    authorId: Snowflake,
    /** Discord markdown, with mentions as <@id>, <@&id>, <#id>. */
    content: text(4000),
    createdAt: EventTime,
    editedAt: EventTime.nullable(),
    /** A system message (rendered as an event line); null: a normal message. */
    system: z.enum(TRANSCRIPT_SYSTEM_TYPES).nullable(),
    replyTo: Snowflake.nullable(),
    embeds: z.array(TranscriptEmbed).max(10),
    attachments: z.array(TranscriptAttachment).max(10),
    reactions: z.array(TranscriptReaction).max(20),
    stickers: z.array(TranscriptSticker).max(3),
  })
  .strict();
export type TranscriptMessage = z.infer<typeof TranscriptMessage>;

export const TranscriptV2 = z
  .object({
    version: z.literal(2),
    server: z.object({ id: Snowflake, name: text(100), iconUrl: url.nullable() }).strict(),
    channel: TranscriptChannel,
    ticket: z
      .object({
        id: BotTicketId,
        number: z.int().min(1),
        panelId: ShortId.nullable(),
        openerId: Snowflake,
        openedAt: EventTime,
        closedAt: EventTime,
        closedBy: Snowflake.nullable(),
        reason: text(CLOSE_REASON_MAX).nullable(),
      })
      .strict(),
    users: z.array(TranscriptUser).max(TRANSCRIPT_USERS_MAX),
    roles: z.array(TranscriptRole).max(1000),
    channels: z.array(TranscriptChannel).max(1000),
    messages: z.array(TranscriptMessage).max(TRANSCRIPT_MESSAGES_MAX),
  })
  .strict()
  .superRefine((transcript, ctx) => {
    const users = new Set(transcript.users.map((u) => u.id));
    if (!users.has(transcript.ticket.openerId)) ctx.addIssue({ code: 'custom', path: ['ticket', 'openerId'], input: transcript.ticket.openerId, message: 'the opener must be in users' });
    for (let i = 0; i < transcript.messages.length; i++) {
      const message = transcript.messages[i]!;
      if (!users.has(message.authorId)) {
        ctx.addIssue({ code: 'custom', path: ['messages', i, 'authorId'], input: message.authorId, message: 'every author must be in users' });
        return;
      }
    }
  });
export type TranscriptV2 = z.infer<typeof TranscriptV2>;

/** A transcript's head: its first TRANSCRIPT_HEAD_MESSAGES messages and how many it has in all. */
export type TranscriptHead = TranscriptV2 & { totalMessages: number };

/** What `PUT /api/bot/v1/servers/:server/transcripts/:fileid` answers. */
export const TranscriptStored = z.object({
  fileId: TranscriptFileId,
  messages: z.int(),
  attachmentsCopied: z.int(),
  /** The inflated JSON's size and what is stored (gzip). */
  bytes: z.int(),
  storedBytes: z.int(),
  /** The viewer's address on the dashboard. */
  url: z.string(),
});
export type TranscriptStored = z.infer<typeof TranscriptStored>;

// ---------------------------------------------------------------------------------------------
// Reading transcripts (the dashboard)

/** One transcript in a list (a server's transcripts, or "Your tickets"). */
export const TranscriptSummary = z.object({
  serverId: z.string(),
  serverName: z.string(),
  fileId: z.string(),
  ticketId: z.string(),
  number: z.int().nullable(),
  panelId: z.string().nullable(),
  opener: z.object({ id: z.string(), name: z.string() }),
  closedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  openedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  messages: z.int(),
  rating: z.int().nullable(),
});
export type TranscriptSummary = z.infer<typeof TranscriptSummary>;

export const TRANSCRIPT_LIST_PAGE = 50;

export const TranscriptListQuery = z
  .object({
    opener: Snowflake.optional(),
    closer: Snowflake.optional(),
    panel: ShortId.optional(),
    rating: z.coerce.number().int().min(1).max(5).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    /** Words in the messages (case-insensitive). */
    q: z.string().min(1).max(100).optional(),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/).optional(),
  })
  .strict();
export type TranscriptListQuery = z.infer<typeof TranscriptListQuery>;

export const TranscriptList = z.object({ items: z.array(TranscriptSummary), nextCursor: z.string().nullable() });
export type TranscriptList = z.infer<typeof TranscriptList>;

/** Why the signed-in user may read a transcript (the viewer says so); 'staff': a staff member's read-only view. */
export const TRANSCRIPT_ACCESS_REASONS = ['opener', 'manager', 'support', 'staff'] as const;
export type TranscriptAccessReason = (typeof TRANSCRIPT_ACCESS_REASONS)[number];

// ---------------------------------------------------------------------------------------------
// Live messages of open tickets (`POST /api/bot/v1/messages`): what the dashboard's conversation
// shows while the ticket is open. Deleted once the ticket's transcript is stored.

const messageEventBase = { id: BotEventId, serverId: Snowflake, ticketId: BotTicketId, at: EventTime };

export const TicketMessageEvent = z.discriminatedUnion('type', [
  /** A message was posted: as a transcript has it, with its author. */
  z.object({ ...messageEventBase, type: z.literal('message_created'), message: TranscriptMessage, author: TranscriptUser }).strict(),
  /** A message's text, embeds or attachments changed (`at`: when; an older edit than the one stored changes nothing). */
  z
    .object({
      ...messageEventBase,
      type: z.literal('message_edited'),
      messageId: Snowflake,
      content: text(4000),
      embeds: z.array(TranscriptEmbed).max(10),
      attachments: z.array(TranscriptAttachment).max(10),
    })
    .strict(),
  /** A message was deleted: it stays deleted, whatever arrives after. */
  z.object({ ...messageEventBase, type: z.literal('message_deleted'), messageId: Snowflake }).strict(),
]);
export type TicketMessageEvent = z.infer<typeof TicketMessageEvent>;

export const TICKET_MESSAGE_BATCH_MAX = 1000;
export const TicketMessageBatch = z
  .object({ messages: z.array(TicketMessageEvent).min(1).max(TICKET_MESSAGE_BATCH_MAX) })
  .strict()
  .superRefine(eachIdOnce('messages'));
export type TicketMessageBatch = z.infer<typeof TicketMessageBatch>;

export const TicketMessageBatchResult = z.object({
  /** Messages whose stored state changed (posted, edited to something newer, deleted). */
  changed: z.int(),
  /** Messages the batch left as they were: seen before, an older edit, already deleted, or of a closed ticket. */
  unchanged: z.int(),
});
export type TicketMessageBatchResult = z.infer<typeof TicketMessageBatchResult>;

// ---------------------------------------------------------------------------------------------
// Tags (canned replies): what the bot's `/tag` command offers and posts

/** Discord's autocomplete shows at most 25 choices: the most a search answers. */
export const BOT_TAGS_MAX = 25;
/** `GET /api/bot/v1/servers/:server/tags?q=`: `q` matches names and keywords (case-insensitive); empty: all, by name. */
export const BotTagsQuery = z.object({ q: z.string().max(100, 'q may be at most 100 characters.').default('') });
export type BotTagsQuery = z.infer<typeof BotTagsQuery>;
export const BotTagList = z.object({
  /** The configuration version the tags are from. */
  version: z.int(),
  tags: z.array(Tag),
});
export type BotTagList = z.infer<typeof BotTagList>;
/** What `GET /api/bot/v1/servers/:server/config` gives and what the bot must do with it (the OpenAPI document's words; docs/api.md says more). */
export const BOT_CONFIG_DESCRIPTION = [
  "The server's live configuration (`ServerConfig`, packages/api-contract/src/server-config) and its version; send the weak ETag back in If-None-Match for a 304 while nothing changed.",
  '`config.blocklist` (`BlockEntry[]`): before opening a ticket, refuse it (open nothing) when the member, or one of their roles, is listed and the entry has no `expiresAt` or one later than now; answer the member ephemerally, in `config.general.language`, with the `reason` and until when (`expiresAt` as a Discord timestamp, or that it lasts until removed).',
].join(' ');

/**
 * The bot API's second direction: what the dashboard asks a bot to do in a ticket (docs/api.md, "Bot
 * commands"). The API queues a command in PostgreSQL; a bot takes it with `GET
 * /api/bot/v1/commands?wait=25` (a long poll) and reports its outcome with `POST
 * /api/bot/v1/commands/:id/result`. A command not taken within BOT_COMMAND_TTL_SECONDS expires; one
 * taken but not reported within BOT_COMMAND_LEASE_SECONDS is offered again, with the same id and the
 * next `attempt`, so a bot that died mid-command does not lose it (at-least-once): a bot makes it
 * harmless by its id (a reply's nonce: the id without `cmd_`, cut to Discord's 25 characters, with
 * `enforce_nonce`). A ticket's commands are handed out one at a time, in the order they were queued.
 */
import { z } from './zod-setup';
import { BotTicketId, CLOSE_REASON_MAX } from './bot-api';
import { Snowflake } from './auth';
import { discordLength, MESSAGE_CONTENT_MAX } from './server-config/limits';
import { TagId } from './server-config/automation';

/** Seconds a queued command waits for a bot to take it; then it expires (the dashboard says so). */
export const BOT_COMMAND_TTL_SECONDS = 60;
/** Seconds a bot has to report a command it took; then the command is offered again (while its time lasts). */
export const BOT_COMMAND_LEASE_SECONDS = 30;
/** The longest `wait` of a poll (seconds): under the 30 s most proxies allow an idle request. */
export const BOT_COMMANDS_WAIT_MAX_SECONDS = 25;
/** The most commands one poll answers (`max`). */
export const BOT_COMMANDS_TAKE_MAX = 20;
/** A ticket may carry at most this many labels (a server defines at most 25). */
export const TICKET_LABELS_MAX = 25;

export const BOT_COMMAND_KINDS = ['reply', 'claim', 'unclaim', 'close', 'add_member', 'set_labels'] as const;
export const BotCommandKind = z.enum(BOT_COMMAND_KINDS);
export type BotCommandKind = z.infer<typeof BotCommandKind>;

/** A command's id: `cmd_` and 26 random base32 characters. */
export const BotCommandId = z.string().regex(/^cmd_[a-z2-7]{26}$/, 'Must be a command id (cmd_ and 26 letters or digits).');

/** Reply text as Discord counts it: 1 to 2000 code points, not only blanks. */
export const ReplyContent = z
  .string()
  .refine((text) => text.trim().length > 0, 'A reply needs some text.')
  .refine((text) => discordLength(text) <= MESSAGE_CONTENT_MAX, `A reply may be at most ${MESSAGE_CONTENT_MAX} characters as Discord counts them.`);

/** A file staff attached to a reply: the bot downloads it from `url` (`GET /api/bot/v1/attachments/:id`, with its key) and posts it with the text. */
export const ReplyFile = z.object({ filename: z.string().min(1).max(255), contentType: z.string().min(1).max(255), size: z.int().min(0), url: z.string().min(1) }).strict();
export type ReplyFile = z.infer<typeof ReplyFile>;
/** The most files one reply carries (Discord allows 10 a message). */
const REPLY_FILES_MAX = 10;

/** A tag's embed as Discord takes it (`embedPayload` of the tag's `EmbedConfig`). */
export const ReplyEmbed = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    color: z.int().min(0).max(0xffffff).optional(),
    image: z.object({ url: z.string() }).optional(),
    thumbnail: z.object({ url: z.string() }).optional(),
    footer: z.object({ text: z.string() }).optional(),
  })
  .strict();
export type ReplyEmbed = z.infer<typeof ReplyEmbed>;

const replyShape = {
  kind: z.literal('reply'),
  /** Empty only for a reply from a tag with an embed and no text (then `embed` is the message). */
  content: z.string().refine((text) => discordLength(text) <= MESSAGE_CONTENT_MAX, `A reply may be at most ${MESSAGE_CONTENT_MAX} characters as Discord counts them.`),
  attachments: z.array(ReplyFile).max(REPLY_FILES_MAX).optional(),
  /** The tag the reply was written from (Statistics counts it once the bot reports the reply done). */
  tagId: TagId.optional(),
  /** That tag's embed, posted with the text. */
  embed: ReplyEmbed.optional(),
};
const claimShape = { kind: z.literal('claim') };
const unclaimShape = { kind: z.literal('unclaim') };
const closeShape = { kind: z.literal('close'), reason: z.string().max(CLOSE_REASON_MAX).nullable() };
const addMemberShape = { kind: z.literal('add_member'), userId: Snowflake };
const setLabelsShape = { kind: z.literal('set_labels'), labels: z.array(z.string().min(1).max(32)).max(TICKET_LABELS_MAX) };

/** What each kind of command carries besides its common fields (as the dashboard asks: nothing else). */
export const BotCommandPayload = z.discriminatedUnion('kind', [
  z.object(replyShape).strict(),
  z.object(claimShape).strict(),
  z.object(unclaimShape).strict(),
  z.object(closeShape).strict(),
  z.object(addMemberShape).strict(),
  z.object(setLabelsShape).strict(),
]);
export type BotCommandPayload = z.infer<typeof BotCommandPayload>;

/** The staff member a command acts for: a reply is posted under this name and avatar. */
export const CommandRequester = z.object({ id: Snowflake, name: z.string(), avatarUrl: z.string().nullable() });
export type CommandRequester = z.infer<typeof CommandRequester>;

/** What every command carries, whatever its kind. */
const commandFields = {
  id: BotCommandId,
  serverId: Snowflake,
  ticketId: BotTicketId,
  requestedBy: CommandRequester,
  requestedAt: z.string(),
  /** 1 on first delivery; more when an earlier taker did not report within the lease. Send it back with the report. */
  attempt: z.int().min(1),
  /** Report the outcome before this time, or the command is offered again (or ends as lost). */
  leaseUntil: z.string(),
};

/**
 * A command as a bot receives it. Not strict: a later version may add fields (ignore them) and kinds
 * (report them failed with the reason `unsupported`).
 */
export const BotCommand = z.discriminatedUnion('kind', [
  z.object({ ...replyShape, ...commandFields }),
  z.object({ ...claimShape, ...commandFields }),
  z.object({ ...unclaimShape, ...commandFields }),
  z.object({ ...closeShape, ...commandFields }),
  z.object({ ...addMemberShape, ...commandFields }),
  z.object({ ...setLabelsShape, ...commandFields }),
]);
export type BotCommand = z.infer<typeof BotCommand>;

/** `GET /api/bot/v1/commands?wait=&max=`. */
export const BotCommandsQuery = z.object({
  wait: z.coerce.number().int().min(0).max(BOT_COMMANDS_WAIT_MAX_SECONDS).default(BOT_COMMANDS_WAIT_MAX_SECONDS),
  max: z.coerce.number().int().min(1).max(BOT_COMMANDS_TAKE_MAX).default(BOT_COMMANDS_TAKE_MAX),
});
export const BotCommandBatch = z.object({ commands: z.array(BotCommand) });
export type BotCommandBatch = z.infer<typeof BotCommandBatch>;

/** Why Discord refused a command, as the bot reports it (the dashboard explains each). */
export const COMMAND_FAILURES = ['missing_permission', 'channel_gone', 'member_gone', 'ticket_closed', 'rate_limited', 'unsupported', 'other'] as const;
export const CommandFailure = z.enum(COMMAND_FAILURES);
export type CommandFailure = z.infer<typeof CommandFailure>;

/** `POST /api/bot/v1/commands/:id/result`: the outcome, and the `attempt` the command came with. */
export const BotCommandResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('done'), attempt: z.int().min(1), messageId: Snowflake.optional() }).strict(),
  z.object({ outcome: z.literal('failed'), attempt: z.int().min(1), reason: CommandFailure, message: z.string().max(500).optional() }).strict(),
]);
export type BotCommandResult = z.infer<typeof BotCommandResult>;

/**
 * Where a command stands: `queued` (waiting for a bot), `taken` (a bot has it), `done`, `failed`
 * (Discord refused, with the bot's reason), `expired` (no bot took it in time) or `lost` (a bot took
 * it and never reported, and its time ran out: it may or may not have happened).
 */
export const COMMAND_STATES = ['queued', 'taken', 'done', 'failed', 'expired', 'lost'] as const;
export const CommandState = z.enum(COMMAND_STATES);
export type CommandState = z.infer<typeof CommandState>;

export const BotCommandParams = z.object({ id: BotCommandId });
export const BotCommandResultAnswer = z.object({ id: BotCommandId, state: CommandState });
export type BotCommandResultAnswer = z.infer<typeof BotCommandResultAnswer>;

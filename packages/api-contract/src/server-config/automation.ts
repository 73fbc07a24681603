/**
 * The automation settings of a server (the Automation page, `/dashboard/:server/configs/automation`):
 * auto-close rules, tags (canned replies), the blocklist and feedback after close. Each is part of
 * the configuration (versioned, in Web Logs, in export and import) and read by the bot with the rest
 * of it (`GET /api/bot/v1/servers/:server/config`). A panel may override the auto-close rules and
 * whether feedback is asked (`Panel.autoClose`, `Panel.feedback`: null, the server's).
 */
import { z } from '../zod-setup';
import { Snowflake } from '../auth';
import { EmbedConfig } from './embed';
import { discordText, forEachDuplicate, formatCount, ShortId } from './fields';
import { MESSAGE_CONTENT_MAX } from './limits';
import type { Locale } from '../locales';

// ---- Auto-close ----

/** The longest an auto-close rule may wait: 30 days. */
export const AUTO_CLOSE_HOURS_MAX = 24 * 30;
/** The earliest a warning may come before the close: up to 7 days. */
export const AUTO_CLOSE_WARNING_HOURS_MAX = 24 * 7;

const hours = (max: number, what: string, min = 1) =>
  z
    .int({ error: `The ${what} must be a whole number of hours.` })
    .min(min, `The ${what} must be at least ${min} hour${min === 1 ? '' : 's'}.`)
    .max(max, `The ${what} can be at most ${formatCount(max)} hours.`);

/**
 * When the bot closes a ticket by itself. The inactivity rules count from the last message of the
 * one who should answer: `memberSilentHours` after a staff member's message the member has not
 * answered, `staffSilentHours` after the member's message (the opening included) no staff member has
 * answered. Before an inactivity close the bot posts the warning (unless `warningHours` is 0) with a
 * "Keep open" button: pressing it, or any message from the member, starts the count again.
 */
export const AutoCloseRules = z
  .object({
    /** Hours without a message from the member after a staff reply; null: never. */
    memberSilentHours: hours(AUTO_CLOSE_HOURS_MAX, 'wait for the member').nullable(),
    /** Hours without a staff answer to the member; null: never. */
    staffSilentHours: hours(AUTO_CLOSE_HOURS_MAX, 'wait for staff').nullable(),
    /** Close a ticket when its opener leaves the server. */
    onOpenerLeave: z.boolean(),
    /** How many hours before an inactivity close the bot warns; 0: no warning. */
    warningHours: hours(AUTO_CLOSE_WARNING_HOURS_MAX, 'warning', 0),
    /** The warning's text ({user}: the member, {time}: when it closes); empty: the bot's own, in the server's language. */
    warningMessage: discordText(MESSAGE_CONTENT_MAX),
  })
  .strict()
  .superRefine((rules, ctx) => {
    const waits = [rules.memberSilentHours, rules.staffSilentHours].filter((h): h is number => h !== null);
    const shortest = Math.min(...waits);
    if (rules.warningHours > 0 && waits.length > 0 && rules.warningHours >= shortest) {
      ctx.addIssue({
        code: 'custom',
        path: ['warningHours'],
        input: rules.warningHours,
        message: `The warning must come before the close: less than ${formatCount(shortest)} hours.`,
      });
    }
  })
  .describe(
    'When the bot closes a ticket by itself (config.autoClose; a panel\'s autoClose, null: the server\'s). The due time: docs/api.md, "Auto-close"; the bot reports the close as a closed event whose reason names the rule.',
  );
export type AutoCloseRules = z.infer<typeof AutoCloseRules>;

export function defaultAutoCloseRules(): AutoCloseRules {
  return { memberSilentHours: null, staffSilentHours: null, onOpenerLeave: false, warningHours: 0, warningMessage: '' };
}

// ---- Tags ----

/** Tags one server may store (a bound on the stored size; the plan's `limits.tags` is lower). */
export const TAGS_MAX = 500;
/** What free servers get (the plan catalogue's free plan says the same: `limits.tags`). */
export const FREE_TAG_LIMIT = 50;
export const TAG_NAME_MAX = 32;
/** A tag's name: what `/tag name:` takes (lower-case, as Discord's autocomplete matches it). */
export const TAG_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const TAG_KEYWORDS_MAX = 10;
export const TAG_KEYWORD_MAX = 32;

export const TagId = ShortId;
/** A canned reply: posted by the bot (`/tag` in Discord) or put in the dashboard's reply box (`/`). */
export const Tag = z
  .object({
    id: TagId,
    name: z
      .string()
      .regex(TAG_NAME_PATTERN, `A tag's name is 1 to ${TAG_NAME_MAX} lower-case letters, digits, '-' or '_', starting with a letter or digit.`),
    /** The message's text; may be empty when it has an embed. */
    content: discordText(MESSAGE_CONTENT_MAX),
    embed: EmbedConfig.nullable(),
    /** Words that also find it when searching (the name always does). */
    keywords: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'A keyword must not be empty.')
          .max(TAG_KEYWORD_MAX, `A keyword may be at most ${TAG_KEYWORD_MAX} characters.`),
      )
      .max(TAG_KEYWORDS_MAX, `A tag may have at most ${TAG_KEYWORDS_MAX} keywords.`),
  })
  .strict()
  .superRefine((tag, ctx) => {
    if (tag.content.trim() === '' && tag.embed === null) {
      ctx.addIssue({ code: 'custom', path: ['content'], input: tag.content, message: 'A tag needs a message: write its text or add an embed.' });
    }
  });
export type Tag = z.infer<typeof Tag>;

/**
 * The tags a search finds, best first: `query` (case-insensitive, trimmed; a leading `/` ignored)
 * matched against the name, then the keywords: a name equal to it, a name starting with it, a keyword
 * starting with it, a name containing it, a keyword containing it; ties by name. An empty query finds
 * every tag, by name. The bot API's `/tag` search and the reply box's `/` list both use it.
 */
export function searchTags<T extends Pick<Tag, 'name' | 'keywords'>>(tags: readonly T[], query: string, max = Number.POSITIVE_INFINITY): T[] {
  const needle = query.trim().replace(/^\//, '').toLowerCase();
  const rank = (tag: T): number => {
    if (needle === '') return 0;
    const keywords = tag.keywords.map((keyword) => keyword.toLowerCase());
    if (tag.name === needle) return 0;
    if (tag.name.startsWith(needle)) return 1;
    if (keywords.some((keyword) => keyword.startsWith(needle))) return 2;
    if (tag.name.includes(needle)) return 3;
    if (keywords.some((keyword) => keyword.includes(needle))) return 4;
    return -1;
  };
  return tags
    .map((tag) => ({ tag, rank: rank(tag) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || (a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0))
    .slice(0, max)
    .map((entry) => entry.tag);
}

// ---- Blocklist ----

/** Entries one server may store (a bound on the stored size; the plan's `limits.blocklist` is lower). */
export const BLOCKLIST_MAX = 1000;
/** What free servers get (the plan catalogue's free plan says the same: `limits.blocklist`). */
export const FREE_BLOCKLIST_LIMIT = 100;
export const BLOCK_REASON_MAX = 200;
export const BLOCK_KINDS = ['user', 'role'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

const instant = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 time with a zone, such as 2026-11-23T10:00:00Z.' });

/**
 * A user, or the members of a role, who may not open tickets. `addedBy` and `addedAt` are the
 * server's word: the API sets them when an entry is first saved (a client's values are replaced).
 * An entry past its `expiresAt` no longer blocks (the bot ignores it; the dashboard shows it expired).
 */
export const BlockEntry = z
  .object({
    kind: z.enum(BLOCK_KINDS, { error: 'Must be user or role.' }),
    id: Snowflake,
    reason: z
      .string()
      .trim()
      .min(1, 'Give a reason: the member is told it.')
      .max(BLOCK_REASON_MAX, `A reason may be at most ${BLOCK_REASON_MAX} characters.`),
    addedBy: Snowflake,
    addedAt: instant,
    /** Null: until removed. */
    expiresAt: instant.nullable(),
  })
  .strict();
export type BlockEntry = z.infer<typeof BlockEntry>;

// ---- Feedback ----

export const FEEDBACK_QUESTION_MAX = 200;
/**
 * After a ticket closes the bot asks its opener for a rating (1 to 5) and a comment, reported as the
 * `rated` event. On for the panels whose `feedback` is true, or null while `enabled` is.
 */
export const FeedbackSettings = z
  .object({
    enabled: z.boolean(),
    /** The question; empty: the bot's own, in the server's language. */
    question: discordText(FEEDBACK_QUESTION_MAX),
  })
  .strict();
export type FeedbackSettings = z.infer<typeof FeedbackSettings>;

export function defaultFeedbackSettings(): FeedbackSettings {
  return { enabled: false, question: '' };
}

/**
 * What the bot sends the opener (a direct message) in the server's language (`general.language`):
 * its own question when `question` is empty, and the line under it. The dashboard's preview and the
 * demo bot (packages/sandbox/src/demo-bot/feedback.ts, which cannot import this) say the same.
 */
export const FEEDBACK_BOT_TEXT: Record<Locale, { question: string; closed: string; comment: string; placeholder: string; thanks: string }> = {
  en: {
    question: 'How did we do? Rate your ticket from 1 to 5 stars and tell us what you think.',
    closed: 'Your ticket #{number} in {server} was closed.',
    comment: 'A comment (optional)',
    placeholder: 'What went well, what could be better?',
    thanks: 'Thanks for your feedback!',
  },
  de: {
    question: 'Wie haben wir dir geholfen? Bewerte dein Ticket mit 1 bis 5 Sternen und sag uns deine Meinung.',
    closed: 'Dein Ticket #{number} auf {server} wurde geschlossen.',
    comment: 'Ein Kommentar (optional)',
    placeholder: 'Was war gut, was können wir besser machen?',
    thanks: 'Danke für dein Feedback!',
  },
};

/** Whether the bot asks for feedback when a ticket of `panel` closes (the panel's choice, else the server's). */
export function feedbackWanted(feedback: FeedbackSettings, panel: { feedback: boolean | null }): boolean {
  return panel.feedback ?? feedback.enabled;
}

/** The configuration's automation fields (versions saved before they existed read as the defaults). */
export const automationShape = {
  autoClose: AutoCloseRules.default(defaultAutoCloseRules),
  tags: z.array(Tag).max(TAGS_MAX, `A server can have at most ${formatCount(TAGS_MAX)} tags.`).default([]),
  blocklist: z.array(BlockEntry).max(BLOCKLIST_MAX, `A blocklist can have at most ${formatCount(BLOCKLIST_MAX)} entries.`).default([]),
  feedback: FeedbackSettings.default(defaultFeedbackSettings),
};

interface AutomationLimits {
  tagLimit?: number;
  blocklistLimit?: number;
  premium?: boolean;
  premiumTagLimit?: number;
  premiumBlocklistLimit?: number;
}

function overLimit(count: number, limit: number, what: string, premium: boolean | undefined, premiumLimit: number | undefined): string {
  const base = `This server can have at most ${formatCount(limit)} ${what} (this configuration has ${formatCount(count)}).`;
  if (premium === true) return `${base} Remove some to save.`;
  const to = premiumLimit !== undefined && premiumLimit > limit ? ` to ${formatCount(premiumLimit)}` : '';
  return `${base} Remove some, or get premium to raise the limit${to}.`;
}

/** The cross-field checks of the automation fields (names and entries once each, the plan's limits). */
export function checkAutomation(
  config: { tags: Tag[]; blocklist: BlockEntry[] },
  options: AutomationLimits,
  ctx: z.RefinementCtx,
): void {
  const { tags, blocklist } = config;
  if (options.tagLimit !== undefined && tags.length > options.tagLimit) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: options.tagLimit,
      inclusive: true,
      path: ['tags'],
      input: tags,
      message: overLimit(tags.length, options.tagLimit, 'tags', options.premium, options.premiumTagLimit),
    });
  }
  if (options.blocklistLimit !== undefined && blocklist.length > options.blocklistLimit) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: options.blocklistLimit,
      inclusive: true,
      path: ['blocklist'],
      input: blocklist,
      message: overLimit(blocklist.length, options.blocklistLimit, 'blocklist entries', options.premium, options.premiumBlocklistLimit),
    });
  }
  forEachDuplicate(
    tags,
    (tag) => tag.id,
    (index) => ctx.addIssue({ code: 'custom', path: ['tags', index, 'id'], input: tags[index]?.id, message: 'Another tag already has this id: each tag needs its own.' }),
  );
  forEachDuplicate(
    tags,
    (tag) => tag.name,
    (index) =>
      ctx.addIssue({ code: 'custom', path: ['tags', index, 'name'], input: tags[index]?.name, message: `Another tag is already called "${tags[index]?.name}": each name once.` }),
  );
  forEachDuplicate(
    blocklist,
    (entry) => `${entry.kind}:${entry.id}`,
    (index) =>
      ctx.addIssue({
        code: 'custom',
        path: ['blocklist', index, 'id'],
        input: blocklist[index]?.id,
        message: `This ${blocklist[index]?.kind ?? 'user'} is already on the blocklist: change that entry instead.`,
      }),
  );
}

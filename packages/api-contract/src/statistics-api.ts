/**
 * Statistics (`GET /api/guilds/:server/statistics`): a server's tickets over a range of calendar days
 * in a time zone, with the previous range of the same length to compare. Computed by the API in SQL
 * from the tickets the bot reported.
 */
import { z } from './zod-setup';
import { ShortId } from './server-config/fields';
import { isTimeZone } from './server-config/support-hours';

export const STATISTICS_RANGES = ['7d', '30d', '90d', 'custom'] as const;
export type StatisticsRange = (typeof STATISTICS_RANGES)[number];
/** The longest custom range any plan may have. */
export const STATISTICS_DAYS_MAX = 366;

/** A calendar day that exists ("2026-02-30" does not: Date.parse would roll it into March). */
function realDay(day: string): boolean {
  const at = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === day;
}
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD').refine(realDay, 'must be a day of the calendar (2026-02-30 is not)');

const statisticsQueryShape = {
  range: z.enum(STATISTICS_RANGES).default('7d'),
  /** Custom ranges: the first and last day (both included). */
  from: Day.optional(),
  to: Day.optional(),
  /** The days' time zone (IANA); default the server's (`serverTz` of the answer), else UTC. */
  tz: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin').optional(),
  /** Only tickets carrying this label (a label id of the configuration; an unknown id counts nothing). */
  label: ShortId.optional(),
};

function checkRange(query: { range: StatisticsRange; from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (query.range === 'custom') {
    if (!query.from || !query.to) ctx.addIssue({ code: 'custom', path: ['from'], input: query.from, message: 'a custom range needs from and to' });
    else if (Number.isNaN(Date.parse(`${query.from}T00:00:00Z`)) || Number.isNaN(Date.parse(`${query.to}T00:00:00Z`))) ctx.addIssue({ code: 'custom', path: ['from'], input: query.from, message: 'from and to must be real dates' });
    else if (query.from > query.to) ctx.addIssue({ code: 'custom', path: ['to'], input: query.to, message: 'to must not be before from' });
    else if ((Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / 86_400_000 + 1 > STATISTICS_DAYS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['to'], input: query.to, message: `a range is at most ${STATISTICS_DAYS_MAX} days` });
    }
  } else if (query.from || query.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], input: query.from, message: 'from and to go with range=custom only' });
  }
}

export const StatisticsQuery = z.object(statisticsQueryShape).strict().superRefine(checkRange);
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

/** Durations are seconds; null where no ticket counts. */
export const StatisticsTotals = z.object({
  opened: z.int(),
  closed: z.int(),
  /** Tickets open at the end of the range. */
  backlog: z.int(),
  firstResponseMedian: z.number().nullable(),
  firstResponseP90: z.number().nullable(),
  resolutionMedian: z.number().nullable(),
  resolutionP90: z.number().nullable(),
  ratingAverage: z.number().nullable(),
  rated: z.int(),
});
export type StatisticsTotals = z.infer<typeof StatisticsTotals>;

export const StatisticsAnswer = z.object({
  range: z.enum(STATISTICS_RANGES),
  /** The time zone the days and hours are in. */
  tz: z.string(),
  /**
   * The server's time zone: the one its panels' support hours use (the most common, if they differ),
   * or null when no panel has support hours. The default when the query names none.
   */
  serverTz: z.string().nullable(),
  /** The days shown (both included) and the previous range's. */
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  totals: StatisticsTotals,
  previous: StatisticsTotals,
  daily: z.array(z.object({ date: z.string(), opened: z.int(), closed: z.int(), backlog: z.int() })),
  /** Tickets opened in the range, by panel. */
  panels: z.array(
    z.object({ panelId: z.string(), opened: z.int(), closed: z.int(), firstResponseMedian: z.number().nullable(), resolutionMedian: z.number().nullable(), ratingAverage: z.number().nullable() }),
  ),
  /** Tickets closed in the range, by who handled them (claimed, else first answered). */
  staff: z.array(
    z.object({ userId: z.string(), name: z.string().nullable(), handled: z.int(), firstResponseMedian: z.number().nullable(), resolutionMedian: z.number().nullable(), ratingAverage: z.number().nullable() }),
  ),
  /** Ratings given to tickets closed in the range: counts of 1 to 5 stars. */
  ratings: z.array(z.int()).length(5),
  /** Tickets opened in the range by hour of day (0-23, in the time zone). */
  hours: z.array(z.int()).length(24),
  /** Tags used in the range (`/tag` in Discord, and dashboard replies from a tag that the bot posted), most used first. */
  tags: z.array(z.object({ tagId: z.string(), uses: z.int() })),
  /** What the server's plan allows (the plan catalogue). */
  limits: z.object({ days: z.int(), export: z.boolean(), premium: z.boolean() }),
});
export type StatisticsAnswer = z.infer<typeof StatisticsAnswer>;

// ---- Feedback comments (`GET /api/guilds/:server/statistics/feedback`) ----

/** Comments a page of the list holds (newest first; `nextCursor` reads on). */
export const FEEDBACK_COMMENTS_PAGE = 20;

/** The statistics' range, label and zone (the same tickets: closed in the range), and where to read on. */
export const FeedbackCommentsQuery = z
  .object({ ...statisticsQueryShape, cursor: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a cursor this list gave out').optional() })
  .strict()
  .superRefine(checkRange);
export type FeedbackCommentsQuery = z.infer<typeof FeedbackCommentsQuery>;

/** A rating given with a comment (the `rated` event's `feedback`), for a ticket closed in the range. */
export const FeedbackComment = z.object({
  ticketId: z.string(),
  number: z.int().nullable(),
  panelId: z.string().nullable(),
  /** The opener as the transcript or the dashboard knows them (name null: neither does). */
  opener: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  /** Who handled it (claimed, else first answered), as in the staff table. */
  handledBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  rating: z.int().min(1).max(5),
  comment: z.string(),
  closedAt: z.string(),
  /** The transcript's file id (the viewer: `/transcript/v2/:server/:fileId`), null while there is none. */
  transcriptFileId: z.string().nullable(),
});
export type FeedbackComment = z.infer<typeof FeedbackComment>;

export const FeedbackComments = z.object({
  /** Comments in the range (every page together). */
  total: z.int(),
  items: z.array(FeedbackComment),
  nextCursor: z.string().nullable(),
});
export type FeedbackComments = z.infer<typeof FeedbackComments>;

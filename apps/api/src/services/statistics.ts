import { FEEDBACK_COMMENTS_PAGE, type FeedbackComments, type FeedbackCommentsQuery, type Guild, type Plan, type ServerConfig, type StatisticsAnswer, type StatisticsQuery, type StatisticsTotals } from '@tickety/api-contract';
import type { Db } from '../db/driver';
import type { Clock } from '../lib/clock';
import { ApiHttpError } from '../lib/errors';
import { serverHasPremium } from './premium';
import type { StaffNames } from './staff-names';

const DAY_MS = 86_400_000;

/** The time zone most of the server's panels' support hours use (the first such panel's on a tie), or null. */
export function serverTimeZone(config: ServerConfig): string | null {
  const counts = new Map<string, number>();
  for (const panel of config.panels ?? []) {
    const zone = panel.supportHours?.timeZone;
    if (zone) counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [zone, count] of counts) if (best === null || count > counts.get(best)!) best = zone;
  return best;
}

/** `day` ± `count` days (YYYY-MM-DD). */
function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar day of `ms` in `tz` (YYYY-MM-DD). */
function dayIn(ms: number, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** A local midnight as SQL: `$n` is a date, `$tz` the zone. */
const midnight = (day: string, tz: string) => `((${day})::date::timestamp AT TIME ZONE ${tz})`;

/**
 * The range's bounds as expressions of the parameters ($2 from, $3 to, $4 zone), written into each
 * condition rather than read from a CTE: the planner then knows them and picks the index that fits
 * (a CTE's values are unknown when planning, and it guessed a scan of the server's whole history).
 */
const RANGE_START = midnight('$2', '$4');
/** The local midnight after the range's last day (not 24 hours after its start: a day can have 23 or 25). */
const RANGE_END = midnight('$3::date + 1', '$4');

/**
 * Whether every local midnight of the range, and the one ending it, falls on a quarter hour of UTC,
 * the roll-up's slots (migration 012): true for every zone's offsets in use today, false for some
 * older offsets (Monrovia's −0:44:30 until 1972), where the counts are read from the tickets.
 */
const ON_SLOTS = `(SELECT bool_and(mod(extract(epoch FROM ${midnight('g.d', '$4')}), 900) = 0) FROM generate_series($2::date, $3::date + 1, interval '1 day') AS g(d))`;

/**
 * Only tickets carrying the label `$5` (null: all). The roll-up (ticket_slots) has no labels: with a
 * label, days and hours are counted from the tickets, as for zones off the quarter hours.
 */
const LABEL = '($5::text IS NULL OR t.labels @> ARRAY[$5::text])';
const SLOTS_USABLE = `${ON_SLOTS} AND $5::text IS NULL`;
const FROM_TICKETS = `(NOT ${ON_SLOTS} OR $5::text IS NOT NULL) AND ${LABEL}`;

/**
 * The server's tickets matching `where`, in the order a percentile needs (`orderBy`): migration 010's
 * indexes hold the durations in that order, so over a long range PostgreSQL reads them sorted and
 * the percentile's own sort finds its input in order; over a short one it reads the range by date
 * and sorts its few rows. The planner picks by the range's size.
 */
const ordered = (columns: string, where: string, orderBy: string) => `SELECT ${columns} FROM tickets t WHERE t.guild_id = $1 AND ${LABEL} AND ${where} ORDER BY ${orderBy}`;

/** A duration in whole seconds, or an average to two decimals; null stays null. */
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100);
const secs = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v)));

interface CommentRow {
  bot_id: string;
  ticket_id: string;
  number: number | null;
  panel_id: string | null;
  opener_id: string | null;
  opener_name: string | null;
  handled_by: string | null;
  handler_name: string | null;
  rating: number;
  feedback: string | null;
  closed_at: Date | string;
  file_id: string | null;
}

/** Where a page of comments ends: the last one's close time, bot and ticket (base64url). */
function commentCursor(cursor: string): { at: string; botId: string; ticketId: string } {
  const [at, botId, ticketId, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !botId || !ticketId || rest.length > 0 || Number.isNaN(Date.parse(at))) {
    throw new ApiHttpError('VALIDATION_FAILED', { message: 'cursor: not a cursor this list gave out.' });
  }
  return { at: new Date(at).toISOString(), botId, ticketId };
}

/**
 * Statistics of a server's tickets, in SQL over `tickets` (one row per ticket, kept by the bot API):
 * a range of calendar days in a time zone and the range before it. A ticket counts as opened on the
 * day it opened, closed on the day of its last close; first-response time is first staff answer −
 * opened, resolution is last close − opened; the backlog at a moment is what was opened and not yet
 * closed then. Who handled a ticket: who claimed it, else who answered first.
 */
export class Statistics {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: Plan[],
    /** The server's time zone (see StatisticsAnswer.serverTz), read fresh for each answer. */
    private readonly serverTimeZone: (guildId: string) => Promise<string | null> = async () => null,
    /** Names the staff who never signed in (the Statistics page); without it they keep their ids. */
    private readonly staffNames: StaffNames | null = null,
  ) {}

  /** The Statistics page's answer: the range's statistics, with the staff named where the bot can. */
  async page(guild: Guild, query: StatisticsQuery, timing?: (name: string, ms: number) => void): Promise<StatisticsAnswer> {
    const answer = await this.read(guild.id, query, timing);
    await this.staffNames?.fill(guild, answer.staff);
    return answer;
  }

  /**
   * One statistics query, in a transaction of its own with JIT off, room to sort in memory and the
   * planner told that index pages are cheap: over a year of a busy server PostgreSQL's JIT compiled
   * for ~400 ms to save a few, sorts of 150,000 rows spilled to disk, and over 90 days it scanned the
   * whole table instead of the range's index (bench/statistics.mjs).
   */
  private query<R>(sql: string, params: unknown[]) {
    return this.db.transaction(async (tx) => {
      await tx.query('SET LOCAL jit = off');
      await tx.query("SET LOCAL work_mem = '32MB'");
      // Index pages are as cheap to reach as the table's on SSD storage: at the default (4) the planner
      // read a whole busy server's wide rows to find a quarter of them.
      await tx.query('SET LOCAL random_page_cost = 1.1');
      return tx.query<R>(sql, params);
    });
  }

  /** What the server's plan allows: the longest range and custom ranges with export. */
  async limits(guildId: string): Promise<StatisticsAnswer['limits']> {
    const { rows } = await this.db.query<{ premium: boolean }>(`SELECT ${serverHasPremium('$1', '$2::timestamptz')} AS premium`, [guildId, new Date(this.clock()).toISOString()]);
    const premium = rows[0]?.premium === true;
    const plan = this.plans.find((p) => p.id === (premium ? 'premium' : 'free'));
    return { premium, days: plan?.limits.statisticsDays ?? 7, export: plan?.limits.statisticsExport ?? false };
  }

  /**
   * The statistics of a range. `timing` (optional) hears how long each of the seven queries took,
   * in milliseconds; the route sends them as Server-Timing, and `bench/statistics.mjs` reads them.
   */
  async read(guildId: string, query: StatisticsQuery, timing?: (name: string, ms: number) => void): Promise<StatisticsAnswer> {
    const { limits, serverTz, tz, label, length, from, to } = await this.window(guildId, query);
    const previousTo = addDays(from, -1);
    const previousFrom = addDays(from, -length);
    const timed = async <T>(name: string, work: Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await work;
      timing?.(name, performance.now() - started);
      return result;
    };
    // Seven queries at once (the rating distribution comes with the totals).
    const [{ ratings, ...totals }, { ratings: _, ...previous }, days, panels, staff, hours, tags] = await Promise.all([
      timed('totals', this.totals(guildId, from, to, tz, label)),
      timed('previous', this.totals(guildId, previousFrom, previousTo, tz, label)),
      timed('daily', this.daily(guildId, from, to, tz, label)),
      timed('panels', this.panels(guildId, from, to, tz, label)),
      timed('staff', this.staff(guildId, from, to, tz, label)),
      timed('hours', this.hours(guildId, from, to, tz, label)),
      timed('tags', this.tags(guildId, from, to, tz, label)),
    ]);
    // The backlog at the range's start, from the one at its end: every ticket opened in the range
    // added one, every one closed in it took one away (no scan of the tickets open before it).
    let backlog = totals.backlog - totals.opened + totals.closed;
    const daily = days.map((day) => {
      backlog += day.opened - day.closed;
      return { ...day, backlog };
    });
    return { range: query.range, tz, serverTz, from, to, previousFrom, previousTo, totals, previous, daily, panels, staff, ratings, hours, tags, limits };
  }

  /** The range's days in its time zone, refused (400) beyond what the server's plan allows. */
  private async window(guildId: string, query: StatisticsQuery) {
    const limits = await this.limits(guildId);
    const serverTz = await this.serverTimeZone(guildId);
    const tz = query.tz ?? serverTz ?? 'UTC';
    const label = query.label ?? null;
    const today = dayIn(this.clock(), tz);
    const length = query.range === 'custom' ? daysBetween(query.from!, query.to!) : Number.parseInt(query.range, 10);
    const to = query.range === 'custom' ? query.to! : today;
    const from = query.range === 'custom' ? query.from! : addDays(today, -(length - 1));
    if (length > limits.days || (query.range === 'custom' && !limits.export)) {
      throw new ApiHttpError('VALIDATION_FAILED', {
        message: limits.premium
          ? `Statistics cover at most ${limits.days} days at a time: choose a shorter range.`
          : `This server's plan shows statistics for the last ${limits.days} days. Longer and custom ranges, with CSV export, come with Premium.`,
      });
    }
    return { limits, serverTz, tz, label, length, from, to };
  }

  /**
   * The comments given with ratings to tickets closed in the range (the same tickets as the rating
   * distribution), newest close first, a page at a time with the total; each with its transcript
   * when one is stored, the opener named as the transcript has them, the handler as the staff table.
   */
  async comments(guild: Guild, query: FeedbackCommentsQuery): Promise<FeedbackComments> {
    const { tz, label, from, to } = await this.window(guild.id, query);
    const position = query.cursor ? commentCursor(query.cursor) : null;
    const params: unknown[] = [guild.id, from, to, tz, label];
    const where = [
      't.guild_id = $1',
      LABEL,
      `t.closed_at >= ${RANGE_START} AND t.closed_at < ${RANGE_END}`,
      't.opened_at IS NOT NULL AND t.rating IS NOT NULL',
      "btrim(coalesce(t.feedback, '')) <> ''",
    ];
    const { rows: counted } = await this.query<{ total: string }>(`SELECT count(*) AS total FROM tickets t WHERE ${where.join(' AND ')}`, params);
    if (position) {
      params.push(position.at, position.botId, position.ticketId);
      where.push('(t.closed_at, t.bot_id, t.ticket_id) < ($6::timestamptz, $7, $8)');
    }
    const { rows } = await this.query<CommentRow>(
      `SELECT t.bot_id, t.ticket_id, t.number, t.panel_id, t.opener_id, coalesce(tr.opener_name, ou.global_name, ou.username) AS opener_name,
         t.handled_by, coalesce(hu.global_name, hu.username) AS handler_name, t.rating, t.feedback, t.closed_at, tr.file_id
       FROM tickets t
       LEFT JOIN transcripts tr ON tr.guild_id = t.guild_id AND tr.file_id = t.transcript_id
       LEFT JOIN users ou ON ou.id = t.opener_id
       LEFT JOIN users hu ON hu.id = t.handled_by
       WHERE ${where.join(' AND ')}
       ORDER BY t.closed_at DESC, t.bot_id DESC, t.ticket_id DESC LIMIT ${FEEDBACK_COMMENTS_PAGE + 1}`,
      params,
    );
    const page = rows.slice(0, FEEDBACK_COMMENTS_PAGE);
    const handlers = [...new Set(page.map((row) => row.handled_by).filter((id) => id !== null))].map((id) => ({ userId: id, name: page.find((row) => row.handled_by === id)?.handler_name ?? null }));
    await this.staffNames?.fill(guild, handlers);
    const last = page.at(-1);
    return {
      total: Number(counted[0]?.total ?? 0),
      items: page.map((row) => ({
        ticketId: row.ticket_id,
        number: row.number === null ? null : Number(row.number),
        panelId: row.panel_id,
        opener: row.opener_id === null ? null : { id: row.opener_id, name: row.opener_name },
        handledBy: row.handled_by === null ? null : { id: row.handled_by, name: handlers.find((h) => h.userId === row.handled_by)?.name ?? null },
        rating: Number(row.rating),
        comment: row.feedback ?? '',
        closedAt: new Date(row.closed_at).toISOString(),
        transcriptFileId: row.file_id,
      })),
      nextCursor: rows.length > FEEDBACK_COMMENTS_PAGE && last ? Buffer.from(`${new Date(last.closed_at).toISOString()}|${last.bot_id}|${last.ticket_id}`).toString('base64url') : null,
    };
  }

  /**
   * A range's totals. Each part reads only the tickets it needs, through the (guild, opened_at) and
   * (guild, closed_at) indexes: tickets opened in the range, tickets closed in it, and the backlog at
   * its end as those opened before the end and closed after it or not yet (never a scan of the
   * server's whole history). Median and p90 come from one sort (`percentile_cont` of an array).
   */
  private async totals(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<StatisticsTotals & { ratings: number[] }> {
    const { rows } = await this.query<Record<string, unknown>>(
      `WITH o AS (SELECT count(*) AS opened,
               percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY s.fr) FILTER (WHERE s.fr IS NOT NULL) AS fr
             FROM (${ordered('t.first_response_s AS fr', `t.opened_at >= ${RANGE_START} AND t.opened_at < ${RANGE_END}`, 't.first_response_s')}) s),
       c AS (SELECT count(*) AS closed,
               percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY s.res) AS res,
               avg(s.rating) AS rating_avg, count(s.rating) AS rated,
               ARRAY[count(*) FILTER (WHERE s.rating = 1), count(*) FILTER (WHERE s.rating = 2), count(*) FILTER (WHERE s.rating = 3),
                     count(*) FILTER (WHERE s.rating = 4), count(*) FILTER (WHERE s.rating = 5)] AS ratings
             FROM (${ordered('t.resolution_s AS res, t.rating', `t.closed_at >= ${RANGE_START} AND t.closed_at < ${RANGE_END} AND t.opened_at IS NOT NULL`, 't.resolution_s')}) s),
       b AS (SELECT (SELECT count(*) FROM tickets t WHERE t.guild_id = $1 AND ${LABEL} AND t.closed_at >= ${RANGE_END} AND t.opened_at < ${RANGE_END})
                  + (SELECT count(*) FROM tickets t WHERE t.guild_id = $1 AND ${LABEL} AND t.closed_at IS NULL AND t.opened_at < ${RANGE_END}) AS backlog)
       SELECT o.opened, o.fr[1] AS fr_median, o.fr[2] AS fr_p90, c.closed, c.res[1] AS res_median, c.res[2] AS res_p90, c.rating_avg, c.rated, c.ratings, b.backlog FROM o, c, b`,
      [guildId, from, to, tz, label],
    );
    const row = rows[0] ?? {};
    return {
      opened: Number(row.opened ?? 0),
      closed: Number(row.closed ?? 0),
      backlog: Number(row.backlog ?? 0),
      firstResponseMedian: secs(row.fr_median),
      firstResponseP90: secs(row.fr_p90),
      resolutionMedian: secs(row.res_median),
      resolutionP90: secs(row.res_p90),
      ratingAverage: num(row.rating_avg),
      rated: Number(row.rated ?? 0),
      // Tickets closed in the range with 1 to 5 stars.
      ratings: Array.isArray(row.ratings) ? row.ratings.map(Number) : [0, 0, 0, 0, 0],
    };
  }

  /**
   * Opened and closed per day (`read` adds the backlog at each day's end), summed from the roll-up's
   * quarter hours (migration 012) rather than read from every ticket: a slot's day is found among the
   * range's local midnights (`width_bucket`, a binary search over at most 367 instants). When the
   * range's midnights are not on slots (ON_SLOTS), the tickets are counted the same way instead.
   */
  private async daily(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<Array<{ date: string; opened: number; closed: number }>> {
    const { rows } = await this.query<{ day: string; opened: string; closed: string }>(
      `WITH days AS (SELECT d::date AS day, i FROM generate_series($2::date, $3::date, interval '1 day') WITH ORDINALITY AS g(d, i)),
       b AS (SELECT array_agg(${midnight('days.day', '$4')} ORDER BY days.i) AS starts FROM days),
       n AS (SELECT width_bucket(s.slot, b.starts) AS i, sum(s.opened) AS opened, sum(s.closed) AS closed FROM ticket_slots s, b
             WHERE ${SLOTS_USABLE} AND s.guild_id = $1 AND s.slot >= ${RANGE_START} AND s.slot < ${RANGE_END} GROUP BY 1
             UNION ALL
             SELECT width_bucket(t.opened_at, b.starts), count(*), 0 FROM tickets t, b
             WHERE ${FROM_TICKETS} AND t.guild_id = $1 AND t.opened_at >= ${RANGE_START} AND t.opened_at < ${RANGE_END} GROUP BY 1
             UNION ALL
             SELECT width_bucket(t.closed_at, b.starts), 0, count(*) FROM tickets t, b
             WHERE ${FROM_TICKETS} AND t.guild_id = $1 AND t.opened_at IS NOT NULL AND t.closed_at >= ${RANGE_START} AND t.closed_at < ${RANGE_END} GROUP BY 1)
       SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(sum(n.opened), 0) AS opened, coalesce(sum(n.closed), 0) AS closed
       FROM days LEFT JOIN n ON n.i = days.i GROUP BY days.day, days.i ORDER BY days.i`,
      [guildId, from, to, tz, label],
    );
    return rows.map((r) => ({ date: r.day, opened: Number(r.opened), closed: Number(r.closed) }));
  }

  /** Tickets opened per hour of the day: each slot's (or ticket's) hour found among the range's hour starts (their local hour), as for days. */
  private async hours(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<number[]> {
    const { rows } = await this.query<{ h: number; n: string }>(
      `WITH b AS (SELECT array_agg(h ORDER BY h) AS starts, array_agg(extract(hour FROM h AT TIME ZONE $4)::int ORDER BY h) AS labels
             FROM generate_series(${RANGE_START}, ${RANGE_END} - interval '1 hour', interval '1 hour') AS h)
       SELECT b.labels[width_bucket(s.slot, b.starts)] AS h, sum(s.opened) AS n FROM ticket_slots s, b
       WHERE ${SLOTS_USABLE} AND s.guild_id = $1 AND s.slot >= ${RANGE_START} AND s.slot < ${RANGE_END} AND s.opened <> 0 GROUP BY 1
       UNION ALL
       SELECT b.labels[width_bucket(t.opened_at, b.starts)], count(*) FROM tickets t, b
       WHERE ${FROM_TICKETS} AND t.guild_id = $1 AND t.opened_at >= ${RANGE_START} AND t.opened_at < ${RANGE_END} GROUP BY 1`,
      [guildId, from, to, tz, label],
    );
    const counts = Array.from({ length: 24 }, () => 0);
    for (const r of rows) counts[Number(r.h)] = (counts[Number(r.h)] ?? 0) + Number(r.n);
    return counts;
  }

  private async panels(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<StatisticsAnswer['panels']> {
    const { rows } = await this.query<Record<string, unknown>>(
      `SELECT coalesce(s.panel_id, '') AS panel_id, count(*) AS opened, count(s.closed_at) AS closed,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY s.fr) FILTER (WHERE s.fr IS NOT NULL) AS fr,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY s.res) FILTER (WHERE s.res IS NOT NULL) AS res,
         avg(s.rating) AS rating
       FROM (${ordered('t.panel_id, t.closed_at, t.rating, t.first_response_s AS fr, t.resolution_s AS res', `t.opened_at >= ${RANGE_START} AND t.opened_at < ${RANGE_END}`, 't.panel_id, t.first_response_s')}) s
       GROUP BY s.panel_id ORDER BY opened DESC, 1`,
      [guildId, from, to, tz, label],
    );
    return rows.map((r) => ({ panelId: String(r.panel_id), opened: Number(r.opened), closed: Number(r.closed), firstResponseMedian: secs(r.fr), resolutionMedian: secs(r.res), ratingAverage: num(r.rating) }));
  }

  /**
   * Uses of each tag in the range (tag_uses, migration 027: `/tag` in Discord and dashboard replies
   * from a tag the bot posted), most used first; with a label, only uses in tickets carrying it.
   */
  private async tags(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<StatisticsAnswer['tags']> {
    const { rows } = await this.query<{ tag_id: string; uses: string }>(
      `SELECT u.tag_id, count(*) AS uses FROM tag_uses u
       WHERE u.guild_id = $1 AND u.at >= ${RANGE_START} AND u.at < ${RANGE_END}
         AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM tickets t WHERE t.bot_id = u.bot_id AND t.guild_id = u.guild_id AND t.ticket_id = u.ticket_id AND ${LABEL}))
       GROUP BY u.tag_id ORDER BY uses DESC, u.tag_id`,
      [guildId, from, to, tz, label],
    );
    return rows.map((row) => ({ tagId: row.tag_id, uses: Number(row.uses) }));
  }

  private async staff(guildId: string, from: string, to: string, tz: string, label: string | null): Promise<StatisticsAnswer['staff']> {
    const { rows } = await this.query<Record<string, unknown>>(
      `WITH h AS (SELECT s.handled_by AS user_id, count(*) AS handled,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY s.fr) FILTER (WHERE s.fr IS NOT NULL) AS fr,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY s.res) AS res,
               avg(s.rating) AS rating
             FROM (${ordered('t.handled_by, t.first_response_s AS fr, t.resolution_s AS res, t.rating', `t.opened_at IS NOT NULL AND t.closed_at >= ${RANGE_START} AND t.closed_at < ${RANGE_END} AND t.handled_by IS NOT NULL`, 't.handled_by, t.resolution_s')}) s
             GROUP BY s.handled_by)
       SELECT h.user_id, coalesce(u.global_name, u.username) AS name, h.handled, h.fr, h.res, h.rating
       FROM h LEFT JOIN users u ON u.id = h.user_id ORDER BY h.handled DESC, h.user_id`,
      [guildId, from, to, tz, label],
    );
    return rows.map((row) => ({
      userId: String(row.user_id),
      name: row.name === null || row.name === undefined ? null : String(row.name),
      handled: Number(row.handled),
      firstResponseMedian: secs(row.fr),
      resolutionMedian: secs(row.res),
      ratingAverage: num(row.rating),
    }));
  }

}

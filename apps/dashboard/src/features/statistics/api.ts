/**
 * Statistics (`/dashboard/:server/statistics`): the read of `GET /api/guilds/:server/statistics`,
 * the range as it lives in the address, durations as people read them, and the tables' CSV.
 */
import type { FeedbackComments, StatisticsAnswer, StatisticsRange } from '@tickety/api-contract';
import { api, type Translate } from '@tickety/shared';
import { toCsv } from '../../lib/csv';
import { isDay } from '../../lib/days';
import type { MessageKey } from './i18n';

interface StatisticsArgs {
  server: string;
  range: StatisticsRange;
  from?: string;
  to?: string;
  /** Omitted: the server's time zone. */
  tz?: string;
  /** Only tickets carrying this label (an id of the configuration's labels). */
  label?: string;
}

const RANGES: readonly StatisticsRange[] = ['7d', '30d', '90d', 'custom'];

/** The label filter in an address (`?label=<id>`), or undefined. */
export function labelOf(params: URLSearchParams): string | undefined {
  const label = params.get('label');
  return label && /^[A-Za-z0-9_-]{1,32}$/.test(label) ? label : undefined;
}

/** The range in an address (`?range=30d`, `?range=custom&from=…&to=…`); anything else is 7 days. */
export function rangeOf(params: URLSearchParams): Pick<StatisticsArgs, 'range' | 'from' | 'to'> {
  const range = params.get('range');
  if (range === 'custom') {
    const from = params.get('from');
    const to = params.get('to');
    if (isDay(from) && isDay(to) && from <= to) return { range, from, to };
    return { range: '7d' };
  }
  return { range: RANGES.includes(range as StatisticsRange) ? (range as StatisticsRange) : '7d' };
}

const statisticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Not through the overlay: the page shows a failure (and the plan's limits) in place. */
    serverStatistics: build.query<StatisticsAnswer, StatisticsArgs>({
      query: ({ server, range, from, to, tz, label }) => ({
        path: `/api/guilds/${encodeURIComponent(server)}/statistics`,
        query: { range, from, to, tz, label },
        overlay: false,
      }),
      keepUnusedDataFor: 60,
    }),
    /** One page of the comments given with ratings (`cursor`: where the page before ended). */
    feedbackComments: build.query<FeedbackComments, StatisticsArgs & { cursor?: string }>({
      query: ({ server, range, from, to, tz, label, cursor }) => ({
        path: `/api/guilds/${encodeURIComponent(server)}/statistics/feedback`,
        query: { range, from, to, tz, label, cursor },
        overlay: false,
      }),
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useServerStatisticsQuery, useFeedbackCommentsQuery } = statisticsApi;
export type { StatisticsArgs };

/** A duration in seconds as people read it: "45 s", "12 min", "3 h 5 min", "2 d 4 h"; "—" for none. */
export function formatDuration(t: Translate<MessageKey>, seconds: number | null): string {
  if (seconds === null) return '—';
  const totalSeconds = Math.round(seconds);
  if (totalSeconds < 60) return t('statistics.duration.seconds', { s: totalSeconds });
  const totalMinutes = Math.round(totalSeconds / 60);
  if (totalMinutes < 60) return t('statistics.duration.minutes', { m: totalMinutes });
  const hours = Math.floor(totalMinutes / 60);
  if (hours < 48) return t('statistics.duration.hours', { h: hours, m: totalMinutes % 60 });
  return t('statistics.duration.days', { d: Math.floor(hours / 24), h: hours % 24 });
}

/** The change from `before` to `now` in percent (null when there was nothing before). */
export function change(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 100);
}

/** A table as CSV (formula-safe cells, the same writer as Web Logs). */
export function tableCsv(head: string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return toCsv([head, ...rows]);
}

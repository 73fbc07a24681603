/**
 * Transcript lists: "Your tickets" (`GET /api/transcripts/mine`) and a server's transcripts for its
 * managers (`GET /api/guilds/:server/transcripts`), a page at a time; the list filters as they live
 * in the address.
 */
import type { TranscriptList } from '@tickety/api-contract';
import { api, type HrefQuery, isSnowflake } from '@tickety/shared';
import { endOfDay, isDay, startOfDay } from '../../lib/days';

/** What a server's transcript list filters by (days are calendar days in the viewer's zone, both included). */
export interface TranscriptFilters {
  opener?: string;
  closer?: string;
  panel?: string;
  rating?: string;
  from?: string;
  to?: string;
  q?: string;
}

const PANEL_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The filters in an address; malformed values are ignored. */
export function transcriptFiltersOf(params: URLSearchParams): TranscriptFilters {
  const filters: TranscriptFilters = {};
  const opener = params.get('opener');
  const closer = params.get('closer');
  const panel = params.get('panel');
  const rating = params.get('rating');
  const from = params.get('from');
  const to = params.get('to');
  const search = params.get('q')?.trim();
  if (opener && isSnowflake(opener)) filters.opener = opener;
  if (closer && isSnowflake(closer)) filters.closer = closer;
  if (panel && PANEL_ID.test(panel)) filters.panel = panel;
  if (rating && /^[1-5]$/.test(rating)) filters.rating = rating;
  if (isDay(from)) filters.from = from;
  if (isDay(to)) filters.to = to;
  if (search) filters.q = search.slice(0, 100);
  return filters;
}

/** The filters as address query values (empty ones left out). */
export function transcriptFilterQuery(filters: TranscriptFilters): HrefQuery {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''));
}

/** The API's query: days as the instants they start and end in the viewer's zone. */
function transcriptApiQuery(filters: TranscriptFilters): Record<string, string | undefined> {
  return {
    opener: filters.opener,
    closer: filters.closer,
    panel: filters.panel,
    rating: filters.rating,
    from: filters.from ? startOfDay(filters.from) : undefined,
    to: filters.to ? endOfDay(filters.to) : undefined,
    q: filters.q,
  };
}

const transcriptsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's tickets in every server, newest first. Failures are shown in the page. */
    myTranscripts: build.infiniteQuery<TranscriptList, void, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ pageParam }) => ({ path: '/api/transcripts/mine', query: { cursor: pageParam ?? undefined }, overlay: false }),
      keepUnusedDataFor: 30,
    }),
    /** A server's transcripts (Web Logs read access), filtered, newest first. */
    serverTranscripts: build.infiniteQuery<TranscriptList, { server: string; filters: TranscriptFilters }, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg, pageParam }) => ({
        path: `/api/guilds/${encodeURIComponent(queryArg.server)}/transcripts`,
        query: { ...transcriptApiQuery(queryArg.filters), cursor: pageParam ?? undefined },
        overlay: false,
      }),
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useMyTranscriptsInfiniteQuery, useServerTranscriptsInfiniteQuery } = transcriptsApi;

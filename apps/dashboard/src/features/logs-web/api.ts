/**
 * Web Logs (`/dashboard/:server/logs-web`): its filters as they live in the address (dates in the
 * viewer's time zone, sent to the API as ISO instants), the paged read of
 * `GET /api/guilds/:server/logs`, the whole-log read of the CSV export, and the CSV itself.
 */
import type { ConfigActor, WebLogEntry } from '@tickety/api-contract';
import { ApiRequestError, api, type HrefQuery, isSnowflake, request, type Translate } from '@tickety/shared';
import { changesText } from '../../lib/config-change-text';
import { toCsv } from '../../lib/csv';
import { endOfDay, isDay, startOfDay } from '../../lib/days';
import type { MessageKey } from './i18n';

export type WebLogAction = WebLogEntry['action'];

interface WebLogPageAnswer {
  entries: WebLogEntry[];
  nextCursor: string | null;
}

/** What the reader filters by: a member's id, an action, and a range of calendar days (YYYY-MM-DD, both included). */
export interface WebLogFilters {
  actor?: string;
  action?: WebLogAction;
  from?: string;
  to?: string;
}

/**
 * Each action's label key. The contract's WEB_LOG_ACTIONS is not imported at run time (its module
 * would bring zod into this page's chunk); the Record's type makes a new action a type error here.
 */
export const ACTION_LABEL: Record<WebLogAction, MessageKey> = {
  'config.update': 'logs.action.config.update',
  'config.restore': 'logs.action.config.restore',
  'config.import': 'logs.action.config.import',
  'config.reset': 'logs.action.config.reset',
  'panel.send': 'logs.action.panel.send',
  'panel.update': 'logs.action.panel.update',
  'ticket.opened': 'logs.action.ticket.opened',
  'ticket.claimed': 'logs.action.ticket.claimed',
  'ticket.closed': 'logs.action.ticket.closed',
  'ticket.reopened': 'logs.action.ticket.reopened',
  'ticket.rated': 'logs.action.ticket.rated',
  'transcript.view': 'logs.action.transcript.view',
  'ticket.reply': 'logs.action.ticket.reply',
  'ticket.claim': 'logs.action.ticket.claim',
  'ticket.unclaim': 'logs.action.ticket.unclaim',
  'ticket.close': 'logs.action.ticket.close',
  'ticket.add_member': 'logs.action.ticket.add_member',
  'ticket.labels': 'logs.action.ticket.labels',
  'premium.assigned': 'logs.action.premium.assigned',
  'premium.removed': 'logs.action.premium.removed',
};
/** The actions, in the contract's order. */
export const WEB_LOG_ACTIONS = Object.keys(ACTION_LABEL) as WebLogAction[];

function isAction(value: string | null): value is WebLogAction {
  return value !== null && (WEB_LOG_ACTIONS as readonly string[]).includes(value);
}

/** The filters in an address's query (`?actor=…&action=…&from=…&to=…`); anything malformed is left out. */
export function filtersOf(params: URLSearchParams): WebLogFilters {
  const filters: WebLogFilters = {};
  const actor = params.get('actor');
  const action = params.get('action');
  const from = params.get('from');
  const to = params.get('to');
  if (actor && isSnowflake(actor)) filters.actor = actor;
  if (isAction(action)) filters.action = action;
  if (isDay(from)) filters.from = from;
  if (isDay(to)) filters.to = to;
  return filters;
}

/** The query an address keeps the filters in. */
export function filterQuery(filters: WebLogFilters): HrefQuery {
  return { actor: filters.actor, action: filters.action, from: filters.from, to: filters.to };
}

export function hasFilters(filters: WebLogFilters): boolean {
  return Boolean(filters.actor || filters.action || filters.from || filters.to);
}

/** The "from" day is after the "to" day: nothing can match. */
export function isEmptyRange(filters: WebLogFilters): boolean {
  return Boolean(filters.from && filters.to && filters.from > filters.to);
}

/** The API's query for the filters (dates become instants in the viewer's time zone). */
function apiQuery(filters: WebLogFilters): Record<string, string | undefined> {
  return {
    actor: filters.actor,
    action: filters.action,
    from: filters.from ? startOfDay(filters.from) : undefined,
    to: filters.to ? endOfDay(filters.to) : undefined,
  };
}

const logsPath = (server: string) => `/api/guilds/${encodeURIComponent(server)}/logs`;

/** Entries a page of the list shows. */
export const PAGE_SIZE = 50;
/** Entries a request of the export asks for (the API's most). */
const EXPORT_PAGE_SIZE = 100;

interface WebLogArgs {
  server: string;
  filters: WebLogFilters;
}

const webLogsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The log, newest first, a page at a time (`fetchNextPage` follows `nextCursor`). Not through the
     * overlay: the page shows a failure inline with its own Retry, and keeps what it already shows.
     */
    webLog: build.infiniteQuery<WebLogPageAnswer, WebLogArgs, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        path: logsPath(queryArg.server),
        query: { ...apiQuery(queryArg.filters), cursor: pageParam ?? undefined, limit: PAGE_SIZE },
        overlay: false,
      }),
      providesTags: (_result, _error, { server }) => [{ type: 'WebLog', id: server }],
      keepUnusedDataFor: 30,
    }),
    /** Everyone who appears in the server's Web Logs (the member filter's choices). */
    webLogActors: build.query<{ actors: ConfigActor[] }, string>({
      query: (server) => ({ path: `${logsPath(server)}/actors`, overlay: false }),
      providesTags: (_result, _error, server) => [{ type: 'WebLog', id: server }],
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useWebLogActorsQuery, useWebLogInfiniteQuery } = webLogsApi;

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ApiRequestError('cancelled', 'Cancelled.'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ApiRequestError('cancelled', 'Cancelled.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits asked for by the API (429 with Retry-After) before a page is given up: at most this many, each at most 30 s. */
const RATE_LIMIT_RETRIES = 3;

/**
 * Every entry matching the filters, newest first: pages of 100 followed by their cursors.
 * `onProgress` hears the count after each page; aborting `signal` stops between (or during) requests
 * and rejects with an ApiRequestError of kind 'cancelled'.
 */
export async function fetchAllEntries(
  server: string,
  filters: WebLogFilters,
  options: { signal: AbortSignal; onProgress?: (count: number) => void; pageSize?: number },
): Promise<WebLogEntry[]> {
  const entries: WebLogEntry[] = [];
  let cursor: string | null = null;
  const seen = new Set<string>();
  do {
    let page: WebLogPageAnswer | undefined;
    for (let attempt = 0; page === undefined; attempt++) {
      try {
        page = await request<WebLogPageAnswer>({
          path: logsPath(server),
          query: { ...apiQuery(filters), cursor: cursor ?? undefined, limit: options.pageSize ?? EXPORT_PAGE_SIZE },
          overlay: false,
          signal: options.signal,
        });
      } catch (error) {
        const limited = error instanceof ApiRequestError && error.kind === 'http' && error.status === 429 && attempt < RATE_LIMIT_RETRIES;
        if (!limited) throw error;
        await wait(Math.min(30, Math.max(1, error.retryAfter ?? 1)) * 1000, options.signal);
      }
    }
    entries.push(...page.entries);
    options.onProgress?.(entries.length);
    // A cursor seen before would loop for ever: the API's answer is wrong, stop with what there is.
    if (page.nextCursor !== null && seen.has(page.nextCursor)) break;
    cursor = page.nextCursor;
    if (cursor !== null) seen.add(cursor);
  } while (cursor !== null);
  return entries;
}

/** The export: a header row, then one row per entry (time in ISO UTC, the member, action, target, version, the changes as text). */
export function webLogCsv(t: Translate<MessageKey>, entries: readonly WebLogEntry[], config?: Record<string, unknown> | null): string {
  const header = ['logs.csv.time', 'logs.csv.memberId', 'logs.csv.member', 'logs.csv.action', 'logs.csv.target', 'logs.csv.version', 'logs.csv.changes'] as const;
  const iso = (at: string) => {
    const time = Date.parse(at);
    return Number.isNaN(time) ? at : new Date(time).toISOString();
  };
  const rows = entries.map((entry) => [
    iso(entry.at),
    entry.actor.id,
    entry.actor.name,
    isAction(entry.action) ? t(ACTION_LABEL[entry.action]) : entry.action,
    entry.target,
    entry.version,
    changesText(t, entry.changes, config),
  ]);
  return toCsv([header.map((key) => t(key)), ...rows]);
}

/** The export's file name: `web-logs-<server>-<YYYY-MM-DD>.csv` (today in the viewer's time zone). */
export function csvFileName(server: string, now = new Date()): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `web-logs-${server}-${day}.csv`;
}


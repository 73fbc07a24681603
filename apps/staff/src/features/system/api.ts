/**
 * The System page's reads: the service's health (`/api/staff/system`: the database, Redis, the bot's
 * shards, this API instance's recent server errors and the API's own version) and the payment
 * providers' webhook inbox (`/api/staff/webhooks`: each provider's queue, the dead letters a page at a
 * time, the replay of a dead letter). Not through the overlay: the page shows failures in place.
 * Type-only imports of the contract: no zod at run time.
 */
import type {
  BillingProvider,
  StaffDeadLetter,
  StaffSystemAnswer,
  StaffSystemDatabase,
  StaffSystemError,
  StaffSystemRedis,
  StaffSystemShard,
  StaffWebhookQueue,
  StaffWebhooksAnswer,
} from '@tickety/api-contract';
import { activeLocale, api } from '@tickety/shared';

/** A database answering slower than this is marked slow. */
export const SLOW_DATABASE_MS = 200;
/** A shard silent for this long is stale (the status page counts it as down). */
export const STALE_HEARTBEAT_MS = 2 * 60_000;

/** The providers in the order the page shows them (the API answers a queue for each). */
export const WEBHOOK_PROVIDERS = ['paddle', 'fastspring', 'discord', 'chargebee'] as const satisfies readonly BillingProvider[];
type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** The providers' product names (not translated). */
export const PROVIDER_NAMES: Record<WebhookProvider, string> = { paddle: 'Paddle', fastspring: 'FastSpring', discord: 'Discord', chargebee: 'Chargebee' };

export function isWebhookProvider(value: string | null | undefined): value is WebhookProvider {
  return (WEBHOOK_PROVIDERS as readonly string[]).includes(value ?? '');
}

/** The dead letters the page asks for at a time. */
const DEAD_LETTER_PAGE = 25;

export interface WebhooksArgs {
  /** Only this provider's dead letters (the queues are always every provider's). */
  provider?: WebhookProvider;
}

export const systemApi = api.enhanceEndpoints({ addTagTypes: ['StaffWebhooks'] }).injectEndpoints({
  endpoints: (build) => ({
    /** A staff read: the dashboard's own fetch (audited). Never cached by the browser (the API says no-store). */
    staffSystem: build.query<StaffSystemAnswer, void>({
      query: () => ({ path: '/api/staff/system', overlay: false, fromDashboard: true }),
      keepUnusedDataFor: 30,
    }),
    /**
     * The queues and the dead letters, `fetchNextPage` following `nextCursor`; a refetch (polling,
     * Refresh) reads every page shown again. A staff read: the dashboard's own fetch.
     */
    staffWebhooks: build.infiniteQuery<StaffWebhooksAnswer, WebhooksArgs, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg, pageParam }) => ({
        path: '/api/staff/webhooks',
        query: { provider: queryArg.provider, limit: DEAD_LETTER_PAGE, cursor: pageParam ?? undefined },
        overlay: false,
        fromDashboard: true,
      }),
      providesTags: ['StaffWebhooks'],
      keepUnusedDataFor: 30,
    }),
    /**
     * Queues a dead letter again (DASHBOARD_SUPPORT_SYSTEM_WRITE); 404 when it is no longer dead. Both
     * change the figures and the dead letters, so the inbox is read again.
     */
    replayWebhook: build.mutation<{ replayed: true }, { id: string }>({
      query: ({ id }) => ({ path: `/api/staff/webhooks/${encodeURIComponent(id)}/replay`, method: 'POST', overlay: false }),
      invalidatesTags: (_result, error) => (!error || (error as { status?: unknown }).status === 404 ? ['StaffWebhooks'] : []),
    }),
  }),
});

export const { useStaffSystemQuery, useStaffWebhooksInfiniteQuery, useReplayWebhookMutation } = systemApi;

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** A size in the reader's language, in decimal units as Intl names them: "512 bytes", "12.3 MB", "1.2 GB". */
export function formatBytes(bytes: number, locale: string = activeLocale()): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
}

const DURATION_UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** A length of time by its two largest units, in the reader's language: "3 days 4 hr", "12 min 5 sec", "42 sec". */
export function formatUptime(seconds: number, locale: string = activeLocale()): string {
  let rest = Math.max(0, Math.floor(seconds));
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 || (parts.length === 0 && unit === 'second')) parts.push(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(amount));
    else if (parts.length > 0) break;
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

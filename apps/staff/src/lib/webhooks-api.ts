/**
 * Staff's view of the payment providers' webhook inbox (`/api/staff/webhooks`): each provider's queue
 * (pending, retrying, dead, the oldest pending) and the dead letters, newest first, a page at a time;
 * and the replay of a dead letter. Not through the overlay: the System page shows failures in place.
 * Type-only imports of the contract: no zod at run time.
 */
import type { BillingProvider } from '@tickety/api-contract';
import { api } from '@tickety/shared';

/** The providers in the order the page shows them (the API answers a queue for each). */
export const WEBHOOK_PROVIDERS = ['paddle', 'fastspring', 'discord', 'chargebee'] as const satisfies readonly BillingProvider[];
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** The providers' product names (not translated). */
export const PROVIDER_NAMES: Record<WebhookProvider, string> = { paddle: 'Paddle', fastspring: 'FastSpring', discord: 'Discord', chargebee: 'Chargebee' };

export function isWebhookProvider(value: string | null | undefined): value is WebhookProvider {
  return (WEBHOOK_PROVIDERS as readonly string[]).includes(value ?? '');
}

export interface WebhookQueue {
  provider: WebhookProvider;
  pending: number;
  /** Pending events that failed at least once (retrying with backoff). */
  failing: number;
  dead: number;
  /** ISO time the oldest pending event was received; null when none waits. */
  oldestPendingAt: string | null;
}

/** An event that failed every attempt. */
export interface DeadLetter {
  id: string;
  provider: WebhookProvider;
  type: string;
  key: string;
  subject: string | null;
  attempts: number;
  lastError: string | null;
  receivedAt: string;
}

export interface WebhooksPage {
  queues: WebhookQueue[];
  dead: DeadLetter[];
  nextCursor: string | null;
}

/** The dead letters the page asks for at a time. */
export const DEAD_LETTER_PAGE = 25;

export interface WebhooksArgs {
  /** Only this provider's dead letters (the queues are always every provider's). */
  provider?: WebhookProvider;
}

export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The queues and the dead letters, `fetchNextPage` following `nextCursor`; a refetch (polling,
     * Refresh) reads every page shown again. A staff read: the dashboard's own fetch.
     */
    staffWebhooks: build.infiniteQuery<WebhooksPage, WebhooksArgs, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg, pageParam }) => ({
        path: '/api/staff/webhooks',
        query: { provider: queryArg.provider, limit: DEAD_LETTER_PAGE, cursor: pageParam ?? undefined },
        overlay: false,
        fromDashboard: true,
      }),
      keepUnusedDataFor: 30,
    }),
    /** Queues a dead letter again (DASHBOARD_SUPPORT_SYSTEM_WRITE); 404 when it is no longer dead. */
    replayWebhook: build.mutation<{ replayed: true }, { id: string }>({
      query: ({ id }) => ({ path: `/api/staff/webhooks/${encodeURIComponent(id)}/replay`, method: 'POST', overlay: false }),
    }),
  }),
});

export const { useStaffWebhooksInfiniteQuery, useReplayWebhookMutation } = webhooksApi;

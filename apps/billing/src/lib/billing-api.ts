/**
 * What several billing pages read and send (`/api/billing`): one subscription (its page, Paddle's
 * payment-method update), the actions a provider offers on it, and where a purchase stands (every
 * checkout ends on it). Each page's own calls are in its feature's `api.ts`. Reads are not through
 * the overlay: the pages show failures in place.
 */
import type { BillingActionAnswer, BillingProvider, BillingSubscription, CheckoutStatus } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export type ActionPath = 'cancel' | 'resume' | 'payment-method' | 'portal';

export interface SubscriptionRef {
  provider: BillingProvider;
  id: string;
  /** Staff's read of another user's subscription (read-only, audited). */
  user?: string;
}

export const subscriptionsPath = (user?: string) => (user ? `/api/billing/users/${encodeURIComponent(user)}/subscriptions` : '/api/billing/subscriptions');
export const subscriptionPath = ({ provider, id, user }: SubscriptionRef) => `${subscriptionsPath(user)}/${provider}/${encodeURIComponent(id)}`;

/**
 * The cache tags of billing reads: `BillingSubscriptions` a list of subscriptions, `BillingSubscription`
 * one subscription and its receipts (by `provider/id`, whoever reads it). A change the provider accepted
 * invalidates both, so every page showing that subscription reads it again.
 */
export const billingTags = api.enhanceEndpoints({ addTagTypes: ['BillingSubscriptions', 'BillingSubscription'] });
export const subscriptionTag = ({ provider, id }: { provider: BillingProvider; id: string }) => ({ type: 'BillingSubscription' as const, id: `${provider}/${id}` });

/** The actions that change the subscription (the others answer a page of the provider's to open). */
const CHANGING_ACTIONS: readonly ActionPath[] = ['cancel', 'resume'];

export const billingApi = billingTags.injectEndpoints({
  endpoints: (build) => ({
    subscription: build.query<BillingSubscription, SubscriptionRef>({
      query: (ref) => ({ path: subscriptionPath(ref), overlay: false, fromDashboard: ref.user !== undefined }),
      providesTags: (_result, _error, ref) => [subscriptionTag(ref)],
    }),
    /** Paddle: the transaction id; FastSpring: the order id; Chargebee: the hosted page id; Discord: the SKU id. */
    checkoutStatus: build.query<CheckoutStatus, { provider: BillingProvider; reference: string }>({
      query: ({ provider, reference }) => ({ path: `/api/billing/checkouts/${provider}/${encodeURIComponent(reference)}`, overlay: false }),
    }),
    subscriptionAction: build.mutation<BillingActionAnswer, { provider: BillingProvider; id: string; action: ActionPath }>({
      query: ({ provider, id, action }) => ({ path: `${subscriptionPath({ provider, id })}/${action}`, method: 'POST', overlay: false }),
      invalidatesTags: (_result, error, ref) => (error || !CHANGING_ACTIONS.includes(ref.action) ? [] : [subscriptionTag(ref), 'BillingSubscriptions']),
    }),
  }),
});

export const { useSubscriptionQuery, useCheckoutStatusQuery, useSubscriptionActionMutation } = billingApi;

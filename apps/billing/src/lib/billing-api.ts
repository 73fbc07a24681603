/**
 * Billing's reads and actions (`/api/billing`): the user's subscriptions (or, for staff, another
 * user's), one subscription, Paddle's checkout data, where a purchase stands, and the actions a
 * provider offers. Reads are not through the overlay: the pages show failures in place.
 */
import type { BillingActionAnswer, BillingProvider, BillingSubscription, BillingSubscriptionsAnswer, CheckoutStatus, PaddleCheckoutAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export type ActionPath = 'cancel' | 'resume' | 'payment-method' | 'portal';

const subscriptionsPath = (user?: string) => (user ? `/api/billing/users/${encodeURIComponent(user)}/subscriptions` : '/api/billing/subscriptions');

export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<BillingSubscriptionsAnswer, { user?: string }>({
      // A staff read of another user's billing is audited: the API takes it from the dashboard's own fetch only.
      query: ({ user }) => ({ path: subscriptionsPath(user), overlay: false, fromDashboard: user !== undefined }),
    }),
    subscription: build.query<BillingSubscription, { provider: BillingProvider; id: string; user?: string }>({
      query: ({ provider, id, user }) => ({ path: `${subscriptionsPath(user)}/${provider}/${encodeURIComponent(id)}`, overlay: false, fromDashboard: user !== undefined }),
    }),
    paddleCheckout: build.mutation<PaddleCheckoutAnswer, { priceId: string }>({
      query: (body) => ({ path: '/api/billing/paddle/checkout', method: 'POST', body, overlay: false }),
    }),
    checkoutStatus: build.query<CheckoutStatus, string>({
      query: (transaction) => ({ path: `/api/billing/checkouts/paddle/${encodeURIComponent(transaction)}`, overlay: false }),
    }),
    subscriptionAction: build.mutation<BillingActionAnswer, { id: string; action: ActionPath }>({
      query: ({ id, action }) => ({ path: `/api/billing/subscriptions/paddle/${encodeURIComponent(id)}/${action}`, method: 'POST', overlay: false }),
    }),
  }),
});

export const { useSubscriptionsQuery, useSubscriptionQuery, usePaddleCheckoutMutation, useCheckoutStatusQuery, useSubscriptionActionMutation } = billingApi;

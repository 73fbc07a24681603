/**
 * Billing's reads and actions (`/api/billing`): the user's subscriptions (or, for staff, another
 * user's), one subscription and its receipts, the providers that sell now, each provider's checkout
 * data, where a purchase stands, and the actions a provider offers (plan changes with the
 * provider's proration preview). Reads are not through the overlay: the pages show failures in place.
 */
import type {
  BillingActionAnswer,
  BillingInvoicesAnswer,
  BillingProvider,
  BillingSubscription,
  BillingSubscriptionsAnswer,
  ChangePlanPreview,
  CheckoutStatus,
  FastspringCheckoutAnswer,
  PaddleCheckoutAnswer,
  RedirectCheckoutAnswer,
} from '@tickety/api-contract';
import { api, buildUrl } from '@tickety/shared';

export type ActionPath = 'cancel' | 'resume' | 'payment-method' | 'portal';

/** The providers whose checkout is a page to send the buyer to (Chargebee's hosted checkout, Discord's store). */
export type RedirectProvider = 'chargebee' | 'discord';

export interface SubscriptionRef {
  provider: BillingProvider;
  id: string;
  /** Staff's read of another user's subscription (read-only, audited). */
  user?: string;
}

const subscriptionsPath = (user?: string) => (user ? `/api/billing/users/${encodeURIComponent(user)}/subscriptions` : '/api/billing/subscriptions');
const subscriptionPath = ({ provider, id, user }: SubscriptionRef) => `${subscriptionsPath(user)}/${provider}/${encodeURIComponent(id)}`;

/** The address of a receipt's document (the API answers a redirect to the provider's copy): the own view only. */
export function invoiceDocumentUrl(provider: BillingProvider, id: string, invoice: string): string {
  return buildUrl(`${subscriptionPath({ provider, id })}/invoices/${encodeURIComponent(invoice)}`);
}

export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<BillingSubscriptionsAnswer, { user?: string }>({
      // A staff read of another user's billing is audited: the API takes it from the dashboard's own fetch only.
      query: ({ user }) => ({ path: subscriptionsPath(user), overlay: false, fromDashboard: user !== undefined }),
    }),
    subscription: build.query<BillingSubscription, SubscriptionRef>({
      query: (ref) => ({ path: subscriptionPath(ref), overlay: false, fromDashboard: ref.user !== undefined }),
    }),
    invoices: build.query<BillingInvoicesAnswer, SubscriptionRef>({
      query: (ref) => ({ path: `${subscriptionPath(ref)}/invoices`, overlay: false, fromDashboard: ref.user !== undefined }),
    }),
    /** The providers this server can sell through now (public). */
    billingProviders: build.query<{ available: BillingProvider[] }, void>({
      query: () => ({ path: '/api/billing/providers', overlay: false }),
    }),
    paddleCheckout: build.mutation<PaddleCheckoutAnswer, { priceId: string }>({
      query: (body) => ({ path: '/api/billing/paddle/checkout', method: 'POST', body, overlay: false }),
    }),
    fastspringCheckout: build.mutation<FastspringCheckoutAnswer, { priceId: string }>({
      query: (body) => ({ path: '/api/billing/fastspring/checkout', method: 'POST', body, overlay: false }),
    }),
    redirectCheckout: build.mutation<RedirectCheckoutAnswer, { provider: RedirectProvider; priceId: string }>({
      query: ({ provider, priceId }) => ({ path: `/api/billing/${provider}/checkout`, method: 'POST', body: { priceId }, overlay: false }),
    }),
    /** Paddle: the transaction id; FastSpring: the order id; Chargebee: the hosted page id; Discord: the SKU id. */
    checkoutStatus: build.query<CheckoutStatus, { provider: BillingProvider; reference: string }>({
      query: ({ provider, reference }) => ({ path: `/api/billing/checkouts/${provider}/${encodeURIComponent(reference)}`, overlay: false }),
    }),
    subscriptionAction: build.mutation<BillingActionAnswer, { provider: BillingProvider; id: string; action: ActionPath }>({
      query: ({ provider, id, action }) => ({ path: `${subscriptionPath({ provider, id })}/${action}`, method: 'POST', overlay: false }),
    }),
    changePlanPreview: build.mutation<ChangePlanPreview, { provider: BillingProvider; id: string; priceId: string }>({
      query: ({ provider, id, priceId }) => ({ path: `${subscriptionPath({ provider, id })}/change-plan/preview`, method: 'POST', body: { priceId }, overlay: false }),
    }),
    changePlan: build.mutation<BillingActionAnswer, { provider: BillingProvider; id: string; priceId: string }>({
      query: ({ provider, id, priceId }) => ({ path: `${subscriptionPath({ provider, id })}/change-plan`, method: 'POST', body: { priceId }, overlay: false }),
    }),
  }),
});

export const {
  useSubscriptionsQuery,
  useSubscriptionQuery,
  useInvoicesQuery,
  useBillingProvidersQuery,
  usePaddleCheckoutMutation,
  useFastspringCheckoutMutation,
  useRedirectCheckoutMutation,
  useCheckoutStatusQuery,
  useSubscriptionActionMutation,
  useChangePlanPreviewMutation,
  useChangePlanMutation,
} = billingApi;

/**
 * The subscription page's own calls: its receipts and a receipt's document, and a plan change with
 * the provider's proration preview (the subscription and its other actions: lib/billing-api).
 */
import type { BillingActionAnswer, BillingInvoicesAnswer, BillingProvider, ChangePlanPreview } from '@tickety/api-contract';
import { buildUrl } from '@tickety/shared';
import { billingTags, type SubscriptionRef, subscriptionPath, subscriptionTag } from '../../lib/billing-api';

/** The address of a receipt's document (the API answers a redirect to the provider's copy): the own view only. */
export function invoiceDocumentUrl(provider: BillingProvider, id: string, invoice: string): string {
  return buildUrl(`${subscriptionPath({ provider, id })}/invoices/${encodeURIComponent(invoice)}`);
}

const billingProviderApi = billingTags.injectEndpoints({
  endpoints: (build) => ({
    invoices: build.query<BillingInvoicesAnswer, SubscriptionRef>({
      query: (ref) => ({ path: `${subscriptionPath(ref)}/invoices`, overlay: false, fromDashboard: ref.user !== undefined }),
      providesTags: (_result, _error, ref) => [subscriptionTag(ref)],
    }),
    changePlanPreview: build.mutation<ChangePlanPreview, { provider: BillingProvider; id: string; priceId: string }>({
      query: ({ provider, id, priceId }) => ({ path: `${subscriptionPath({ provider, id })}/change-plan/preview`, method: 'POST', body: { priceId }, overlay: false }),
    }),
    changePlan: build.mutation<BillingActionAnswer, { provider: BillingProvider; id: string; priceId: string }>({
      query: ({ provider, id, priceId }) => ({ path: `${subscriptionPath({ provider, id })}/change-plan`, method: 'POST', body: { priceId }, overlay: false }),
      invalidatesTags: (_result, error, ref) => (error ? [] : [subscriptionTag(ref), 'BillingSubscriptions']),
    }),
  }),
});

export const { useInvoicesQuery, useChangePlanPreviewMutation, useChangePlanMutation } = billingProviderApi;

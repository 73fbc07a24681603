/** The premium purchase page's read: the providers this server can sell through now (public). */
import type { BillingProvidersAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

const premiumPurchaseApi = api.injectEndpoints({
  endpoints: (build) => ({
    billingProviders: build.query<BillingProvidersAnswer, void>({
      query: () => ({ path: '/api/billing/providers', overlay: false }),
    }),
  }),
});

export const { useBillingProvidersQuery } = premiumPurchaseApi;

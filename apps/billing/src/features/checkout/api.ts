/** The checkouts of FastSpring (its popup's session), Chargebee and Discord (a page to send the buyer to). */
import type { FastspringCheckoutAnswer, RedirectCheckoutAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

/** The providers whose checkout is a page to send the buyer to (Chargebee's hosted checkout, Discord's store). */
type RedirectProvider = 'chargebee' | 'discord';

const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    fastspringCheckout: build.mutation<FastspringCheckoutAnswer, { priceId: string }>({
      query: (body) => ({ path: '/api/billing/fastspring/checkout', method: 'POST', body, overlay: false }),
    }),
    redirectCheckout: build.mutation<RedirectCheckoutAnswer, { provider: RedirectProvider; priceId: string }>({
      query: ({ provider, priceId }) => ({ path: `/api/billing/${provider}/checkout`, method: 'POST', body: { priceId }, overlay: false }),
    }),
  }),
});

export const { useFastspringCheckoutMutation, useRedirectCheckoutMutation } = checkoutApi;

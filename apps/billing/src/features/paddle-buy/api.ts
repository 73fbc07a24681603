/** Paddle's checkout: the transaction the API prepares for the signed-in user and the chosen price. */
import type { PaddleCheckoutAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

const paddleBuyApi = api.injectEndpoints({
  endpoints: (build) => ({
    paddleCheckout: build.mutation<PaddleCheckoutAnswer, { priceId: string }>({
      query: (body) => ({ path: '/api/billing/paddle/checkout', method: 'POST', body, overlay: false }),
    }),
  }),
});

export const { usePaddleCheckoutMutation } = paddleBuyApi;

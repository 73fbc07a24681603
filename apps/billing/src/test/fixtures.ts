import type { Plan } from '@tickety/api-contract';
import { TEST_PLANS, testSubscription } from '@tickety/shared/testing';

/** The plan catalogue fixture (one definition, in @tickety/shared/testing). */
export const PLANS = TEST_PLANS;

/** The catalogue with Premium sold by every provider, as apps/api/config/plans.json ships it (Discord monthly only). */
export const ALL_PROVIDER_PLANS: Plan[] = TEST_PLANS.map((plan) =>
  plan.id === 'premium'
    ? {
        ...plan,
        providerPrices: [
          ...plan.providerPrices,
          { provider: 'fastspring', id: 'tickety-premium-monthly', interval: 'month' },
          { provider: 'fastspring', id: 'tickety-premium-yearly', interval: 'year' },
          { provider: 'discord', id: '1300000000000000801', interval: 'month' },
          { provider: 'chargebee', id: 'tickety-premium-USD-Monthly', interval: 'month' },
          { provider: 'chargebee', id: 'tickety-premium-USD-Yearly', interval: 'year' },
        ],
      }
    : plan,
);

/** A Paddle subscription as `/api/billing` answers it (one definition, in @tickety/shared/testing). */
export const subscription = testSubscription;

/** A JSON answer for mockApi's answer functions. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

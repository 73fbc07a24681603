import type { Plan } from '@tickety/api-contract';
import { api } from './client/api';
import type { AppDispatch } from './store';

/**
 * The plan catalogue (`GET /api/plans`, the API's configuration), one cache for every page that shows
 * prices (marketing's premium pages, billing's purchase page), with the price helpers they share.
 */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    plans: build.query<Plan[], void>({ query: () => '/api/plans', providesTags: ['Plans'], keepUnusedDataFor: 300 }),
  }),
});

export const { usePlansQuery } = plansApi;

/** Puts a plan catalogue the page arrived with into the cache, as if `GET /api/plans` had answered it. */
export function seedPlans(dispatch: AppDispatch, plans: Plan[]): void {
  dispatch(plansApi.util.upsertQueryEntries([{ endpointName: 'plans', arg: undefined, value: plans }]));
}

export type BillingInterval = 'monthly' | 'yearly';

/** The price of a plan for an interval, in major units; null when the plan is not sold that way. */
export function priceFor(plan: Plan, interval: BillingInterval): number | null {
  return interval === 'monthly' ? plan.priceMonthly : plan.priceYearly;
}

/** A plan someone pays for: a price above zero for at least one interval. */
export function isPaid(plan: Plan): boolean {
  return (plan.priceMonthly ?? 0) > 0 || (plan.priceYearly ?? 0) > 0;
}

/** Whole percent saved by paying yearly instead of twelve months, rounded down (never overstated); null when there is none to state. */
export function yearlySaving(plan: Plan): number | null {
  if (!plan.priceMonthly || plan.priceYearly === null) return null;
  const pct = Math.floor((1 - plan.priceYearly / (plan.priceMonthly * 12)) * 100);
  return pct > 0 ? pct : null;
}

import type { Plan } from '@tickety/api-contract';
import { api } from '@tickety/shared';

/** `GET /api/plans`: the plan catalogue (the API's config/plans.json). Loading and error overlays come from the shared client. */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    billingPlans: build.query<Plan[], void>({ query: () => '/api/plans', providesTags: ['Plans'] }),
  }),
});

export const { useBillingPlansQuery } = plansApi;

export type BillingInterval = 'monthly' | 'yearly';

/** The price of a plan for an interval, in major units; null when the plan is not sold that way. */
export function priceFor(plan: Plan, interval: BillingInterval): number | null {
  return interval === 'monthly' ? plan.priceMonthly : plan.priceYearly;
}

/** A plan someone pays for: a price above zero for at least one interval. */
export function isPaid(plan: Plan): boolean {
  return (plan.priceMonthly ?? 0) > 0 || (plan.priceYearly ?? 0) > 0;
}

/** Whole percent saved by paying yearly instead of twelve months; null when there is no saving to state. */
export function yearlySaving(plan: Plan): number | null {
  if (!plan.priceMonthly || plan.priceYearly === null) return null;
  const pct = Math.round((1 - plan.priceYearly / (plan.priceMonthly * 12)) * 100);
  return pct > 0 ? pct : null;
}

export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
}

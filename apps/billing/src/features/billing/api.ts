/** The Billing page's read: the user's subscriptions (or, for staff, another user's). */
import type { BillingSubscriptionsAnswer } from '@tickety/api-contract';
import { billingTags, subscriptionsPath } from '../../lib/billing-api';

const billingListApi = billingTags.injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<BillingSubscriptionsAnswer, { user?: string }>({
      // A staff read of another user's billing is audited: the API takes it from the dashboard's own fetch only.
      query: ({ user }) => ({ path: subscriptionsPath(user), overlay: false, fromDashboard: user !== undefined }),
      providesTags: ['BillingSubscriptions'],
    }),
  }),
});

export const { useSubscriptionsQuery } = billingListApi;

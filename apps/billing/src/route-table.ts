import type { RouteTable } from '@tickety/shared';

const PROVIDERS = ['paddle', 'fastspring', 'discord', 'chargebee'] as const;

/** The pages the billing remote owns (the subscription layout). Emitted as routes.json by its build. */
export const routeTable = {
  schema: 1,
  remote: 'billing',
  mounts: ['/premium-purchase', '/billing'],
  routes: [
    {
      path: '/premium-purchase',
      layout: 'subscription',
      page: 'premiumPurchase',
      title: 'Premium Purchase',
      description: 'Buy Tickety premium for your Discord servers, monthly or yearly.',
    },
    { path: '/billing', layout: 'subscription', page: 'billing', title: 'Billing', requiresAuth: true },
    { path: '/billing/paddleBuy', layout: 'subscription', page: 'paddleBuy', title: 'Checkout', requiresAuth: true },
    // FastSpring, Chargebee and Discord purchases (Paddle's is /billing/paddleBuy); before /billing/:user.
    { path: '/billing/checkout', layout: 'subscription', page: 'checkout', title: 'Checkout', requiresAuth: true },
    { path: '/billing/paddleUpdate', layout: 'subscription', page: 'paddleUpdate', title: 'Update Payment Method', requiresAuth: true },
    ...PROVIDERS.flatMap((provider) => [
      { path: `/billing/${provider}/:id`, layout: 'subscription', page: 'billingProvider', title: 'Subscription', requiresAuth: true, data: { provider } } as const,
      // The team's read-only view of a user's billing.
      {
        path: `/billing/:user/${provider}/:id`,
        layout: 'subscription',
        page: 'billingProvider',
        title: 'Subscription',
        permission: 'DASHBOARD_SUPPORT_SYSTEM_READ',
        data: { provider },
      } as const,
    ]),
    { path: '/billing/:user', layout: 'subscription', page: 'billing', title: 'Billing', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
  ],
} as const satisfies RouteTable;

export default routeTable;

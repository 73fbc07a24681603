import { defineRemoteRoutes } from '@tickety/shared';
import { lazy } from 'react';
import { catalog } from './lib/i18n';
import { routeTable } from './route-table';
import './styles.css';

/**
 * The billing remote's `./routes`: one lazily loaded chunk per page (the shell wraps pages in
 * Suspense and owns paths, layouts, titles and guards).
 */
export const remoteRoutes = defineRemoteRoutes({
  id: 'billing',
  table: routeTable,
  catalog,
  routes: {
    premiumPurchase: { Component: lazy(() => import('./features/premium-purchase/premium-purchase')) },
    billing: { Component: lazy(() => import('./features/billing/billing')) },
    billingProvider: { Component: lazy(() => import('./features/billing-provider/billing-provider')) },
    paddleBuy: { Component: lazy(() => import('./features/paddle-buy/paddle-buy')) },
    checkout: { Component: lazy(() => import('./features/checkout/checkout')) },
    paddleUpdate: { Component: lazy(() => import('./features/paddle-update/paddle-update')) },
  },
});

export default remoteRoutes;

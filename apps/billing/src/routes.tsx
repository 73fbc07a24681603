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
    premiumPurchase: { Component: lazy(() => import('./pages/premium-purchase')) },
    billing: { Component: lazy(() => import('./pages/billing')) },
    billingProvider: { Component: lazy(() => import('./pages/billing-provider')) },
    paddleBuy: { Component: lazy(() => import('./pages/paddle-buy')) },
    checkout: { Component: lazy(() => import('./pages/checkout')) },
    paddleUpdate: { Component: lazy(() => import('./pages/paddle-update')) },
  },
});

export default remoteRoutes;

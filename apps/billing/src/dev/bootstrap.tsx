// Standalone development only (`pnpm --filter @tickety/billing dev`): the remote's pages without the shell.
import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';
import './dev.css';

void startStandalone(routes, [
  { path: '/premium-purchase', page: 'premiumPurchase' },
  { path: '/billing', page: 'billing' },
  { path: '/billing/paddleBuy', page: 'paddleBuy' },
  { path: '/billing/paddleUpdate', page: 'paddleUpdate' },
  ...(['paddle', 'fastspring', 'discord', 'chargebee'] as const).flatMap((provider) => [
    { path: `/billing/${provider}/:id`, page: 'billingProvider' as const, handle: { data: { provider } } },
    { path: `/billing/:user/${provider}/:id`, page: 'billingProvider' as const, handle: { data: { provider } } },
  ]),
  { path: '/billing/:user', page: 'billing' },
]);

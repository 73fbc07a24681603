import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';

// `pnpm dev --filter @tickety/marketing`: the pages on their own dev server, against the API on :3000.
void startStandalone(routes, [
  { path: '/', page: 'home' },
  { path: '/premium', page: 'premium', handle: { title: 'Premium' } },
  ...(['terms-of-service', 'privacy-policy', 'legal', 'refund-policy', 'aup-policy'] as const).map((policy) => ({
    path: `/${policy}`,
    page: 'policy' as const,
    handle: { data: { policy } },
  })),
  { path: '/support', page: 'support' },
  { path: '/invite', page: 'invite' },
  { path: '/status', page: 'status' },
  { path: '/home-display', page: 'homeDisplay' },
  { path: '/premium-display', page: 'premiumDisplay' },
  { path: '/clipboard', page: 'clipboard' },
]);

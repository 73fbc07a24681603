import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';

// `pnpm dev --filter @tickety/marketing`: the pages on their own dev server, against the API on :3000.
// Tailwind's base for the standalone page, development builds only: in production the shell's
// stylesheet provides it, and a full sheet must not ride along with the chunk holding ./routes.
const styles = process.env.NODE_ENV === 'production' ? Promise.resolve() : import('./dev.css');

void styles.then(() =>
  startStandalone(routes, [
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
  ]),
);

import type { RouteTable } from '@tickety/shared';

const POLICIES = [
  ['/terms-of-service', 'Terms of Service', 'terms-of-service'],
  ['/privacy-policy', 'Privacy Policy', 'privacy-policy'],
  ['/legal', 'Legal', 'legal'],
  ['/refund-policy', 'Refund Policy', 'refund-policy'],
  ['/aup-policy', 'Acceptable Use Policy', 'aup-policy'],
] as const;

/**
 * The pages the marketing remote owns: the public site and the embeddable display pages. Its build
 * emits this as routes.json; config.json carries it to the shell and the server.
 */
export const routeTable = {
  schema: 1,
  remote: 'marketing',
  mounts: ['/', '/support', '/invite', ...POLICIES.map(([path]) => path), '/premium', '/status', '/home-display', '/premium-display', '/clipboard'],
  routes: [
    { path: '/', layout: 'public', page: 'home' },
    { path: '/support', layout: 'public', page: 'support', title: 'Support' },
    { path: '/invite', layout: 'public', page: 'invite', title: 'Invite' },
    ...POLICIES.map(([path, title, policy]) => ({ path, layout: 'public' as const, page: 'policy' as const, title, data: { policy } })),
    { path: '/premium', layout: 'public', page: 'premium', title: 'Premium' },
    { path: '/status', layout: 'public', page: 'status', title: 'Status' },
    // The only pages other sites may frame.
    { path: '/home-display', layout: 'display', page: 'homeDisplay', title: 'Home Display' },
    { path: '/premium-display', layout: 'display', page: 'premiumDisplay', title: 'Premium Display' },
    { path: '/clipboard', layout: 'display', page: 'clipboard', title: 'Clipboard' },
  ],
} as const satisfies RouteTable;

export default routeTable;

import type { RouteTable } from '@tickety/shared';

/**
 * The policy documents: one page each (its own page id, so the shell titles and describes each in the
 * reader's language from the catalogue's `title.<page>` / `description.<page>`), all rendered by the
 * one policy component, which reads the document from `data.policy`.
 */
const POLICIES = [
  ['/terms-of-service', 'termsOfService', 'Terms of Service', 'terms-of-service', 'The terms that apply when you use the Tickety bot and its dashboard.'],
  ['/privacy-policy', 'privacyPolicy', 'Privacy Policy', 'privacy-policy', 'What Tickety stores about you and your servers, why, for how long, and how to have it deleted.'],
  ['/legal', 'legal', 'Legal', 'legal', 'Who runs Tickety and how to reach us.'],
  ['/refund-policy', 'refundPolicy', 'Refund Policy', 'refund-policy', 'When and how Tickety premium purchases are refunded.'],
  ['/aup-policy', 'aupPolicy', 'Acceptable Use Policy', 'aup-policy', 'What the Tickety bot may not be used for.'],
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
    {
      path: '/',
      layout: 'public',
      page: 'home',
      description: 'Tickety is the ticket-support bot for Discord: ticket panels with forms, claiming, transcripts and statistics, configured from a web dashboard.',
    },
    { path: '/support', layout: 'public', page: 'support', title: 'Support', description: 'Get help with Tickety: answers to common questions and our Discord support server.' },
    { path: '/invite', layout: 'public', page: 'invite', title: 'Invite', description: 'Add the Tickety bot to your Discord server.' },
    ...POLICIES.map(([path, page, title, policy, description]) => ({ path, layout: 'public' as const, page, title, description, data: { policy } })),
    { path: '/premium', layout: 'public', page: 'premium', title: 'Premium', description: 'Tickety premium: more ticket panels, support hours, longer statistics and transcript history.' },
    { path: '/status', layout: 'public', page: 'status', title: 'Status', description: 'Whether the Tickety bot, its dashboard and its API are working right now.' },
    // The only pages other sites may frame.
    { path: '/home-display', layout: 'display', page: 'homeDisplay', title: 'Home Display' },
    { path: '/premium-display', layout: 'display', page: 'premiumDisplay', title: 'Premium Display' },
    { path: '/clipboard', layout: 'display', page: 'clipboard', title: 'Clipboard' },
  ],
} as const satisfies RouteTable;

export default routeTable;

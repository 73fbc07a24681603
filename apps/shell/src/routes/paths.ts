import type { LayoutId, RemoteId, RouteHandle } from '@tickety/shared';

/**
 * Every route of spec §2: path, layout, title, guard, and which remote page renders it. The router
 * (routes/table.tsx) is built from this list; it is also the one place to read when adding a page.
 * Titles become '{product} - <title>'; a route without a title gets the default title.
 */
export interface PageRoute {
  path: string;
  layout: LayoutId;
  handle: RouteHandle & { remote?: RemoteId };
}

const SERVER = '/dashboard/:server';

export const PAGE_ROUTES: PageRoute[] = [
  // Public layout (marketing)
  { path: '/', layout: 'public', handle: { remote: 'marketing', page: 'home' } },
  { path: '/support', layout: 'public', handle: { title: 'Support', remote: 'marketing', page: 'support' } },
  { path: '/invite', layout: 'public', handle: { title: 'Invite', remote: 'marketing', page: 'invite' } },
  { path: '/terms-of-service', layout: 'public', handle: { title: 'Terms of Service', remote: 'marketing', page: 'policy', data: { policy: 'terms-of-service' } } },
  { path: '/privacy-policy', layout: 'public', handle: { title: 'Privacy Policy', remote: 'marketing', page: 'policy', data: { policy: 'privacy-policy' } } },
  { path: '/legal', layout: 'public', handle: { title: 'Legal', remote: 'marketing', page: 'policy', data: { policy: 'legal' } } },
  { path: '/refund-policy', layout: 'public', handle: { title: 'Refund Policy', remote: 'marketing', page: 'policy', data: { policy: 'refund-policy' } } },
  { path: '/aup-policy', layout: 'public', handle: { title: 'Acceptable Use Policy', remote: 'marketing', page: 'policy', data: { policy: 'aup-policy' } } },
  { path: '/premium', layout: 'public', handle: { title: 'Premium', remote: 'marketing', page: 'premium' } },
  { path: '/status', layout: 'public', handle: { title: 'Status', remote: 'marketing', page: 'status' } },

  // Embeddable display layout (the only pages other sites may frame)
  { path: '/home-display', layout: 'display', handle: { title: 'Home Display', remote: 'marketing', page: 'homeDisplay' } },
  { path: '/premium-display', layout: 'display', handle: { title: 'Premium Display', remote: 'marketing', page: 'premiumDisplay' } },
  { path: '/clipboard', layout: 'display', handle: { title: 'Clipboard', remote: 'marketing', page: 'clipboard' } },

  // Subscription layout (billing)
  { path: '/premium-purchase', layout: 'subscription', handle: { title: 'Premium Purchase', remote: 'billing', page: 'premiumPurchase' } },
  { path: '/billing', layout: 'subscription', handle: { title: 'Billing', requiresAuth: true, remote: 'billing', page: 'billing' } },
  { path: '/billing/paddleBuy', layout: 'subscription', handle: { title: 'Checkout', requiresAuth: true, remote: 'billing', page: 'paddleBuy' } },
  { path: '/billing/paddleUpdate', layout: 'subscription', handle: { title: 'Update Payment Method', requiresAuth: true, remote: 'billing', page: 'paddleUpdate' } },
  ...(['paddle', 'fastspring', 'discord', 'chargebee'] as const).flatMap((provider): PageRoute[] => [
    { path: `/billing/${provider}/:id`, layout: 'subscription', handle: { title: 'Subscription', requiresAuth: true, remote: 'billing', page: 'billingProvider', data: { provider } } },
    {
      path: `/billing/:user/${provider}/:id`,
      layout: 'subscription',
      handle: { title: 'Subscription', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', remote: 'billing', page: 'billingProvider', data: { provider } },
    },
  ]),
  { path: '/billing/:user', layout: 'subscription', handle: { title: 'Billing', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', remote: 'billing', page: 'billing' } },

  // Login layout (the signed-in app)
  { path: '/dashboard', layout: 'login', handle: { title: 'Manage Servers', requiresAuth: true, remote: 'dashboard', page: 'manageServers' } },
  { path: '/team-manager', layout: 'login', handle: { title: 'Team Manager', permission: 'SPECIAL_TEAM_MANAGER_READ', remote: 'staff', page: 'teamManager' } },
  { path: '/test', layout: 'login', handle: { title: 'Test', permission: 'SPECIAL_TEAM_MANAGER_READ', remote: 'staff', page: 'test' } },
  { path: '/system', layout: 'login', handle: { title: 'System', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', remote: 'staff', page: 'system' } },
  { path: '/systemUpdate', layout: 'login', handle: { title: 'System Update', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', remote: 'staff', page: 'systemUpdate' } },
  { path: '/support-team', layout: 'login', handle: { title: 'Support Team', permission: 'DASHBOARD_SUPPORT_SEARCH_READ', remote: 'staff', page: 'supportTeam' } },

  // Server dashboard (server layout with its sidebar); '' redirects to configs
  { path: `${SERVER}/configs`, layout: 'server', handle: { title: 'Panel Menu', requiresAuth: true, remote: 'dashboard', page: 'serverConfigs', sidebar: { label: 'Panel Menu', icon: 'panels' } } },
  { path: `${SERVER}/statistics`, layout: 'server', handle: { title: 'Statistics', requiresAuth: true, remote: 'dashboard', page: 'serverStatistics', sidebar: { label: 'Statistics', icon: 'statistics' } } },
  { path: `${SERVER}/premium`, layout: 'server', handle: { title: 'Server Premium', requiresAuth: true, remote: 'dashboard', page: 'serverPremium', sidebar: { label: 'Premium', icon: 'premium' } } },
  { path: `${SERVER}/logs-web`, layout: 'server', handle: { title: 'Web Logs', requiresAuth: true, remote: 'dashboard', page: 'serverLogsWeb', sidebar: { label: 'Web Logs', icon: 'logs' } } },
  { path: `${SERVER}/server-configs`, layout: 'server', handle: { title: 'Restore Configs', requiresAuth: true, remote: 'dashboard', page: 'serverRestoreConfigs', sidebar: { label: 'Restore Configs', icon: 'restore' } } },

  // Transcripts (shown embedded)
  { path: '/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm', layout: 'transcript', handle: { title: 'Transcript', requiresAuth: true, remote: 'dashboard', page: 'transcriptV1' } },
  { path: '/transcript/v2/:server/:fileid', layout: 'transcript', handle: { title: 'Transcript', requiresAuth: true, remote: 'dashboard', page: 'transcriptV2' } },
];

/** Placeholder `:server` values the bot's old links carry: sent to Manage Servers with `?page=` (spec §2). */
export const PLACEHOLDER_SERVERS = new Set(['server', 'server-id', 'server_id']);

import type { RouteTable, RuntimeConfig } from '@tickety/shared';
import { TEST_CONFIG } from '@tickety/shared/testing';

/**
 * Route tables as the remotes' builds emit them (routes.json), for the shell's tests: a fixture of
 * the kinds of routes the real tables hold (each remote owns its real one; apps never import each
 * other). Public and guarded pages, params, route data, the server layout with its sidebar and
 * index redirect, the display and transcript layouts, staff permissions.
 */
export const TEST_ROUTE_TABLES = {
  marketing: {
    schema: 1,
    remote: 'marketing',
    mounts: ['/', '/premium', '/privacy-policy', '/status', '/home-display'],
    routes: [
      { path: '/', layout: 'public', page: 'home' },
      { path: '/premium', layout: 'public', page: 'premium', title: 'Premium' },
      { path: '/privacy-policy', layout: 'public', page: 'policy', title: 'Privacy Policy', data: { policy: 'privacy-policy' } },
      { path: '/status', layout: 'public', page: 'status', title: 'Status' },
      { path: '/home-display', layout: 'display', page: 'homeDisplay', title: 'Home Display' },
    ],
  },
  billing: {
    schema: 1,
    remote: 'billing',
    mounts: ['/premium-purchase', '/billing'],
    routes: [
      { path: '/premium-purchase', layout: 'subscription', page: 'premiumPurchase', title: 'Premium Purchase' },
      { path: '/billing', layout: 'subscription', page: 'billing', title: 'Billing', requiresAuth: true },
      { path: '/billing/paddle/:id', layout: 'subscription', page: 'billingProvider', title: 'Subscription', requiresAuth: true, data: { provider: 'paddle' } },
      { path: '/billing/:user/paddle/:id', layout: 'subscription', page: 'billingProvider', title: 'Subscription', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', data: { provider: 'paddle' } },
      { path: '/billing/:user', layout: 'subscription', page: 'billing', title: 'Billing', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
    ],
  },
  dashboard: {
    schema: 1,
    remote: 'dashboard',
    mounts: ['/dashboard', '/transcript'],
    routes: [
      { path: '/dashboard', layout: 'login', page: 'manageServers', title: 'Manage Servers', requiresAuth: true },
      {
        path: '/dashboard/:server',
        layout: 'server',
        requiresAuth: true,
        children: [
          { index: true, redirect: 'configs' },
          { path: 'configs', page: 'serverConfigs', title: 'Panel Menu', requiresAuth: true, sidebar: { label: 'Panel Menu', icon: 'panels' }, area: 'panels' },
          { path: 'statistics', page: 'serverStatistics', title: 'Statistics', requiresAuth: true, sidebar: { label: 'Statistics', icon: 'statistics' }, area: 'statistics' },
        ],
      },
      { path: '/transcript/v2/:server/:fileid', layout: 'transcript', page: 'transcriptV2', title: 'Transcript', requiresAuth: true },
    ],
  },
  staff: {
    schema: 1,
    remote: 'staff',
    mounts: ['/team-manager', '/system'],
    routes: [
      { path: '/team-manager', layout: 'login', page: 'teamManager', title: 'Team Manager', permission: 'SPECIAL_TEAM_MANAGER_READ' },
      { path: '/system', layout: 'login', page: 'system', title: 'System', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
    ],
  },
} as const satisfies Record<string, RouteTable>;

/** TEST_CONFIG with the fixture tables (or the given ones) as the deployed remotes. */
export function configWithTables(tables: Partial<Record<keyof typeof TEST_ROUTE_TABLES, unknown>> = TEST_ROUTE_TABLES): RuntimeConfig {
  const remotes: RuntimeConfig['remotes'] = {};
  for (const [id, routes] of Object.entries(tables) as Array<[keyof typeof TEST_ROUTE_TABLES, unknown]>) {
    remotes[id] = { manifest: `${TEST_CONFIG.apiOrigin}/remotes/${id}/v1/mf-manifest.json`, version: 'v1', routes };
  }
  return { ...TEST_CONFIG, remotes };
}

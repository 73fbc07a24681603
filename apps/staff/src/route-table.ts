import type { RouteTable } from '@tickety/shared';

/**
 * The staff pages. The table is public (config.json carries it, so the shell can answer titles,
 * guards and 404s); the remote's code is fetched only for staff.
 */
export const routeTable = {
  schema: 1,
  remote: 'staff',
  mounts: ['/team-manager', '/test', '/system', '/systemUpdate', '/support-team'],
  routes: [
    { path: '/team-manager', layout: 'login', page: 'teamManager', title: 'Team Manager', permission: 'SPECIAL_TEAM_MANAGER_READ' },
    { path: '/test', layout: 'login', page: 'test', title: 'Test', permission: 'SPECIAL_TEAM_MANAGER_READ' },
    { path: '/system', layout: 'login', page: 'system', title: 'System', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
    { path: '/systemUpdate', layout: 'login', page: 'systemUpdate', title: 'System Update', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
    { path: '/support-team', layout: 'login', page: 'supportTeam', title: 'Support Team', permission: 'DASHBOARD_SUPPORT_SEARCH_READ' },
  ],
} as const satisfies RouteTable;

export default routeTable;

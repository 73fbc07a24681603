import { defineRemoteRoutes } from '@tickety/shared';
import { lazy } from 'react';
import { catalog } from './lib/i18n';
import { routeTable } from './route-table';
import './styles.css';

/**
 * The staff remote's `./routes`: one lazily loaded chunk per page. The shell fetches this remote only
 * for staff (any flag) and checks each page's own flag first; the API checks again.
 */
export const remoteRoutes = defineRemoteRoutes({
  id: 'staff',
  table: routeTable,
  catalog,
  requiredPermission: 'ANY_STAFF',
  routes: {
    teamManager: { Component: lazy(() => import('./features/team-manager/team-manager')) },
    test: { Component: lazy(() => import('./features/test/test')) },
    system: { Component: lazy(() => import('./features/system/system')) },
    systemUpdate: { Component: lazy(() => import('./features/system-update/system-update')) },
    supportTeam: { Component: lazy(() => import('./features/support-team/support-team')) },
  },
});

export default remoteRoutes;

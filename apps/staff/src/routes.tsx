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
    teamManager: { Component: lazy(() => import('./pages/team-manager')) },
    test: { Component: lazy(() => import('./pages/test-playground')) },
    system: { Component: lazy(() => import('./pages/system')) },
    systemUpdate: { Component: lazy(() => import('./pages/system-update')) },
    supportTeam: { Component: lazy(() => import('./pages/support-team')) },
  },
});

export default remoteRoutes;

import { defineRemoteRoutes } from '@tickety/shared';
import { lazy } from 'react';
import PanelMenuRoute from './features/configs/route';
import { catalog } from './lib/i18n';
import { routeTable } from './route-table';
import './styles.css';

/**
 * The dashboard remote's pages. Each is its own chunk (`React.lazy`): a visit downloads only the page
 * shown. The shell wraps pages in Suspense and owns their paths, layouts, titles and guards; it loads
 * the catalogue in the reader's language before showing a page.
 */
export const remoteRoutes = defineRemoteRoutes({
  id: 'dashboard',
  table: routeTable,
  catalog,
  routes: {
    manageServers: { Component: lazy(() => import('./features/manage-servers/manage-servers')) },
    // Not lazy itself: it starts the page's reads while the page's chunk downloads.
    serverConfigs: { Component: PanelMenuRoute },
    serverStatistics: { Component: lazy(() => import('./features/statistics/statistics')) },
    serverPremium: { Component: lazy(() => import('./features/premium/premium')) },
    serverLogsWeb: { Component: lazy(() => import('./features/logs-web/logs-web')) },
    serverRestoreConfigs: { Component: lazy(() => import('./features/server-configs/server-configs')) },
    serverTranscripts: { Component: lazy(() => import('./features/transcripts/server-transcripts')) },
    yourTickets: { Component: lazy(() => import('./features/transcripts/your-tickets')) },
    transcriptV1: { Component: lazy(() => import('./features/transcript/v1')) },
    transcriptV2: { Component: lazy(() => import('./features/transcript/v2')) },
  },
});

export default remoteRoutes;

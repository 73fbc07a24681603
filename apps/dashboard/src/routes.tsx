import { type Catalog, defineRemoteRoutes } from '@tickety/shared';
import { type ComponentType, lazy } from 'react';
import { catalog as automation } from './features/configs/automation/i18n';
import { catalog as logsWeb } from './features/logs-web/i18n';
import { HealthBadge } from './features/health/badge';
import { catalog as manageServers } from './features/manage-servers/i18n';
import { catalog as premium } from './features/premium/i18n';
import { catalog as serverConfigs } from './features/server-configs/i18n';
import { catalog as statistics } from './features/statistics/i18n';
import { catalog as tickets } from './features/tickets/i18n';
import { catalog as transcript } from './features/transcript/i18n';
import { catalog as transcripts } from './features/transcripts/i18n';
import { catalog } from './lib/i18n';
import { routeTable } from './route-table';
import './styles.css';

/** A page with the sidebar's count of configuration problems beside it (features/health): set whichever server page is open. */
const withHealthBadge = (Page: ComponentType) => ({
  default: () => (
    <>
      <HealthBadge />
      <Page />
    </>
  ),
});

/** A page's code and its feature's messages, fetched together: it renders with its strings (a server page with the count). */
function page(messages: Pick<Catalog, 'ready'>, code: () => Promise<{ default: ComponentType }>, server = false) {
  return lazy(() => Promise.all([code(), messages.ready()]).then(([module]) => (server ? withHealthBadge(module.default) : module)));
}

/**
 * The dashboard remote's pages. Each is its own chunk (`React.lazy`): a visit downloads only the page
 * shown, and only its feature's messages. The shell wraps pages in Suspense and owns their paths,
 * layouts, titles and guards; it loads the shared catalogue in the reader's language before showing a
 * page.
 */
export const remoteRoutes = defineRemoteRoutes({
  id: 'dashboard',
  table: routeTable,
  catalog,
  routes: {
    manageServers: { Component: page(manageServers, () => import('./features/manage-servers/manage-servers')) },
    // A small chunk of its own, so other pages do not carry it: it starts the page's reads while the
    // page's chunk (and its messages) download.
    serverConfigs: { Component: lazy(() => import('./features/configs/route').then((module) => withHealthBadge(module.default))) },
    serverAutomation: { Component: page(automation, () => import('./features/configs/automation/automation'), true) },
    serverTickets: { Component: page(tickets, () => import('./features/tickets/tickets'), true) },
    serverStatistics: { Component: page(statistics, () => import('./features/statistics/statistics'), true) },
    serverPremium: { Component: page(premium, () => import('./features/premium/premium'), true) },
    serverLogsWeb: { Component: page(logsWeb, () => import('./features/logs-web/logs-web'), true) },
    serverRestoreConfigs: { Component: page(serverConfigs, () => import('./features/server-configs/server-configs'), true) },
    serverTranscripts: { Component: page(transcripts, () => import('./features/transcripts/server-transcripts'), true) },
    yourTickets: { Component: page(transcripts, () => import('./features/transcripts/your-tickets')) },
    transcriptV1: { Component: page(transcript, () => import('./features/transcript/v1')) },
    transcriptV2: { Component: page(transcript, () => import('./features/transcript/v2')) },
  },
});

export default remoteRoutes;

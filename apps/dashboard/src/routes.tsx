import { type Catalog, defineRemoteRoutes } from '@tickety/shared';
import { type ComponentType, lazy } from 'react';
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

/** A page's code and its feature's messages, fetched together: it renders with its strings. */
function page(messages: Pick<Catalog, 'ready'>, code: () => Promise<{ default: ComponentType }>) {
  return lazy(() => Promise.all([code(), messages.ready()]).then(([module]) => module));
}

/**
 * A server page with the sidebar's count of configuration problems beside it (features/health): set
 * whichever server page is open.
 */
const serverPage =
  (Page: ComponentType): ComponentType =>
  () => (
    <>
      <HealthBadge />
      <Page />
    </>
  );

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
    serverConfigs: { Component: serverPage(lazy(() => import('./features/configs/route'))) },
    serverTickets: { Component: serverPage(page(tickets, () => import('./features/tickets/tickets'))) },
    serverStatistics: { Component: serverPage(page(statistics, () => import('./features/statistics/statistics'))) },
    serverPremium: { Component: serverPage(page(premium, () => import('./features/premium/premium'))) },
    serverLogsWeb: { Component: serverPage(page(logsWeb, () => import('./features/logs-web/logs-web'))) },
    serverRestoreConfigs: { Component: serverPage(page(serverConfigs, () => import('./features/server-configs/server-configs'))) },
    serverTranscripts: { Component: serverPage(page(transcripts, () => import('./features/transcripts/server-transcripts'))) },
    yourTickets: { Component: page(transcripts, () => import('./features/transcripts/your-tickets')) },
    transcriptV1: { Component: page(transcript, () => import('./features/transcript/v1')) },
    transcriptV2: { Component: page(transcript, () => import('./features/transcript/v2')) },
  },
});

export default remoteRoutes;

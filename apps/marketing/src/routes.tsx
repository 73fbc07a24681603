import { defineRemoteRoutes } from '@tickety/shared';
import { lazy } from 'react';
import HomePage from './pages/HomePage';
import { routeTable } from './route-table';
import './styles.css';

/**
 * The marketing remote's pages. Each is its own chunk, so a visit to one page downloads only that
 * page (the shell wraps pages in Suspense), except the home page: it is the landing page, so it comes
 * with this module and paints one round trip sooner. react-markdown lives in the policy chunk only.
 */
const PremiumPage = lazy(() => import(/* webpackChunkName: "page-premium" */ './pages/PremiumPage'));
const PolicyPage = lazy(() => import(/* webpackChunkName: "page-policy" */ './pages/PolicyPage'));
const SupportPage = lazy(() => import(/* webpackChunkName: "page-support" */ './pages/SupportPage'));
const InvitePage = lazy(() => import(/* webpackChunkName: "page-invite" */ './pages/InvitePage'));
const StatusPage = lazy(() => import(/* webpackChunkName: "page-status" */ './pages/StatusPage'));
const HomeDisplayPage = lazy(() => import(/* webpackChunkName: "page-home-display" */ './pages/HomeDisplayPage'));
const PremiumDisplayPage = lazy(() => import(/* webpackChunkName: "page-premium-display" */ './pages/PremiumDisplayPage'));
const ClipboardPage = lazy(() => import(/* webpackChunkName: "page-clipboard" */ './pages/ClipboardPage'));

const routes = defineRemoteRoutes({
  id: 'marketing',
  table: routeTable,
  routes: {
    home: { Component: HomePage },
    premium: { Component: PremiumPage },
    policy: { Component: PolicyPage },
    support: { Component: SupportPage },
    invite: { Component: InvitePage },
    status: { Component: StatusPage },
    homeDisplay: { Component: HomeDisplayPage },
    premiumDisplay: { Component: PremiumDisplayPage },
    clipboard: { Component: ClipboardPage },
  },
});

export const remoteRoutes = routes;
export default routes;

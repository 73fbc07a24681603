import type { PageData } from '@tickety/api-contract';
import { type AppDispatch, activeLocale, defineRemoteRoutes, getDispatch, pageData, seedPlans } from '@tickety/shared';
import { lazy } from 'react';
import HomePage from './features/home/home';
import { preloadPolicyAt } from './features/policy/documents';
import { catalog } from './lib/i18n';
import { routeTable } from './route-table';
import './styles.css';

/**
 * The marketing remote's pages. Each is its own chunk, so a visit to one page downloads only that
 * page (the shell wraps pages in Suspense), except the home page: it is the landing page, so it comes
 * with this module and paints one round trip sooner. react-markdown lives in the policy chunk only.
 */
/**
 * A page's chunk, with the data the server put into the page (the plans, the status) put into the
 * cache first: the page's first render shows it, and nothing is fetched again at the takeover.
 */
function withPageData<T>(chunk: Promise<T>, seed: (dispatch: AppDispatch, data: PageData) => void): Promise<T> {
  return chunk.then((page) => {
    if (typeof document !== 'undefined') seed(getDispatch(), pageData());
    return page;
  });
}

const seedPlansOf = (dispatch: AppDispatch, data: PageData) => data.plans && seedPlans(dispatch, data.plans);

const PremiumPage = lazy(() => withPageData(import(/* webpackChunkName: "page-premium" */ './features/premium/premium'), seedPlansOf));
// The document opened on comes with the page's chunk (both in parallel), so the page's first render
// shows it: a prerendered document is then replaced by the same text, never by a skeleton.
const PolicyPage = lazy(() =>
  Promise.all([
    import(/* webpackChunkName: "page-policy" */ './features/policy/policy'),
    typeof window === 'undefined' ? undefined : preloadPolicyAt(window.location.pathname, activeLocale()),
  ]).then(([page]) => page),
);
const SupportPage = lazy(() => import(/* webpackChunkName: "page-support" */ './features/support/support'));
const InvitePage = lazy(() => import(/* webpackChunkName: "page-invite" */ './features/invite/invite'));
const StatusPage = lazy(() =>
  Promise.all([import(/* webpackChunkName: "page-status" */ './features/status/status'), import(/* webpackChunkName: "page-status" */ './features/status/api')]).then(([page, api]) =>
    withPageData(Promise.resolve(page), (dispatch, data) => data.status && api.seedStatus(dispatch, data.status)),
  ),
);
const HomeDisplayPage = lazy(() => import(/* webpackChunkName: "page-home-display" */ './features/home-display/home-display'));
const PremiumDisplayPage = lazy(() => withPageData(import(/* webpackChunkName: "page-premium-display" */ './features/premium-display/premium-display'), seedPlansOf));
const ClipboardPage = lazy(() => import(/* webpackChunkName: "page-clipboard" */ './features/clipboard/clipboard'));

const routes = defineRemoteRoutes({
  id: 'marketing',
  table: routeTable,
  catalog,
  routes: {
    home: { Component: HomePage },
    premium: { Component: PremiumPage },
    // One component for the five documents; each has its own page id (its own title and description).
    termsOfService: { Component: PolicyPage },
    privacyPolicy: { Component: PolicyPage },
    legal: { Component: PolicyPage },
    refundPolicy: { Component: PolicyPage },
    aupPolicy: { Component: PolicyPage },
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

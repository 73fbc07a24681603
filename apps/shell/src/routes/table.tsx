import { type Composition, type LayoutId, REMOTE_IDS, type RemoteId, type RouteDef, type RouteHandle, siteHref } from '@tickety/shared';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, type RouteObject, ScrollRestoration, useLocation } from 'react-router-dom';
import { AnnouncementHost } from '../announcements/announcements';
import { GuardedOutlet } from '../guards/guarded-outlet';
import { DisplayLayout, LoginLayout, PublicLayout, SubscriptionLayout, TranscriptLayout } from '../layouts/layouts';
import { ServerLayout, type SidebarItem } from '../layouts/server-frame';
import { t } from '../lib/i18n';
import { OverlayHost } from '../overlay/overlay-host';
import { DocsRedirect, LoginPage, LogoutPage, NotFound, RouteError, SubscriptionsUserRedirect } from '../pages/pages';
import { RemotePage } from '../remotes/remote-page';
import { useDocumentTitle } from './title';

/**
 * After a client-side move, focus goes to the page's main region (screen readers announce the new
 * page; keyboard users start from its top), not the link that was left behind. Not on the first load.
 */
function useFocusOnNavigate(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  // `pathname` is the trigger on purpose: the effect runs on every navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('content')?.focus({ preventScroll: true });
  }, [pathname]);
}

/** Everything under every layout: the page title, focus and scroll on navigation, the announcement banner, the overlay host. */
function Root() {
  useDocumentTitle();
  useFocusOnNavigate();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <AnnouncementHost />
      <OverlayHost />
    </>
  );
}

/** A route of a remote's table as a react-router route, its handle carrying what the shell reads. */
function toRouteObject(remote: RemoteId, route: RouteDef, layout: LayoutId): RouteObject {
  const handle: RouteHandle = {
    remote,
    layout,
    ...(route.page ? { page: route.page } : {}),
    ...(route.title ? { title: route.title } : {}),
    ...(route.requiresAuth ? { requiresAuth: true } : {}),
    ...(route.permission ? { permission: route.permission } : {}),
    ...(route.sidebar ? { sidebar: { ...route.sidebar } } : {}),
    ...(route.area ? { area: route.area } : {}),
    ...(route.data ? { data: route.data } : {}),
  };
  if (route.index) {
    return route.redirect ? { index: true, element: <Navigate to={route.redirect} replace /> } : { index: true, handle, element: <RemotePage /> };
  }
  if (!route.children) return { path: route.path!, handle, element: <RemotePage /> };
  const children = route.children.map((c) => toRouteObject(remote, c, layout));
  // Each entry names its page: the sidebar shows the remote's translation of it (`sidebar.<page>`).
  const sidebarItems = route.children.flatMap((c): SidebarItem[] =>
    c.sidebar && c.path ? [{ segment: c.path, label: c.sidebar.label, icon: c.sidebar.icon, ...(c.page ? { page: c.page } : {}), ...(c.area ? { area: c.area } : {}) }] : [],
  );
  // A parent route renders its layout's frame (the server layout's sidebar lists its children).
  const frame = layout === 'server' ? <ServerLayout /> : <GuardedOutlet />;
  return {
    path: route.path!,
    handle: { ...handle, sidebarItems },
    element: frame,
    children: layout === 'server' ? [...children, NOT_FOUND] : children,
  };
}

/** The routes of every accepted table that render in `layout` (server-layout routes are their own frame). */
function remoteRoutes(composition: Composition, layout: LayoutId): RouteObject[] {
  return REMOTE_IDS.flatMap((remote) =>
    (composition.tables[remote]?.routes ?? []).filter((r) => r.layout === layout).map((r) => toRouteObject(remote, r, layout)),
  );
}

/**
 * The addresses under a refused table's mounts: its pages cannot be known, so every address there
 * says that part of the site is unavailable (the rest of the site is unaffected).
 */
function refusedRoutes(composition: Composition): RouteObject[] {
  return composition.problems.flatMap((problem) =>
    problem.mounts.flatMap((mount) => {
      const handle: RouteHandle = { remote: problem.remote, unavailable: problem.message };
      const paths = mount === '/' ? ['/'] : [mount, `${mount}/*`];
      return paths.map((path) => ({ path, handle, element: <RemotePage /> }));
    }),
  );
}

// The shell's own titles are functions: read in the active language each time the title is set.
const NOT_FOUND: RouteObject = { path: '*', handle: { title: () => t('title.notFound') } satisfies RouteHandle, element: <NotFound /> };

/**
 * The shell's route table: each layout with the pages the remotes' route tables put in it (from
 * config.json, checked and composed), the shell's own pages (login, logout, docs, 404) and redirects.
 */
export function buildRoutes(composition: Composition): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        {
          element: <PublicLayout />,
          children: [
            ...remoteRoutes(composition, 'public'),
            ...refusedRoutes(composition),
            { path: siteHref('/login'), handle: { title: () => t('title.login') } satisfies RouteHandle, element: <LoginPage /> },
            { path: siteHref('/logout'), handle: { title: () => t('title.logout') } satisfies RouteHandle, element: <LogoutPage /> },
            { path: siteHref('/docs'), handle: { title: () => t('title.docs') } satisfies RouteHandle, element: <DocsRedirect /> },
            NOT_FOUND,
          ],
        },
        { element: <DisplayLayout />, children: remoteRoutes(composition, 'display') },
        { element: <SubscriptionLayout />, children: remoteRoutes(composition, 'subscription') },
        {
          element: <LoginLayout />,
          children: [
            ...remoteRoutes(composition, 'login'),
            { path: '/subscriptions', element: <Navigate to={siteHref('/billing')} replace /> },
            {
              path: '/subscriptions/:user',
              handle: { permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' } satisfies RouteHandle,
              element: <SubscriptionsUserRedirect />,
            },
            { path: '/manage-servers', element: <Navigate to={siteHref('/dashboard')} replace /> },
          ],
        },
        { element: <TranscriptLayout />, children: remoteRoutes(composition, 'transcript') },
        ...remoteRoutes(composition, 'server'),
      ],
    },
  ];
}

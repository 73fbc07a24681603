import type { LayoutId, RouteHandle } from '@tickety/shared';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, type RouteObject, ScrollRestoration, useLocation } from 'react-router-dom';
import { DisplayLayout, LoginLayout, PublicLayout, SubscriptionLayout, TranscriptLayout } from '../layouts/layouts';
import { ServerLayout } from '../layouts/server-layout';
import { OverlayHost } from '../overlay/overlay-host';
import { DocsRedirect, LoginPage, LogoutPage, NotFound, RouteError, SubscriptionsUserRedirect } from '../pages/pages';
import { RemotePage } from '../remotes/remote-page';
import { useDocumentTitle } from './title';
import { PAGE_ROUTES } from './paths';

/**
 * After a client-side move, focus goes to the page's main region (screen readers announce the new
 * page; keyboard users start from its top), not the link that was left behind. Not on the first load.
 */
function useFocusOnNavigate(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('content')?.focus({ preventScroll: true });
  }, [pathname]);
}

/** Everything under every layout: the page title, focus and scroll on navigation, the overlay host. */
function Root() {
  useDocumentTitle();
  useFocusOnNavigate();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <OverlayHost />
    </>
  );
}

function remoteRoutes(layout: LayoutId, relativeTo?: string): RouteObject[] {
  return PAGE_ROUTES.filter((r) => r.layout === layout).map((r) => ({
    path: relativeTo ? r.path.slice(relativeTo.length + 1) : r.path,
    handle: r.handle,
    element: <RemotePage />,
  }));
}

const NOT_FOUND: RouteObject = { path: '*', handle: { title: 'Not Found' } satisfies RouteHandle, element: <NotFound /> };

/**
 * The shell's one route table (spec §2): each layout with its pages (from paths.ts), the shell's own
 * pages (login, logout, 404), the redirects, and the server dashboard with its sidebar pages.
 */
export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        {
          element: <PublicLayout />,
          children: [
            ...remoteRoutes('public'),
            { path: '/login', handle: { title: 'Login' } satisfies RouteHandle, element: <LoginPage /> },
            { path: '/logout', handle: { title: 'Logout' } satisfies RouteHandle, element: <LogoutPage /> },
            { path: '/docs', handle: { title: 'Docs' } satisfies RouteHandle, element: <DocsRedirect /> },
            NOT_FOUND,
          ],
        },
        { element: <DisplayLayout />, children: remoteRoutes('display') },
        { element: <SubscriptionLayout />, children: remoteRoutes('subscription') },
        {
          element: <LoginLayout />,
          children: [
            ...remoteRoutes('login'),
            { path: '/subscriptions', element: <Navigate to="/billing" replace /> },
            {
              path: '/subscriptions/:user',
              handle: { permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' } satisfies RouteHandle,
              element: <SubscriptionsUserRedirect />,
            },
            { path: '/manage-servers', element: <Navigate to="/dashboard" replace /> },
          ],
        },
        { element: <TranscriptLayout />, children: remoteRoutes('transcript') },
        {
          path: '/dashboard/:server',
          handle: { requiresAuth: true } satisfies RouteHandle,
          element: <ServerLayout />,
          children: [{ index: true, element: <Navigate to="configs" replace /> }, ...remoteRoutes('server', '/dashboard/:server'), NOT_FOUND],
        },
      ],
    },
  ];
}

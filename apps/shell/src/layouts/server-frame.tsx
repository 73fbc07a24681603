import { PLACEHOLDER_SERVERS, type RouteHandle, serverApi, siteHref } from '@tickety/shared';
import { Skeleton } from '@tickety/ui';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { GuardedOutlet } from '../guards/guarded-outlet';
import { Header } from './header';

/** A sidebar entry as routes/table.tsx builds it: the contract's, with the page it opens (for its translated label). */
export type SidebarItem = NonNullable<RouteHandle['sidebarItems']>[number];

/**
 * The sidebar and the access decision (server-layout.tsx, with its icons and the staff read-only
 * banner) are a chunk of their own: Manage Servers and the public pages never need them. One import
 * for both, started at most once: on the way to a server page (a deep link at start-up, a pointer or
 * focus on a link to one: see preloadServerLayoutOnIntent), else when the frame first renders.
 */
let loading: Promise<typeof import('./server-layout')> | null = null;
export function preloadServerLayout(): Promise<typeof import('./server-layout')> {
  loading ??= import('./server-layout').catch((error: unknown) => {
    // A failed fetch (offline) is tried again at the next render, not remembered.
    loading = null;
    throw error;
  });
  return loading;
}
const Sidebar = lazy(() => preloadServerLayout().then((m) => ({ default: m.Sidebar })));
const ServerAccess = lazy(() => preloadServerLayout().then((m) => ({ default: m.ServerAccess })));

/** A server's address: `/dashboard/<server>` or a page under it, the server not one of the placeholders. */
export function isServerPath(pathname: string): boolean {
  const [, first, server] = pathname.split('/');
  return `/${first}` === siteHref('/dashboard') && !!server && !PLACEHOLDER_SERVERS.includes(server);
}

/**
 * Starts fetching the server layout's chunk when the reader heads for a server page: a pointer over,
 * a touch on or the focus on a link to one (Manage Servers' cards), so it is usually in before the
 * click. Answers the stop.
 */
export function preloadServerLayoutOnIntent(): () => void {
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link) return;
    const url = new URL((link as HTMLAnchorElement).href, window.location.href);
    if (url.origin === window.location.origin && isServerPath(url.pathname)) void preloadServerLayout().catch(() => undefined);
  };
  const events = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const name of events) document.addEventListener(name, onIntent, { passive: true, capture: true });
  return () => {
    for (const name of events) document.removeEventListener(name, onIntent, { capture: true });
  };
}

/** Where a placeholder link (`/dashboard/server-id/statistics#x`) goes: `/dashboard?page=statistics#x`. */
export function placeholderTarget(pathname: string, hash: string): string {
  const rest = pathname.split('/').slice(3).filter(Boolean).join('/');
  return `${siteHref('/dashboard', {}, { page: rest || undefined })}${hash}`;
}

/** The sidebar's box while its code arrives (the server's icon and name as the sidebar shows them while loading). */
function SidebarPending() {
  return (
    <aside className="border-b border-surface-200 bg-white lg:w-64 lg:shrink-0 lg:border-r lg:border-b-0 dark:border-surface-800 dark:bg-surface-950">
      <div className="flex items-center gap-3 p-4">
        <Skeleton className="size-10 rounded-xl" />
        <Skeleton className="h-4 w-32" />
      </div>
    </aside>
  );
}

/** What ServerAccess shows while the server's answer is on its way (the same, while its code is). */
export function AccessPending() {
  return (
    <div className="space-y-4" aria-busy="true">
      <Skeleton className="h-9 w-64" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

/**
 * Server dashboard frame (/dashboard/:server/*): app header, the server sidebar, the guarded page.
 * The frame and its main region render at once (focus on navigation lands on a region that stays);
 * the sidebar and the page's access decision follow with their chunk, while the server's answer
 * (`GET /api/guilds/:server`, which both read) is already on its way.
 */
export function ServerLayout() {
  const { server = '' } = useParams();
  const location = useLocation();
  const placeholder = PLACEHOLDER_SERVERS.includes(server);
  const prefetch = serverApi.usePrefetch('getServer');
  useEffect(() => {
    if (placeholder) return;
    prefetch(server);
    void preloadServerLayout().catch(() => undefined);
  }, [placeholder, prefetch, server]);
  if (placeholder) return <Navigate to={placeholderTarget(location.pathname, location.hash)} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <Header variant="app" />
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col lg:flex-row">
        <Suspense fallback={<SidebarPending />}>
          <Sidebar server={server} />
        </Suspense>
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 outline-none sm:px-6">
          <GuardedOutlet>
            <Suspense fallback={<AccessPending />}>
              <ServerAccess server={server} />
            </Suspense>
          </GuardedOutlet>
        </main>
      </div>
    </div>
  );
}

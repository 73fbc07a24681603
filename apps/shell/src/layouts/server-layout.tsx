
import {
  type ServerAccess as Access,
  evaluateServerArea,
  type RemoteId,
  type RouteHandle,
  routeText,
  type SidebarIcon,
  selectGuilds,
  serverAreaOf,
  siteHref,
  useAppSelector,
  useGetServerQuery,
  useI18nRevision,
  useOpenServer,
  useSidebarBadge,
} from '@tickety/shared';
import { Avatar, cx, Skeleton } from '@tickety/ui';
import { ArrowLeftRight, BarChart3, Eye, FileText, Gem, History, LayoutPanelTop, Lock, ScrollText, Settings, Ticket } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link, NavLink, Outlet, useMatches } from 'react-router-dom';
import { useHandles } from '../guards/guarded-outlet';
import { useT } from '../lib/i18n';
import { AccessPending, type SidebarItem } from './server-frame';
import { StaffReadBanner } from './staff-read-banner';

/** The sidebar icons of the contract (SIDEBAR_ICONS): a remote's table names one of these. */
const ICONS: Record<SidebarIcon, ReactNode> = {
  panels: <LayoutPanelTop aria-hidden="true" className="size-4" />,
  statistics: <BarChart3 aria-hidden="true" className="size-4" />,
  premium: <Gem aria-hidden="true" className="size-4" />,
  logs: <ScrollText aria-hidden="true" className="size-4" />,
  restore: <History aria-hidden="true" className="size-4" />,
  tickets: <Ticket aria-hidden="true" className="size-4" />,
  transcripts: <FileText aria-hidden="true" className="size-4" />,
  settings: <Settings aria-hidden="true" className="size-4" />,
};

/** The sidebar's pages, in the route table's order: the server layout route's children with a sidebar entry. */
export function useSidebar(): { remote: RemoteId | undefined; items: SidebarItem[] } {
  const matches = useMatches();
  const handle = matches.map((m) => m.handle as RouteHandle | undefined).find((h) => h?.sidebarItems);
  return { remote: handle?.remote, items: handle?.sidebarItems ?? [] };
}

/** A sidebar entry's label: the remote's translation of its page's name (the table's English until it has loaded). */
export function itemLabel(remote: RemoteId | undefined, item: SidebarItem): string {
  return remote && item.page ? routeText(remote, 'sidebar', item.page, item.label) : item.label;
}

/**
 * The server's sidebar. Where the API's answer says what the user may do (`access`), a page their
 * access only reads is marked "read only" (an eye) and one it does not open "no access" (a lock):
 * both stay links, so the page itself says why and who can grant it.
 */
export function Sidebar({ server }: { server: string }) {
  const { remote, items } = useSidebar();
  const t = useT();
  // The labels come from the remote's catalogue once it has loaded (the table's English until then).
  useI18nRevision();
  const { data } = useGetServerQuery(server);
  const access = data?.access ?? null;
  // A staff member's read-only view (`via` 'staff') is of a server not in their own list: as answered.
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server) ?? (access?.via === 'staff' ? data : undefined);
  return (
    <aside className="border-b border-surface-200 bg-white lg:w-64 lg:shrink-0 lg:border-r lg:border-b-0 dark:border-surface-800 dark:bg-surface-950">
      <div className="flex items-center gap-3 p-4">
        {guild ? <Avatar src={guild.iconUrl} name={guild.name} shape="square" /> : <Skeleton className="size-10 rounded-xl" />}
        <div className="min-w-0">
          <p className="truncate font-semibold text-surface-900 dark:text-surface-50">{guild?.name ?? t('server.fallbackName')}</p>
          <Link to={siteHref('/dashboard')} className="inline-flex items-center gap-1 text-xs text-surface-500 hover:text-primary-700 dark:hover:text-primary-400">
            <ArrowLeftRight aria-hidden="true" className="size-3" /> {t('server.switch')}
          </Link>
        </div>
      </div>
      <nav aria-label={t('server.nav')} className="overflow-x-auto px-2 pb-2 lg:pb-4">
        <ul className="flex gap-1 lg:flex-col">
          {items.map((item) => {
            const level = evaluateServerArea(item.area, access).level;
            return (
              <li key={item.segment}>
                <NavLink
                  to={`${siteHref('/dashboard/:server', { server })}/${item.segment}`}
                  // A page under another's address (configs/automation under configs) marks only itself.
                  end={items.some((other) => other.segment.startsWith(`${item.segment}/`))}
                  data-access={level}
                  className={({ isActive }) =>
                    cx(
                      'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition lg:whitespace-normal',
                      isActive
                        ? 'bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300'
                        : level === 'refused'
                          ? 'text-surface-500 hover:bg-surface-100 hover:text-surface-700 dark:text-surface-400 dark:hover:bg-surface-800 dark:hover:text-surface-200'
                          : 'text-surface-600 hover:bg-surface-100 hover:text-surface-900 dark:text-surface-300 dark:hover:bg-surface-800 dark:hover:text-surface-50',
                    )
                  }
                >
                  <span className="flex shrink-0">{ICONS[item.icon]}</span>
                  <span>{itemLabel(remote, item)}</span>
                  <EntryBadge server={server} segment={item.segment} />
                  {level === 'write' ? null : (
                    <span className="ml-auto flex shrink-0 items-center pl-1" title={t(level === 'read' ? 'server.sidebar.readOnly' : 'server.sidebar.noAccess')}>
                      {level === 'read' ? <Eye aria-hidden="true" className="size-3.5" /> : <Lock aria-hidden="true" className="size-3.5" />}
                      <span className="sr-only">{` (${t(level === 'read' ? 'server.sidebar.readOnly' : 'server.sidebar.noAccess')})`}</span>
                    </span>
                  )}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}

/** The count a page published for its entry (setSidebarBadge of @tickety/shared), with what it counts for screen readers. */
function EntryBadge({ server, segment }: { server: string; segment: string }) {
  const badge = useSidebarBadge(server, segment);
  if (!badge || badge.count <= 0) return null;
  return (
    <span
      data-sidebar-badge=""
      title={badge.label}
      className="ml-auto inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100"
    >
      <span aria-hidden="true">{badge.count > 99 ? '99+' : badge.count}</span>
      <span className="sr-only">{` (${badge.label})`}</span>
    </span>
  );
}

/**
 * The refusals (no access, the bot not on the server, an area the roles do not open): rare, so their
 * own chunk, fetched when one is shown, not with every server page.
 */
const NoAccess = lazy(() => import('./server-refusals').then((m) => ({ default: m.NoAccess })));
const InviteTheBot = lazy(() => import('./server-refusals').then((m) => ({ default: m.InviteTheBot })));
const AreaRefused = lazy(() => import('./server-refusals').then((m) => ({ default: m.AreaRefused })));

/** Access to one server, decided by the API (`GET /api/guilds/:server`); 403/405 show the docs/behaviour.md#request-overlay-and-error-catalogue overlay. */
export function ServerAccess({ server }: { server: string }) {
  const { data, error, isLoading, refetch } = useGetServerQuery(server);
  if (isLoading) return <AccessPending />;
  if (error || !data) {
    // The API's reason (why, and who can grant access) when it gave one; the overlay shows it too.
    return (
      <Suspense fallback={<AccessPending />}>
        <NoAccess error={error} />
      </Suspense>
    );
  }
  if (!data.botInGuild) {
    const recheck = async () => (await refetch()).data?.botInGuild === true;
    return (
      <Suspense fallback={<AccessPending />}>
        <InviteTheBot server={server} name={data.name} recheck={recheck} />
      </Suspense>
    );
  }
  // An answer without `access` (an API older than role access) decided on managers only: full access.
  return <OpenServer server={server} name={data.name} access={data.access ?? null} />;
}

/**
 * The server's pages, with the server marked open for them while they show (`selectOpenServer`: the
 * access of the cached answer, so pages mirror it). A page whose area (the route table's `area`) the
 * user's access does not read is not shown: the refusal says which area, what their roles give, and
 * who can grant it. The API refuses the page's calls anyway (1017). A staff member's read-only view
 * (`via` 'staff': every area read, the server as answered) shows the staff banner above every page.
 */
function OpenServer({ server, name, access }: { server: string; name: string; access: Access | null }) {
  useOpenServer(server);
  const decision = evaluateServerArea(serverAreaOf(useHandles()), access);
  if (decision.level === 'refused' && access) {
    return (
      <Suspense fallback={<AccessPending />}>
        <AreaRefused server={server} name={name} area={decision.area} access={access} />
      </Suspense>
    );
  }
  if (access?.via !== 'staff') return <Outlet />;
  return (
    <>
      <StaffReadBanner serverName={name} />
      <Outlet />
    </>
  );
}

import {
  botInviteUrl,
  PLACEHOLDER_SERVERS,
  type RemoteId,
  type RouteHandle,
  refreshGuilds,
  routeText,
  type SidebarIcon,
  selectGuilds,
  siteHref,
  useAppDispatch,
  errorText,
  useAppSelector,
  useI18nRevision,
  useOpenServer,
  useRuntimeConfig,
} from '@tickety/shared';
import { Avatar, Button, buttonClasses, cx, EmptyState, Skeleton } from '@tickety/ui';
import { ArrowLeftRight, BarChart3, Bot, FileText, Gem, History, LayoutPanelTop, ScrollText, Settings, ShieldX, Ticket } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useMatches, useParams } from 'react-router-dom';
import { GuardedOutlet } from '../guards/guarded-outlet';
import { useT } from '../lib/i18n';
import { useGetServerQuery } from '../server/server-api';
import { Header } from './header';

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

/** A sidebar entry as routes/table.tsx builds it: the contract's, with the page it opens (for its translated label). */
export type SidebarItem = NonNullable<RouteHandle['sidebarItems']>[number];

/** The sidebar's pages, in the route table's order: the server layout route's children with a sidebar entry. */
function useSidebar(): { remote: RemoteId | undefined; items: SidebarItem[] } {
  const matches = useMatches();
  const handle = matches.map((m) => m.handle as RouteHandle | undefined).find((h) => h?.sidebarItems);
  return { remote: handle?.remote, items: handle?.sidebarItems ?? [] };
}

/** Where a placeholder link (`/dashboard/server-id/statistics#x`) goes: `/dashboard?page=statistics#x`. */
export function placeholderTarget(pathname: string, hash: string): string {
  const rest = pathname.split('/').slice(3).filter(Boolean).join('/');
  return `${siteHref('/dashboard', {}, { page: rest || undefined })}${hash}`;
}

function Sidebar({ server }: { server: string }) {
  const { remote, items } = useSidebar();
  const t = useT();
  // The labels come from the remote's catalogue once it has loaded (the table's English until then).
  useI18nRevision();
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server);
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
          {items.map((item) => (
            <li key={item.segment}>
              <NavLink
                to={`${siteHref('/dashboard/:server', { server })}/${item.segment}`}
                className={({ isActive }) =>
                  cx(
                    'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition lg:whitespace-normal',
                    isActive
                      ? 'bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300'
                      : 'text-surface-600 hover:bg-surface-100 hover:text-surface-900 dark:text-surface-300 dark:hover:bg-surface-800 dark:hover:text-surface-50',
                  )
                }
              >
                <span className="flex shrink-0">{ICONS[item.icon]}</span>
                {remote && item.page ? routeText(remote, 'sidebar', item.page, item.label) : item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

function InviteTheBot({ server, name, recheck }: { server: string; name: string; recheck: () => Promise<boolean> }) {
  const config = useRuntimeConfig();
  const dispatch = useAppDispatch();
  const t = useT();
  // What the last refresh found: kept as what to say, so it is said in the language shown.
  const [problem, setProblem] = useState<null | { notYet: true } | { failed: string | undefined }>(null);
  const [busy, setBusy] = useState(false);
  return (
    <EmptyState
      icon={<Bot aria-hidden="true" className="size-6" />}
      title={t('server.invite.title', { product: config.productName, server: name })}
      description={t('server.invite.description', { server: name })}
    >
      <a href={botInviteUrl(config, server)} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'discord' })}>
        {t('server.invite.button')}
      </a>
      <Button
        variant="secondary"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          const result = await dispatch(refreshGuilds());
          if (refreshGuilds.rejected.match(result)) {
            setBusy(false);
            setProblem({ failed: result.payload ? errorText(result.payload) : undefined });
            return;
          }
          const added = await recheck();
          setBusy(false);
          setProblem(added ? null : { notYet: true });
        }}
      >
        {t('server.invite.refresh')}
      </Button>
      {problem ? (
        <p role="status" className="w-full text-sm text-amber-700 dark:text-amber-400">
          {'notYet' in problem ? t('server.invite.notYet', { product: config.productName, server: name }) : (problem.failed ?? t('server.invite.refreshFailed'))}
        </p>
      ) : null}
    </EmptyState>
  );
}

/** Access to one server, decided by the API (`GET /api/guilds/:server`); 403/405 show the docs/behaviour.md#request-overlay-and-error-catalogue overlay. */
function ServerAccess({ server }: { server: string }) {
  const { data, error, isLoading, refetch } = useGetServerQuery(server);
  const t = useT();
  if (isLoading) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (error || !data) {
    return (
      <EmptyState
        icon={<ShieldX aria-hidden="true" className="size-6" />}
        title={t('server.noAccess.title')}
        description={t('server.noAccess.description')}
      >
        <Link to={siteHref('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
          {t('actions.selectServer')}
        </Link>
      </EmptyState>
    );
  }
  if (!data.botInGuild) {
    const recheck = async () => (await refetch()).data?.botInGuild === true;
    return <InviteTheBot server={server} name={data.name} recheck={recheck} />;
  }
  return <OpenServer server={server} />;
}

/** The server's pages, with the server marked open for them (`selectOpenServer`) while they show. */
function OpenServer({ server }: { server: string }) {
  useOpenServer(server);
  return <Outlet />;
}

/** Server dashboard frame (/dashboard/:server/*): app header, the server sidebar, the guarded page. */
export function ServerLayout() {
  const { server = '' } = useParams();
  const location = useLocation();
  if (PLACEHOLDER_SERVERS.includes(server)) return <Navigate to={placeholderTarget(location.pathname, location.hash)} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <Header variant="app" />
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col lg:flex-row">
        <Sidebar server={server} />
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 outline-none sm:px-6">
          <GuardedOutlet>
            <ServerAccess server={server} />
          </GuardedOutlet>
        </main>
      </div>
    </div>
  );
}

import { botInviteUrl, PLACEHOLDER_SERVERS, refreshGuilds, type RouteHandle, type SidebarIcon, selectGuilds, useAppDispatch, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Avatar, Button, buttonClasses, cx, EmptyState, Skeleton } from '@tickety/ui';
import { ArrowLeftRight, BarChart3, Bot, FileText, Gem, History, LayoutPanelTop, ScrollText, Settings, ShieldX, Ticket } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useMatches, useParams } from 'react-router-dom';
import { GuardedOutlet } from '../guards/guarded-outlet';
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

/** The sidebar's pages, in the route table's order: the server layout route's children with a sidebar entry. */
function useSidebar(): NonNullable<RouteHandle['sidebarItems']> {
  const matches = useMatches();
  return matches.map((m) => (m.handle as RouteHandle | undefined)?.sidebarItems).find(Boolean) ?? [];
}

/** Where a placeholder link (`/dashboard/server-id/statistics#x`) goes: `/dashboard?page=statistics#x`. */
export function placeholderTarget(pathname: string, hash: string): string {
  const rest = pathname.split('/').slice(3).filter(Boolean).join('/');
  return `/dashboard${rest ? `?page=${encodeURIComponent(rest)}` : ''}${hash}`;
}

function Sidebar({ server }: { server: string }) {
  const sidebar = useSidebar();
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server);
  return (
    <aside className="border-b border-surface-200 bg-white lg:w-64 lg:shrink-0 lg:border-r lg:border-b-0 dark:border-surface-800 dark:bg-surface-950">
      <div className="flex items-center gap-3 p-4">
        {guild ? <Avatar src={guild.iconUrl} name={guild.name} shape="square" /> : <Skeleton className="size-10 rounded-xl" />}
        <div className="min-w-0">
          <p className="truncate font-semibold text-surface-900 dark:text-surface-50">{guild?.name ?? 'Server'}</p>
          <Link to="/dashboard" className="inline-flex items-center gap-1 text-xs text-surface-500 hover:text-primary-700 dark:hover:text-primary-400">
            <ArrowLeftRight aria-hidden="true" className="size-3" /> Switch server
          </Link>
        </div>
      </div>
      <nav aria-label="Server" className="overflow-x-auto px-2 pb-2 lg:pb-4">
        <ul className="flex gap-1 lg:flex-col">
          {sidebar.map((item) => (
            <li key={item.segment}>
              <NavLink
                to={`/dashboard/${server}/${item.segment}`}
                className={({ isActive }) =>
                  cx(
                    'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition',
                    isActive
                      ? 'bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300'
                      : 'text-surface-600 hover:bg-surface-100 hover:text-surface-900 dark:text-surface-300 dark:hover:bg-surface-800 dark:hover:text-surface-50',
                  )
                }
              >
                {ICONS[item.icon]}
                {item.label}
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
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <EmptyState
      icon={<Bot aria-hidden="true" className="size-6" />}
      title={`${config.productName} isn't in ${name} yet`}
      description={`Add the bot to ${name} to set up ticket panels, statistics and transcripts. When you have added it, refresh your server list.`}
    >
      <a href={botInviteUrl(config, server)} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'discord' })}>
        Invite the bot
      </a>
      <Button
        variant="secondary"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          const result = await dispatch(refreshGuilds());
          if (refreshGuilds.rejected.match(result)) {
            setBusy(false);
            setMessage(result.payload?.message ?? 'Could not refresh your server list.');
            return;
          }
          const added = await recheck();
          setBusy(false);
          setMessage(added ? null : `Discord does not list ${config.productName} in ${name} yet. If you have just added it, wait a few seconds and try again.`);
        }}
      >
        I've added it: refresh
      </Button>
      {message ? (
        <p role="status" className="w-full text-sm text-amber-700 dark:text-amber-400">
          {message}
        </p>
      ) : null}
    </EmptyState>
  );
}

/** Access to one server, decided by the API (`GET /api/guilds/:server`); 403/405 show the spec §8 overlay. */
function ServerAccess({ server }: { server: string }) {
  const { data, error, isLoading, refetch } = useGetServerQuery(server);
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
        title="You don't have access to this server."
        description="Only the server's owner and members with the Administrator or Manage Server permission can manage it here. If your role changed recently, refresh your server list on Manage Servers."
      >
        <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
          Select Another Server
        </Link>
      </EmptyState>
    );
  }
  if (!data.botInGuild) {
    const recheck = async () => (await refetch()).data?.botInGuild === true;
    return <InviteTheBot server={server} name={data.name} recheck={recheck} />;
  }
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

import type { ComponentType } from 'react';
import type { StaffPermission } from '@tickety/api-contract';

/**
 * The contract between the shell and its remotes.
 *
 * The shell owns every path, layout, title and guard (so it can answer a 404, set a title and refuse
 * a guarded page before any remote is fetched). A remote owns its pages: its one exposed module,
 * `./routes`, maps each page id the shell knows to a route module. The shell mounts a remote's
 * routes on the first visit to one of its paths.
 */
export const REMOTE_IDS = ['marketing', 'billing', 'dashboard', 'staff'] as const;
export type RemoteId = (typeof REMOTE_IDS)[number];

/** Every page each remote must provide. Adding a page starts here, then the remote, then the shell table. */
export interface RemotePages {
  marketing:
    | 'home'
    | 'premium'
    | 'policy'
    | 'support'
    | 'invite'
    | 'status'
    | 'homeDisplay'
    | 'premiumDisplay'
    | 'clipboard';
  billing: 'premiumPurchase' | 'billing' | 'billingProvider' | 'paddleBuy' | 'paddleUpdate';
  dashboard:
    | 'manageServers'
    | 'serverConfigs'
    | 'serverStatistics'
    | 'serverPremium'
    | 'serverLogsWeb'
    | 'serverRestoreConfigs'
    | 'transcriptV1'
    | 'transcriptV2';
  staff: 'teamManager' | 'test' | 'system' | 'systemUpdate' | 'supportTeam';
}

export type RemotePageId<R extends RemoteId = RemoteId> = RemotePages[R];

/** What a remote gives the shell for one page (a subset of a react-router route object). */
export interface RemoteRouteModule {
  Component: ComponentType;
  /** Optional page-level error boundary; the shell's boundary is used otherwise. */
  ErrorBoundary?: ComponentType;
}

/** The type of every remote's `./routes` module (its default export and its named `remoteRoutes`). */
export interface RemoteRoutesModule<R extends RemoteId = RemoteId> {
  id: R;
  routes: { [P in RemotePages[R]]: RemoteRouteModule };
  /** Set on remotes the shell may only fetch for users holding this permission (staff). */
  requiredPermission?: StaffPermission | 'ANY_STAFF';
}

/**
 * The class of the element the shell wraps a remote's pages in. Each remote's stylesheet is scoped to
 * it at build time (packages/build-config/src/scope-css.mjs keeps the same rule).
 */
export function remoteScopeClass(id: RemoteId): string {
  return `tk-remote-${id}`;
}

/** Any one remote's routes module (a union over the remotes, not a module with every page). */
export type AnyRemoteRoutesModule = { [R in RemoteId]: RemoteRoutesModule<R> }[RemoteId];

/** Defines a remote's routes module with full type checking against the contract. */
export function defineRemoteRoutes<R extends RemoteId>(module: RemoteRoutesModule<R>): RemoteRoutesModule<R> {
  return module;
}

export type LayoutId = 'public' | 'subscription' | 'login' | 'display' | 'transcript' | 'server';

/** Route `handle` read by the shell's one guard, its title hook and its layouts. */
export interface RouteHandle {
  /** '{product} - <title>'; absent means the default title. A function receives route params. */
  title?: string | ((params: Record<string, string | undefined>) => string);
  requiresAuth?: boolean;
  permission?: StaffPermission;
  /** Which remote and page render this route (leaf routes only). */
  remote?: RemoteId;
  page?: RemotePageId;
  /** A page of the server dashboard's sidebar (server layout). */
  sidebar?: { label: string; icon: string };
  /**
   * Fixed values a page reads with `useRouteData()` when one page serves several paths (the policy
   * page's `policy`, a billing page's `provider`). Route params (`:server`) come from `useParams()`.
   */
  data?: Record<string, string>;
}

import type { AccessArea, LayoutId, RemoteId, RouteTable, SidebarIcon, StaffPermission } from '@tickety/api-contract';
import type { ComponentType } from 'react';
import type { Catalog } from '../i18n/catalog';

export type { Composition, LayoutId, RemoteId, RouteDef, RouteTable, SidebarIcon } from '@tickety/api-contract';
/**
 * The contract between the shell and its remotes.
 *
 * A remote owns its URL space: its route table (`src/route-table.ts`, the `RouteTable` of
 * @tickety/api-contract) declares the paths under the mounts it claims, with their layout, title,
 * guard, sidebar entry and nesting; its build emits the table as `routes.json`, and `config.json`
 * carries it, so the shell knows every path, title and guard before fetching any remote's code. Its
 * one exposed module, `./routes`, holds the same table and a component for every page it names.
 * The shell owns the layouts, guard evaluation, the overlay and the 404 page.
 */
export {
  composeRouteTables,
  documentTitle,
  insideMount,
  isPagePath,
  LAYOUT_IDS,
  leafPaths,
  matchesPattern,
  PLACEHOLDER_SERVERS,
  parseRouteTable,
  REMOTE_IDS,
  RouteTableError,
  SHELL_PATHS,
  SIDEBAR_ICONS,
  STAFF_REMOTE,
} from '@tickety/api-contract';

/** What a remote gives the shell for one page (a subset of a react-router route object). */
export interface RemoteRouteModule {
  Component: ComponentType;
  /** Optional page-level error boundary; the shell's boundary is used otherwise. */
  ErrorBoundary?: ComponentType;
}

/** The page ids a route table names (`page` of every route, nested ones included). */
type PagesIn<R> = R extends readonly (infer E)[]
  ? PagesIn<E>
  : (R extends { readonly page: infer P extends string } ? P : never) | (R extends { readonly children: infer C } ? PagesIn<C> : never);
export type TablePages<T extends RouteTable> = PagesIn<T['routes']>;

/** The type of every remote's `./routes` module (its default export and its named `remoteRoutes`). */
export interface RemoteRoutesModule<T extends RouteTable = RouteTable> {
  id: T['remote'];
  /** The remote's route table, as its build emits it in routes.json. */
  table: T;
  /** A component for every page the table names (a missing one is a type error). */
  routes: { [P in TablePages<T>]: RemoteRouteModule };
  /**
   * The remote's message catalogue (`src/lib/i18n.ts`): the shell loads it in the reader's language
   * before showing a page, and titles pages and sidebar entries with its `title.<page>` and
   * `sidebar.<page>` messages (the table's English ones until it has loaded).
   */
  catalog: Pick<Catalog, 'namespace' | 'ready'>;
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

/** Any one remote's routes module. */
export type AnyRemoteRoutesModule = RemoteRoutesModule<RouteTable>;

/** Defines a remote's routes module, checking that every page of its table has a component. */
export function defineRemoteRoutes<const T extends RouteTable>(module: RemoteRoutesModule<T>): RemoteRoutesModule<T> {
  return module;
}

/** Route `handle` read by the shell's one guard, its title hook and its layouts. */
export interface RouteHandle {
  /** '{product} - <title>'; absent means the default title. A function receives route params. */
  title?: string | ((params: Record<string, string | undefined>) => string);
  requiresAuth?: boolean;
  permission?: StaffPermission;
  /** Which remote and page render this route (leaf routes only). */
  remote?: RemoteId;
  page?: string;
  /** The layout the route renders in. */
  layout?: LayoutId;
  /** A page of its layout's sidebar (the server layout has one). */
  sidebar?: { label: string; icon: SidebarIcon };
  /** A server page's dashboard area (the route table's `area`): the shell shows it only where the user's access reads it. */
  area?: AccessArea;
  /**
   * Fixed values a page reads with `useRouteData()` when one page serves several paths (the policy
   * page's `policy`, a billing page's `provider`). Route params (`:server`) come from `useParams()`.
   */
  data?: Readonly<Record<string, string>>;
  /** A layout route's sidebar entries (relative paths), from its children (the server layout). */
  sidebarItems?: Array<{ segment: string; label: string; icon: SidebarIcon; page?: string; area?: AccessArea }>;
  /** Why this part of the site cannot be shown (its route table was refused): the page says so. */
  unavailable?: string;
}

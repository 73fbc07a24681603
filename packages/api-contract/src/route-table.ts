/**
 * Route tables: how a remote declares the pages it owns, as data (its `src/route-table.ts`, emitted as
 * `routes.json` and carried in `config.json`), so the shell and the server know every page before any
 * remote's code loads. Plain TypeScript on purpose (no zod): docs/api.md#route-tables.
 */

import { ACCESS_AREAS, type AccessArea } from './access-areas';
import { REMOTE_IDS } from './remote-ids.mjs';

export { REMOTE_IDS, STAFF_REMOTE } from './remote-ids.mjs';
export type RemoteId = (typeof REMOTE_IDS)[number];

/** The layouts the shell owns; a route names the one it renders in. */
export const LAYOUT_IDS = ['public', 'subscription', 'login', 'display', 'transcript', 'server'] as const;
export type LayoutId = (typeof LAYOUT_IDS)[number];

/**
 * The icons a sidebar entry may name (the shell draws them; a new one needs a shell release, so the
 * set is part of the contract and a table naming another is refused).
 */
export const SIDEBAR_ICONS = ['panels', 'statistics', 'premium', 'logs', 'restore', 'tickets', 'transcripts', 'settings'] as const;
export type SidebarIcon = (typeof SIDEBAR_ICONS)[number];

/** Staff flags a route may require (the same list as the API's STAFF_PERMISSIONS). */
export const ROUTE_PERMISSIONS = ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ'] as const;

/** The version of the table format; a table of another version is refused. */
export const ROUTE_TABLE_SCHEMA = 1;

/** One route. Top-level paths are absolute; a child's path is relative to its parent. */
export interface RouteDef {
  /** `/billing/:id`; a child: `configs`. Segments are literals or `:params` (letters, digits, `-`, `_`). */
  path?: string;
  /** A child rendered at the parent's own path (with `redirect` or `page`). */
  index?: boolean;
  /** The shell layout this route renders in (top-level routes only; children inherit their parent's). */
  layout?: LayoutId;
  /** The page of this remote's `./routes` module that renders it (leaf routes). */
  page?: string;
  /** Browser title: '{product} - <title>'; absent, the default title. */
  title?: string;
  /** The page's meta description (search results, link previews); absent, the product's. */
  description?: string;
  requiresAuth?: boolean;
  /** A staff permission the user must hold (implies requiresAuth). */
  permission?: (typeof ROUTE_PERMISSIONS)[number];
  /** An entry in the layout's sidebar (the server layout has one). */
  sidebar?: { readonly label: string; readonly icon: SidebarIcon };
  /**
   * A server page's part of the dashboard (children of a `server` layout route): the shell shows the
   * page only to a user whose access to the open server can read that area (the owner and members with
   * Administrator or Manage Server always can; others by the server's access rules), and says who can
   * grant it otherwise. The API checks the same areas on every route.
   */
  area?: AccessArea;
  /** Fixed values the page reads with useRouteData() when one page serves several paths. */
  data?: Readonly<Record<string, string>>;
  /** Index routes only: the relative path to send the browser to. */
  redirect?: string;
  children?: readonly RouteDef[];
}

export interface RouteTable {
  schema: typeof ROUTE_TABLE_SCHEMA;
  remote: RemoteId;
  /**
   * The URL space this remote claims: each mount covers its path and everything under it by whole
   * segments (`/billing` covers `/billing/x`, not `/billing-x`); the mount `/` covers the home page
   * only. Every route of the table lies inside one of them; two remotes never share one.
   */
  mounts: readonly string[];
  routes: readonly RouteDef[];
}

/**
 * Addresses the shell serves itself (sign-in, sign-out, docs, redirects): no remote may claim them.
 */
export const SHELL_PATHS = ['/login', '/logout', '/docs', '/subscriptions', '/manage-servers'] as const;

/** Placeholder `:server` values the bot's old links carry (sent to Manage Servers by the shell). */
export const PLACEHOLDER_SERVERS: readonly string[] = ['server', 'server-id', 'server_id'];

const SEGMENT = /^(?::[A-Za-z][A-Za-z0-9_]*|[A-Za-z0-9][A-Za-z0-9._~-]*)$/;
const KEYS = new Set(['path', 'index', 'layout', 'page', 'title', 'description', 'requiresAuth', 'permission', 'sidebar', 'area', 'data', 'redirect', 'children']);
const MAX_ROUTES = 500;
const MAX_DEPTH = 4;

export class RouteTableError extends Error {
  constructor(
    readonly remote: string,
    readonly problems: string[],
  ) {
    super(`The route table of ${remote} is not valid: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
    this.name = 'RouteTableError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shortString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

/** `/a/:b` → ['a', ':b']; `/` → []. */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Whether `path` lies inside `mount` (by whole segments; the mount `/` holds only `/`). */
export function insideMount(path: string, mount: string): boolean {
  if (mount === '/') return path === '/';
  return path === mount || path.startsWith(`${mount}/`);
}

function validPath(path: string, absolute: boolean): boolean {
  if (path.length > 200) return false;
  if (absolute) {
    if (path === '/') return true;
    if (!path.startsWith('/') || path.endsWith('/')) return false;
    return segmentsOf(path).every((s) => SEGMENT.test(s)) && !path.includes('//');
  }
  if (path.startsWith('/') || path.endsWith('/') || path.includes('//')) return false;
  return segmentsOf(path).length > 0 && segmentsOf(path).every((s) => SEGMENT.test(s));
}

function join(parent: string, child: string): string {
  return parent === '/' ? `/${child}` : `${parent}/${child}`;
}

/**
 * Checks a table (parsed JSON) and returns it typed, or throws RouteTableError listing every
 * problem. `expected` is the remote the table must belong to.
 */
export function parseRouteTable(value: unknown, expected: RemoteId): RouteTable {
  const problems: string[] = [];
  if (!isRecord(value)) throw new RouteTableError(expected, ['the table is not a JSON object']);
  if (value.schema !== ROUTE_TABLE_SCHEMA) problems.push(`"schema" must be ${ROUTE_TABLE_SCHEMA}`);
  if (value.remote !== expected) problems.push(`"remote" must be "${expected}", not ${JSON.stringify(value.remote)}`);
  const mounts = value.mounts;
  if (!Array.isArray(mounts) || mounts.length === 0 || mounts.length > 50) problems.push('"mounts" must list 1 to 50 paths');
  const mountList = Array.isArray(mounts) ? mounts.filter((m): m is string => typeof m === 'string') : [];
  for (const m of Array.isArray(mounts) ? mounts : []) {
    if (typeof m !== 'string' || !validPath(m, true) || m.includes(':')) problems.push(`mount ${JSON.stringify(m)} must be a literal absolute path`);
    else if (SHELL_PATHS.some((s) => insideMount(s, m) || insideMount(m, s))) problems.push(`mount "${m}" overlaps the shell's own address ${SHELL_PATHS.find((s) => insideMount(s, m) || insideMount(m, s))}`);
  }
  for (const [i, a] of mountList.entries()) {
    for (const b of mountList.slice(i + 1)) if (a !== '/' && b !== '/' && (insideMount(a, b) || insideMount(b, a))) problems.push(`mounts "${a}" and "${b}" overlap`);
  }
  let count = 0;
  const seen = new Set<string>();
  const check = (route: unknown, where: string, parent: string | null, depth: number): void => {
    if (++count > MAX_ROUTES) {
      if (count === MAX_ROUTES + 1) problems.push(`more than ${MAX_ROUTES} routes`);
      return;
    }
    if (!isRecord(route)) {
      problems.push(`${where}: not an object`);
      return;
    }
    for (const key of Object.keys(route)) if (!KEYS.has(key)) problems.push(`${where}: unknown field "${key}"`);
    const definition = route as RouteDef;
    let full = parent ?? '';
    if (definition.index === true) {
      if (parent === null) problems.push(`${where}: an index route must be a child`);
      if (definition.path !== undefined) problems.push(`${where}: an index route has no path`);
      if (definition.children !== undefined) problems.push(`${where}: an index route has no children`);
      if (definition.redirect !== undefined && (!shortString(definition.redirect, 200) || !validPath(definition.redirect, false))) problems.push(`${where}: "redirect" must be a relative path`);
      if ((definition.redirect === undefined) === (definition.page === undefined)) problems.push(`${where}: an index route has a page or a redirect`);
    } else {
      if (definition.index !== undefined) problems.push(`${where}: "index" must be true or absent`);
      if (definition.redirect !== undefined) problems.push(`${where}: only index routes redirect`);
      if (typeof definition.path !== 'string' || !validPath(definition.path, parent === null)) {
        problems.push(`${where}: "path" must be ${parent === null ? 'an absolute path such as /billing/:id' : 'a relative path such as configs'}`);
      } else {
        full = parent === null ? definition.path : join(parent, definition.path);
        if (parent === null && !mountList.some((m) => insideMount(definition.path!, m))) problems.push(`${where}: "${definition.path}" is outside this remote's mounts`);
      }
    }
    if (parent === null) {
      if (!(LAYOUT_IDS as readonly unknown[]).includes(definition.layout)) problems.push(`${where}: "layout" must be one of ${LAYOUT_IDS.join(', ')}`);
    } else if (definition.layout !== undefined) problems.push(`${where}: a child takes its parent's layout`);
    if (definition.page !== undefined && !(shortString(definition.page, 60) && /^[A-Za-z][A-Za-z0-9]*$/.test(definition.page))) problems.push(`${where}: "page" must be an identifier`);
    if (definition.title !== undefined && !shortString(definition.title, 100)) problems.push(`${where}: "title" must be 1 to 100 characters`);
    if (definition.description !== undefined && !shortString(definition.description, 300)) problems.push(`${where}: "description" must be 1 to 300 characters`);
    if (definition.requiresAuth !== undefined && typeof definition.requiresAuth !== 'boolean') problems.push(`${where}: "requiresAuth" must be a boolean`);
    if (definition.permission !== undefined && !(ROUTE_PERMISSIONS as readonly unknown[]).includes(definition.permission)) problems.push(`${where}: unknown permission ${JSON.stringify(definition.permission)}`);
    if (definition.sidebar !== undefined && !(isRecord(definition.sidebar) && shortString(definition.sidebar.label, 60) && Object.keys(definition.sidebar).length === 2)) {
      problems.push(`${where}: "sidebar" must be { label, icon }`);
    } else if (definition.sidebar !== undefined && !(SIDEBAR_ICONS as readonly unknown[]).includes(definition.sidebar.icon)) {
      problems.push(`${where}: sidebar icon ${JSON.stringify(definition.sidebar.icon)} is not one of ${SIDEBAR_ICONS.join(', ')}`);
    }
    if (definition.area !== undefined && !(ACCESS_AREAS as readonly unknown[]).includes(definition.area)) {
      problems.push(`${where}: area ${JSON.stringify(definition.area)} is not one of ${ACCESS_AREAS.join(', ')}`);
    }
    if (definition.data !== undefined && !(isRecord(definition.data) && Object.keys(definition.data).length <= 20 && Object.values(definition.data).every((v) => typeof v === 'string' && v.length <= 200))) {
      problems.push(`${where}: "data" must map names to strings`);
    }
    if (definition.children !== undefined) {
      if (!Array.isArray(definition.children) || definition.children.length === 0) problems.push(`${where}: "children" must be a non-empty list`);
      else if (depth >= MAX_DEPTH) problems.push(`${where}: routes nest at most ${MAX_DEPTH} deep`);
      else for (const [i, c] of definition.children.entries()) check(c, `${where}.children[${i}]`, full, depth + 1);
    } else if (definition.index !== true && definition.page === undefined) problems.push(`${where}: a route without children needs a "page"`);
    if (definition.index !== true && typeof definition.path === 'string' && definition.page !== undefined) {
      if (seen.has(full)) problems.push(`${where}: "${full}" is declared twice`);
      seen.add(full);
    }
  };
  if (!Array.isArray(value.routes) || value.routes.length === 0) problems.push('"routes" must be a non-empty list');
  else for (const [i, r] of value.routes.entries()) check(r, `routes[${i}]`, null, 1);
  if (problems.length > 0) throw new RouteTableError(expected, problems);
  return value as unknown as RouteTable;
}

/** Every leaf path of a table (`/dashboard/:server/configs`...), with the route that renders it. */
export function leafPaths(table: RouteTable): Array<{ path: string; route: RouteDef }> {
  const out: Array<{ path: string; route: RouteDef }> = [];
  const walk = (routes: readonly RouteDef[], parent: string | null) => {
    for (const r of routes) {
      const full = r.index ? (parent ?? '/') : parent === null ? r.path! : join(parent, r.path!);
      if (r.children) walk(r.children, full);
      else out.push({ path: full, route: r });
    }
  };
  walk(table.routes, null);
  return out;
}

/** A page of a table with what decides who may see it: its top-level layout, and whether it needs a sign-in. */
export interface TablePage {
  path: string;
  route: RouteDef;
  layout: LayoutId;
  /** It needs a session or a staff permission (itself or a parent route). */
  guarded: boolean;
}

/** Every page (a leaf with a `page`) of a table, with its layout and whether it is guarded. */
export function tablePages(table: RouteTable): TablePage[] {
  const out: TablePage[] = [];
  for (const top of table.routes) {
    const topGuarded = Boolean(top.requiresAuth || top.permission);
    for (const { path, route } of leafPaths({ ...table, routes: [top] })) {
      if (route.page) out.push({ path, route, layout: top.layout!, guarded: topGuarded || Boolean(route.requiresAuth || route.permission) });
    }
  }
  return out;
}

/** A page anyone may see at a fixed address (no sign-in, no parameter): what is prerendered and indexed. */
export function isOpenPage(page: TablePage): boolean {
  return !page.guarded && !page.path.includes(':');
}

/** Whether `path` (decoded, no query) matches a route pattern such as `/billing/:user/paddle/:id`. */
export function matchesPattern(pattern: string, path: string): boolean {
  const want = segmentsOf(pattern);
  const got = segmentsOf(path);
  if (want.length !== got.length) return false;
  return want.every((w, i) => (w.startsWith(':') ? got[i]!.length > 0 : w === got[i]));
}

export interface Composition {
  /** The tables accepted (conflicting mounts removed), by remote. */
  tables: Partial<Record<RemoteId, RouteTable>>;
  /** Why a table, or part of one, was refused (for the console and the affected routes). */
  problems: Array<{ remote: RemoteId; message: string; mounts: string[] }>;
}

function overlaps(left: string, right: string): boolean {
  return left === right || (left !== '/' && right !== '/' && (insideMount(left, right) || insideMount(right, left)));
}

/**
 * Puts the remotes' tables together. A malformed table is refused whole. A mount claimed by two
 * remotes (the same path, or one inside the other) belongs to neither: it is refused, with every
 * route under it, for each claimant (the deploy script refuses such a deployment, so only a
 * hand-edited config.json gets here); the rest of each table is kept.
 */
export function composeRouteTables(input: Partial<Record<RemoteId, unknown>>): Composition {
  const parsed: Array<{ id: RemoteId; table: RouteTable }> = [];
  const problems: Composition['problems'] = [];
  for (const id of REMOTE_IDS) {
    const raw = input[id];
    if (raw === undefined || raw === null) continue;
    try {
      parsed.push({ id, table: parseRouteTable(raw, id) });
    } catch (error) {
      const mounts = isRecord(raw) && Array.isArray(raw.mounts) ? raw.mounts.filter((m): m is string => typeof m === 'string' && validPath(m, true)) : [];
      problems.push({ remote: id, message: error instanceof Error ? error.message : String(error), mounts });
    }
  }
  const tables: Partial<Record<RemoteId, RouteTable>> = {};
  for (const { id, table } of parsed) {
    const refused: string[] = [];
    for (const mount of table.mounts) {
      const rivals = parsed.filter((p) => p.id !== id && p.table.mounts.some((m) => overlaps(m, mount))).map((p) => p.id);
      if (rivals.length > 0) {
        refused.push(mount);
        problems.push({ remote: id, message: `${id} and ${rivals.join(', ')} both claim "${mount}": its routes there are ignored until one of them gives it up`, mounts: [mount] });
      }
    }
    const mounts = table.mounts.filter((m) => !refused.includes(m));
    const routes = table.routes.filter((r) => mounts.some((m) => insideMount(r.path!, m)));
    if (routes.length > 0) tables[id] = { ...table, mounts, routes };
  }
  return { tables, problems };
}

/**
 * Whether the site serves a page at `path` (decoded, no query): a route of an accepted table, a
 * shell address, or an address under a refused remote's mount (that page shows the remote's error,
 * not a 404). The server answers HTTP 404 for anything else.
 */
export function isPagePath(composition: Composition, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if ((SHELL_PATHS as readonly string[]).includes(clean)) return true;
  if (/^\/subscriptions\/[^/]+$/.test(clean)) return true;
  for (const table of Object.values(composition.tables)) {
    // An index child makes its parent's own path a page (e.g. /dashboard/:server).
    for (const { path: pattern } of leafPaths(table!)) if (matchesPattern(pattern, clean)) return true;
  }
  return composition.problems.some((p) => p.mounts.some((m) => insideMount(clean, m)));
}

/**
 * Typed links. A page never writes an address by hand: it builds it from a route table, so a link to
 * a page that does not exist, or one missing a parameter, is a type error.
 *
 * - `hrefs(routeTable)` gives a remote's `href` for its own paths (`href('/dashboard/:server/logs-web',
 *   { server })`) and the site paths below.
 * - `SITE_PATHS` are the addresses any front end may link to across remotes (a remote never imports
 *   another's table): the contract between them. A test checks every one is served by a remote's table
 *   or by the shell, so a remote cannot drop one silently.
 */
import type { RouteTable } from './route-table';

/** Addresses every front end may link to, whichever remote (or the shell) serves them. */
export const SITE_PATHS = [
  '/',
  '/premium',
  '/premium-purchase',
  '/support',
  '/status',
  '/invite',
  '/privacy-policy',
  '/terms-of-service',
  '/refund-policy',
  '/aup-policy',
  '/legal',
  '/dashboard',
  '/dashboard/:server',
  '/dashboard/:server/premium',
  '/billing',
  '/billing/:user',
  '/login',
  '/logout',
  '/docs',
  '/team-manager',
  '/support-team',
  '/system',
  '/systemUpdate',
  '/test',
] as const;
export type SitePath = (typeof SITE_PATHS)[number];

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<Rest> : P extends `${string}:${infer Name}` ? Name : never;
/** The parameters a path pattern needs: `{ server: string }` for `/dashboard/:server`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };
/** A link's query string values (undefined ones are left out). */
export type HrefQuery = Record<string, string | number | boolean | undefined>;
export type HrefArgs<P extends string> = [ParamNames<P>] extends [never] ? [params?: Record<string, never>, query?: HrefQuery] : [params: PathParams<P>, query?: HrefQuery];

type Join<Base extends string, P extends string> = P extends `/${string}` ? P : Base extends '' | '/' ? `/${P}` : `${Base}/${P}`;
type PathsOf<R, Base extends string> = R extends readonly (infer E)[]
  ? PathsOf<E, Base>
  : R extends { readonly path: infer P extends string }
    ? Join<Base, P> | (R extends { readonly children: infer C } ? PathsOf<C, Join<Base, P>> : never)
    : never;
/** Every full path a route table declares, children joined to their parents. */
export type TablePaths<T extends RouteTable> = PathsOf<T['routes'], ''>;

/** An address from a path pattern, its parameters (URL-encoded) and an optional query. */
export function buildHref(pattern: string, params: Record<string, string> = {}, query?: HrefQuery): string {
  const path = pattern.replace(/:([A-Za-z0-9_-]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`The link to ${pattern} needs its "${name}".`);
    // "." and ".." stay themselves when encoded, and a browser would resolve them out of the route.
    if (value === '.' || value === '..') throw new Error(`The link to ${pattern} cannot have "${value}" as its "${name}".`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Links to any site path. */
export function siteHref<P extends SitePath>(path: P, ...args: HrefArgs<P>): string {
  return buildHref(path, args[0] as Record<string, string> | undefined, args[1]);
}

/** A remote's link builder: its own table's paths and the site paths. */
export function hrefs<T extends RouteTable>(_table: T): <P extends TablePaths<T> | SitePath>(path: P, ...args: HrefArgs<P>) => string {
  return (path, ...args) => buildHref(path, args[0] as Record<string, string> | undefined, args[1]);
}

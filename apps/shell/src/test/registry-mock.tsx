import { type Catalog, type CatalogModule, defineCatalog, REMOTE_IDS, type RemoteId, type RouteDef, type RouteHandle } from '@tickety/shared';
import { useMatches } from 'react-router-dom';
import { RemoteLoadError } from '../remotes/errors';
import { TEST_ROUTE_TABLES } from './route-tables';

/**
 * Stands in for remotes/registry.ts in shell tests (docs/behaviour.md#module-federation-rules): every page of every remote is a
 * heading "<remote>:<page>"; a remote fails while its id is in `failing` or it is not registered.
 * Use it with `vi.mock('./remotes/registry', () => import('./test/registry-mock'))`.
 *
 * Each remote has a real catalogue, as a remote's routes module carries one: its `title.<page>` and
 * `sidebar.<page>` messages say in English what the fixture table says, and in German what
 * `GERMAN` says (the table's text marked "(de)" where it has no entry). Like the real registry, a
 * remote's routes module is handed over only once its catalogue is in, in the active language.
 */
export const registry = { calls: [] as string[], failing: new Set<string>(), registered: new Set<string>() };

/** German for the fixture tables' texts. */
export const GERMAN: Record<string, string> = {
  'Panel Menu': 'Panel-Menü',
  Statistics: 'Statistiken',
  Tickets: 'Tickets',
  'Manage Servers': 'Server verwalten',
  'Premium Purchase': 'Premium kaufen',
  'Privacy Policy': 'Datenschutzerklärung',
};

/** A catalogue's messages, compiled as the build compiles them (plain text compiles to `[text]`). */
function compiled(messages: Record<string, string>): CatalogModule {
  return Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, [text]]));
}

function routeMessages(routes: readonly RouteDef[], german: boolean, out: Record<string, string> = {}): Record<string, string> {
  const say = (text: string) => (german ? (GERMAN[text] ?? `${text} (de)`) : text);
  for (const route of routes) {
    if (route.page && route.title) out[`title.${route.page}`] = say(route.title);
    if (route.page && route.sidebar) out[`sidebar.${route.page}`] = say(route.sidebar.label);
    if (route.children) routeMessages(route.children, german, out);
  }
  return out;
}

/** A remote's messages in a locale: those of its fixture table (a route a test adds has none: the table's English shows). */
function messagesOf(remote: RemoteId, german: boolean): CatalogModule {
  return compiled(routeMessages(TEST_ROUTE_TABLES[remote].routes, german));
}

export const catalogs = Object.fromEntries(
  REMOTE_IDS.map((id) => [id, defineCatalog(id, { en: async () => messagesOf(id, false), de: async () => messagesOf(id, true) })]),
) as Record<RemoteId, Catalog>;

/** Every fake page is this one component; the heading comes from the route (React needs stable types). */
function FakePage() {
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  return <h1>{`${handle?.remote}:${handle?.page}`}</h1>;
}
const page = (_remote: string, _id: string) => ({ Component: FakePage });
const module = (remote: string) => ({
  id: remote,
  catalog: catalogs[remote as RemoteId],
  routes: new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? page(remote, key) : undefined) }),
});

export { RemoteLoadError };
export const registerRemote = (id: string) => {
  registry.registered.add(id);
};
export const peekRemoteRoutes = () => undefined;
export const loadRemoteRoutes = (id: string) => {
  registry.calls.push(id);
  if (registry.failing.has(id) || !registry.registered.has(id)) return Promise.reject(new RemoteLoadError(id as RemoteId, new Error('404')));
  const routes = module(id);
  // Like the real registry: the remote's messages arrive before its first page renders.
  return routes.catalog.ready().then(() => routes);
};

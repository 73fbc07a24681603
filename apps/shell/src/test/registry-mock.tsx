import type { RemoteId, RouteHandle } from '@tickety/shared';
import { useMatches } from 'react-router-dom';
import { RemoteLoadError } from '../remotes/errors';

/**
 * Stands in for remotes/registry.ts in shell tests (MF pitfall 8): every page of every remote is a
 * heading "<remote>:<page>"; a remote fails while its id is in `failing` or it is not registered.
 * Use it with `vi.mock('./remotes/registry', () => import('./test/registry-mock'))`.
 */
export const registry = { calls: [] as string[], failing: new Set<string>(), registered: new Set<string>() };

/** Every fake page is this one component; the heading comes from the route (React needs stable types). */
function FakePage() {
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  return <h1>{`${handle?.remote}:${handle?.page}`}</h1>;
}
const page = (_remote: string, _id: string) => ({ Component: FakePage });
const module = (remote: string) => ({
  id: remote,
  routes: new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? page(remote, key) : undefined) }),
});

export { RemoteLoadError };
export const registerRemote = (id: string) => {
  registry.registered.add(id);
};
export const isRemoteRegistered = (id: string) => registry.registered.has(id);
export const peekRemoteRoutes = () => undefined;
export const loadRemoteRoutes = (id: string) => {
  registry.calls.push(id);
  if (registry.failing.has(id) || !registry.registered.has(id)) return Promise.reject(new RemoteLoadError(id as RemoteId, new Error('404')));
  return Promise.resolve(module(id));
};

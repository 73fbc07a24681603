import type { RemoteId, RuntimeConfig } from '@tickety/shared';
import { loadRemoteRoutes, registerRemote } from '../remotes/registry';
import { PAGE_ROUTES } from '../routes/paths';

/** Remotes every visitor may fetch. `staff` is registered only for staff (app/start.tsx). */
export const PUBLIC_REMOTES: RemoteId[] = ['marketing', 'billing', 'dashboard'];

/** The remote of a page anyone may see at this exact path (no params, no guard), if any. */
export function publicRemoteFor(pathname: string): RemoteId | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const route = PAGE_ROUTES.find((r) => r.path === path && !r.handle.requiresAuth && !r.handle.permission);
  return route?.handle.remote ?? null;
}

/**
 * Registers the public remotes and starts loading the first page's remote before the first render, in
 * parallel with the first user load. (Starting it even earlier, from the entry chunk, was measured: it
 * competes with React's own download and delays the first paint by ~0.6 s under Lighthouse's mobile
 * throttling, for no gain in LCP.)
 */
export function registerRemotesEarly(config: RuntimeConfig, pathname: string): void {
  for (const id of PUBLIC_REMOTES) registerRemote(id, config.remotes[id]);
  const remote = publicRemoteFor(pathname);
  if (remote) void loadRemoteRoutes(remote).catch(() => undefined);
}

import { type Composition, leafPaths, REMOTE_IDS, type RemoteId, type RuntimeConfig, STAFF_REMOTE } from '@tickety/shared';
import { loadRemoteRoutes, registerRemote } from '../remotes/registry';

/** Remotes every visitor may fetch: all but the staff remote, registered only for staff (app/start.tsx). */
export const PUBLIC_REMOTES: RemoteId[] = REMOTE_IDS.filter((id) => id !== STAFF_REMOTE);

/** The remote of a page anyone may see at this exact path (no params, no guard), if any. */
export function publicRemoteFor(composition: Composition, pathname: string): RemoteId | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const id of REMOTE_IDS) {
    const table = composition.tables[id];
    if (!table) continue;
    const hit = leafPaths(table).find((p) => p.path === path && p.route.page && !p.route.requiresAuth && !p.route.permission);
    if (hit) return id;
  }
  return null;
}

/**
 * Registers the public remotes and starts loading the first page's remote before the first render, in
 * parallel with the first user load. (Starting it even earlier, from the entry chunk, was measured: it
 * competes with React's own download and delays the first paint by ~0.6 s under Lighthouse's mobile
 * throttling, for no gain in LCP.)
 */
export function registerRemotesEarly(config: RuntimeConfig, composition: Composition, pathname: string): void {
  for (const id of PUBLIC_REMOTES) {
    const entry = config.remotes[id];
    if (entry) registerRemote(id, entry.manifest);
  }
  const remote = publicRemoteFor(composition, pathname);
  if (remote) void loadRemoteRoutes(remote).catch(() => undefined);
}

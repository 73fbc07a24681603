import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { AnyRemoteRoutesModule, RemoteId } from '@tickety/shared';
import { RemoteLoadError } from './errors';

export { RemoteLoadError };

/**
 * The one adapter between the shell and Module Federation (tests mock this module, docs/behaviour.md#module-federation-rules).
 * Remotes are registered at run time from config.json, so a remote is redeployed or rolled back by
 * changing config.json, never by rebuilding the shell. A remote is only fetched when one of its
 * routes is first rendered; the staff remote is only registered for staff (see auth bootstrap).
 */
const manifests = new Map<RemoteId, string>();
const loaded = new Map<RemoteId, Promise<AnyRemoteRoutesModule>>();
/** Remotes whose routes module has arrived (so a second visit renders at once, without a spinner). */
const ready = new Map<RemoteId, AnyRemoteRoutesModule>();
/** Remotes whose last load failed (the next load starts from a fresh registration). */
const failed = new Set<RemoteId>();

export function registerRemote(id: RemoteId, manifestUrl: string): void {
  if (manifests.get(id) === manifestUrl) return;
  manifests.set(id, manifestUrl);
  loaded.delete(id);
  ready.delete(id);
  registerRemotes([{ name: id, entry: manifestUrl }], { force: true });
}

/** Loads a remote's `./routes` module once; a failure is not cached, so Retry really retries. */
export function loadRemoteRoutes(id: RemoteId): Promise<AnyRemoteRoutesModule> {
  const cached = loaded.get(id);
  if (cached) return cached;
  const manifest = manifests.get(id);
  if (manifest && failed.has(id)) {
    // Module Federation keeps what it fetched for a remote (also a failed manifest): registering the
    // remote again with force drops that, so a retry really goes back to the network.
    registerRemotes([{ name: id, entry: manifest }], { force: true });
    failed.delete(id);
  }
  if (!manifests.has(id)) return Promise.reject(new RemoteLoadError(id, new Error(`remote ${id} is not registered`)));
  const promise = loadRemote<{ default?: AnyRemoteRoutesModule } & Partial<AnyRemoteRoutesModule>>(`${id}/routes`)
    .then((mod) => {
      const routes = mod?.default ?? (mod as AnyRemoteRoutesModule | null);
      if (!routes || routes.id !== id || typeof routes.routes !== 'object' || typeof routes.catalog?.ready !== 'function') {
        throw new Error(`remote ${id} did not export a routes module`);
      }
      // Its messages in the reader's language arrive before its first page renders.
      return routes.catalog.ready().then(() => {
        ready.set(id, routes);
        return routes;
      });
    })
    .catch((error: unknown) => {
      loaded.delete(id);
      failed.add(id);
      throw error instanceof RemoteLoadError ? error : new RemoteLoadError(id, error);
    });
  loaded.set(id, promise);
  return promise;
}

/** The remote's routes module if it has already loaded, else undefined. */
export function peekRemoteRoutes(id: RemoteId): AnyRemoteRoutesModule | undefined {
  return ready.get(id);
}

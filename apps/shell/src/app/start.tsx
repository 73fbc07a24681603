import { configureShared, isStaff, loadUser, makeStore, type RemoteId, type RouteHandle, type RuntimeConfig } from '@tickety/shared';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { loadRemoteRoutes, registerRemote } from '../remotes/registry';
import { buildRoutes } from '../routes/table';

/** Remotes every visitor may fetch. `staff` is registered only for staff (see watchForStaff). */
const PUBLIC_REMOTES: RemoteId[] = ['marketing', 'billing', 'dashboard'];

/**
 * Registers the staff remote once the signed-in user holds a staff permission. Before that the
 * registry does not know it, so nothing can fetch it: a visitor's browser never requests it.
 */
export function watchForStaff(store: ReturnType<typeof makeStore>, config: RuntimeConfig): () => void {
  let done = false;
  const check = () => {
    if (done || !isStaff(store.getState().auth.team)) return;
    done = true;
    registerRemote('staff', config.remotes.staff);
  };
  check();
  return store.subscribe(check);
}

/** The shell's start: store, shared configuration, remotes, the first user load, the router. */
export function startApp(config: RuntimeConfig) {
  const store = makeStore();
  const routes = buildRoutes();
  const router = createBrowserRouter(routes);
  configureShared({ config, navigate: (to) => void router.navigate(to), dispatch: store.dispatch });
  for (const id of PUBLIC_REMOTES) registerRemote(id, config.remotes[id]);
  watchForStaff(store, config);
  void store.dispatch(loadUser());

  // Start fetching the first page's remote now, in parallel with the user load (not after render).
  const first = matchRoutes(routes, window.location)?.at(-1)?.route.handle as RouteHandle | undefined;
  const remote = first?.remote;
  if (remote && PUBLIC_REMOTES.includes(remote) && !first.requiresAuth && !first.permission) void loadRemoteRoutes(remote).catch(() => undefined);

  const app = (
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>
  );
  return { store, router, app };
}

import { configureShared, isStaff, loadUser, makeStore, type RuntimeConfig } from '@tickety/shared';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { registerRemote } from '../remotes/registry';
import { buildRoutes } from '../routes/table';
import { composeSite } from './site';
import { registerRemotesEarly } from './early-remote';

/**
 * Registers the staff remote once the signed-in user holds a staff permission. Before that the
 * registry does not know it, so nothing can fetch it: a visitor's browser never requests it.
 */
export function watchForStaff(store: ReturnType<typeof makeStore>, config: RuntimeConfig): () => void {
  let done = false;
  const check = () => {
    if (done || !isStaff(store.getState().auth.team)) return;
    done = true;
    if (config.remotes.staff) registerRemote('staff', config.remotes.staff.manifest);
  };
  check();
  return store.subscribe(check);
}

/** The shell's start: store, shared configuration, remotes, the first user load, the router. */
export function startApp(config: RuntimeConfig) {
  const store = makeStore();
  const composition = composeSite(config);
  const routes = buildRoutes(composition);
  const router = createBrowserRouter(routes);
  configureShared({ config, navigate: (to) => void router.navigate(to), dispatch: store.dispatch });
  // Usually done already by the entry chunk (index.ts); registering again with the same URL is a no-op.
  registerRemotesEarly(config, composition, window.location.pathname);
  watchForStaff(store, config);
  void store.dispatch(loadUser());

  const app = (
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>
  );
  return { store, router, app, composition };
}

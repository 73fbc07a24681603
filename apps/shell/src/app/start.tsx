import { configureShared, loadUser, makeStore, type RuntimeConfig, STAFF_REMOTE, scheduleAnalytics, schedulePaddle, selectIsStaff } from '@tickety/shared';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SIGNED_IN_HINT_KEY } from '../boot/boot';
import { isServerPath, preloadServerLayout, preloadServerLayoutOnIntent } from '../layouts/server-frame';
import { ShellUiText } from '../lib/ui-text';
import { registerRemote } from '../remotes/registry';
import { buildRoutes } from '../routes/table';
import { registerRemotesEarly } from './early-remote';
import { composeSite } from './site';

/**
 * Registers the staff remote once the signed-in user holds a staff permission. Before that the
 * registry does not know it, so nothing can fetch it: a visitor's browser never requests it.
 */
export function watchForStaff(store: ReturnType<typeof makeStore>, config: RuntimeConfig): () => void {
  let done = false;
  const check = () => {
    if (done || !selectIsStaff(store.getState())) return;
    done = true;
    const entry = config.remotes[STAFF_REMOTE];
    if (entry) registerRemote(STAFF_REMOTE, entry.manifest);
  };
  check();
  return store.subscribe(check);
}

/**
 * Keeps the boot script's hint (boot/boot.ts) true: set while a user is signed in, removed once the
 * API says nobody is, so a public page starts the app at once for a signed-in user.
 */
export function keepSignedInHint(store: ReturnType<typeof makeStore>): () => void {
  let last: boolean | null = null;
  const sync = () => {
    const auth = store.getState().auth;
    if (auth.status !== 'loaded') return;
    const signedIn = auth.user !== null;
    if (signedIn === last) return;
    last = signedIn;
    try {
      if (signedIn) localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
      else localStorage.removeItem(SIGNED_IN_HINT_KEY);
    } catch {
      // Storage refused: public pages start the app on the first interaction instead.
    }
  };
  sync();
  return store.subscribe(sync);
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
  // Paddle.js initialised at start-up, once the browser is idle (never before the first page).
  schedulePaddle(config);
  // The subscription-analytics script started with the signed-in user's id, once idle (never for a visitor).
  scheduleAnalytics(store, config);
  keepSignedInHint(store);
  // The server dashboard's sidebar and access decision are their own chunk (layouts/server-frame.tsx):
  // fetched now for a server page, in parallel with the first user load, else when one is headed for.
  if (isServerPath(window.location.pathname)) void preloadServerLayout().catch(() => undefined);
  preloadServerLayoutOnIntent();
  void store.dispatch(loadUser());

  const app = (
    <StrictMode>
      <Provider store={store}>
        <ShellUiText>
          <RouterProvider router={router} />
        </ShellUiText>
      </Provider>
    </StrictMode>
  );
  return { store, router, app, composition };
}

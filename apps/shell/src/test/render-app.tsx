import { render } from '@testing-library/react';
import { configureShared, type MeResponse, makeStore, type RuntimeConfig } from '@tickety/shared';
import { authStateFor, SIGNED_OUT_ME } from '@tickety/shared/testing';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { composeSite } from '../app/site';
import { buildRoutes } from '../routes/table';
import { configWithTables } from './route-tables';

/** Renders the shell at `url` with the fixture route tables (or `config`'s), signed in as `me`. */
export function renderApp(url: string, me: MeResponse = SIGNED_OUT_ME, config: RuntimeConfig = configWithTables()) {
  const store = makeStore({ auth: authStateFor(me) });
  const router = createMemoryRouter(buildRoutes(composeSite(config)), { initialEntries: [url] });
  configureShared({ config, navigate: (to) => void router.navigate(to), dispatch: store.dispatch });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

/** The current location as path + search + hash. */
export function here(router: ReturnType<typeof createMemoryRouter>): string {
  const location = router.state.location;
  return `${location.pathname}${location.search}${location.hash}`;
}

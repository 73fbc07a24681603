import { configureShared, makeStore, type MeResponse } from '@tickety/shared';
import { authStateFor, SIGNED_OUT_ME, TEST_CONFIG } from '@tickety/shared/testing';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { buildRoutes } from '../routes/table';

export function renderApp(url: string, me: MeResponse = SIGNED_OUT_ME) {
  const store = makeStore({ auth: authStateFor(me) });
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [url] });
  configureShared({ config: TEST_CONFIG, navigate: (to) => void router.navigate(to), dispatch: store.dispatch });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

/** The current location as path + search + hash. */
export function here(router: ReturnType<typeof createMemoryRouter>): string {
  const l = router.state.location;
  return `${l.pathname}${l.search}${l.hash}`;
}

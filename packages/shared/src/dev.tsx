/**
 * `@tickety/shared/dev`: runs one remote on its own dev server (`pnpm dev --filter @tickety/<remote>`),
 * without the shell: reads config.json from the API (default http://localhost:3000; the API must list
 * this dev server in DASHBOARD_ORIGINS), creates the store, loads the user and mounts the remote's
 * pages at the paths of its own route table. The error overlay is a plain box here; the shell's is the real one.
 */

import { leafPaths } from '@tickety/api-contract';
import { type ReactNode, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, Link, RouterProvider } from 'react-router-dom';
import { loadUser, login } from './auth/auth-slice';
import { loginButtonLabel } from './client/errors';
import { overlayActions } from './client/overlay-actions';
import { useOverlayState } from './client/overlay-store';
import { configureShared } from './config';
import { type AnyRemoteRoutesModule, type RemoteId, type RouteHandle, remoteScopeClass } from './contracts/remotes';
import { makeStore, useAppDispatch, useAppSelector } from './store';
import type { RuntimeConfig } from './types';

function DevOverlay() {
  const { loading, error } = useOverlayState();
  if (!loading && !error) return null;
  return (
    <div role="dialog" aria-label="Request overlay" style={{ position: 'fixed', inset: 'auto 1rem 1rem auto', padding: '1rem', background: '#171E29', color: '#fff', borderRadius: 8, border: '2px solid #35B8E0' }}>
      {error ? (
        <>
          <strong>{error.title}</strong>
          <p>{error.message}</p>
          {error.detail ? <small>{error.detail}</small> : null}
          <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
            {error.kind === 'login' ? <button type="button" onClick={() => void overlayActions.login()}>{loginButtonLabel()}</button> : null}
            {error.buttons.retry ? <button type="button" onClick={overlayActions.retry}>Retry</button> : null}
            {error.buttons.home ? <button type="button" onClick={overlayActions.home}>Home</button> : null}
            {error.buttons.cancel ? <button type="button" onClick={overlayActions.cancel}>Cancel</button> : null}
          </div>
        </>
      ) : (
        'Loading…'
      )}
    </div>
  );
}

function DevFrame({ name, links, children }: { name: RemoteId; links: string[]; children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  const dispatch = useAppDispatch();
  return (
    <div className="min-h-screen">
      <header className="flex flex-wrap items-center gap-3 border-b border-surface-300 p-3 text-sm">
        <strong>{name} (standalone)</strong>
        {links.map((link) => (
          <Link key={link} to={link} className="underline">
            {link}
          </Link>
        ))}
        <span className="ml-auto">{user ? user.globalName ?? user.username : <button type="button" onClick={() => void dispatch(login())}>Login</button>}</span>
      </header>
      <main className="mx-auto max-w-6xl p-6">
        <div className={remoteScopeClass(name)}>{children}</div>
      </main>
      <DevOverlay />
    </div>
  );
}

/** Mounts every page of the remote's own route table at its path (the shell's layouts aside). */
export async function startStandalone(remote: AnyRemoteRoutesModule, apiOrigin = 'http://localhost:3000'): Promise<void> {
  const config = (await (await fetch(`${apiOrigin}/config.json`)).json()) as RuntimeConfig;
  const store = makeStore();
  const pages = leafPaths(remote.table).filter((p) => p.route.page);
  const links = pages.map((p) => p.path.replace(/:\w+/g, 'x'));
  const routes = pages.map((page) => {
    const mod = (remote.routes as Record<string, { Component: React.ComponentType }>)[page.route.page!]!;
    const handle: RouteHandle = { ...(page.route.data ? { data: page.route.data } : {}), ...(page.route.title ? { title: page.route.title } : {}) };
    // No shell here: each lazy page gets its own Suspense boundary.
    const element = (
      <DevFrame key={page.path} name={remote.id} links={links}>
        <Suspense fallback={<p>Loading…</p>}>
          <mod.Component />
        </Suspense>
      </DevFrame>
    );
    return { path: page.path, handle, element };
  });
  const router = createBrowserRouter(routes);
  configureShared({ config, navigate: (to) => void router.navigate(to), dispatch: store.dispatch });
  void store.dispatch(loadUser());
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

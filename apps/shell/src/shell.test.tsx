import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { configureShared, makeStore, OVERLAY, request } from '@tickety/shared';
import { apiError, json, mockApi, overlayStore, resetShared, SIGNED_OUT_ME, signedInMe, TEST_CONFIG } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigLoadError, loadRuntimeConfig, parseRuntimeConfig } from './app/config';
import { publicRemoteFor } from './app/early-remote';
import { composeSite } from './app/site';
import { watchForStaff } from './app/start';
import { OverlayHost } from './overlay/overlay-host';
import { safeNext } from './pages/pages';
import { pageTitle } from './routes/title';
import { registry } from './test/registry-mock';
import { here, renderApp } from './test/render-app';
import { configWithTables } from './test/route-tables';
import { currentScheme, setScheme, startTheme, THEME_STORAGE_KEY } from './theme/theme';

vi.mock('./remotes/registry', () => import('./test/registry-mock'));

let store: ReturnType<typeof makeStore> | undefined;
beforeEach(() => {
  registry.calls.length = 0;
  registry.failing.clear();
  registry.registered.clear();
  for (const id of ['marketing', 'billing', 'dashboard']) registry.registered.add(id);
});
afterEach(() => {
  cleanup();
  resetShared(store);
  store = undefined;
  localStorage.clear();
  document.documentElement.classList.remove('dark');
});

describe('theme', () => {
  it('follows the system until the user picks, then remembers the pick', () => {
    const media = vi.spyOn(window, 'matchMedia').mockImplementation(
      (q: string) => ({ matches: q.includes('dark'), media: q, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
    );
    startTheme();
    expect(currentScheme()).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    setScheme('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    startTheme();
    expect(currentScheme()).toBe('light');
    media.mockRestore();
  });

  it('the header toggle switches the scheme and says what it will do', async () => {
    ({ store } = renderApp('/'));
    const toggle = await screen.findByRole('button', { name: /switch to (dark|light) theme/i });
    const wasDark = document.documentElement.classList.contains('dark');
    fireEvent.click(toggle);
    expect(document.documentElement.classList.contains('dark')).toBe(!wasDark);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe(wasDark ? 'light' : 'dark');
    expect(screen.getByRole('button', { name: `Switch to ${wasDark ? 'dark' : 'light'} theme` })).toBeInTheDocument();
  });
});

describe('header', () => {
  it('shows Login to a visitor and the user menu to a signed-in user', async () => {
    const first = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    cleanup();
    resetShared(first.store);
    ({ store } = renderApp('/', signedInMe()));
    const menu = await screen.findByRole('button', { name: /Ava/ });
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    fireEvent.click(menu);
    expect(screen.getByRole('link', { name: /Log out/ })).toHaveAttribute('href', '/logout');
    expect(screen.queryByRole('link', { name: 'System' })).toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('link', { name: /Log out/ })).toBeNull();
  });
});

describe('logout page', () => {
  it('ends the session, clears the user and reloads it', async () => {
    const { calls } = mockApi({ '/api/auth/logout': { isAuthenticated: false }, '/api/auth/@me': SIGNED_OUT_ME });
    let router: ReturnType<typeof renderApp>['router'];
    ({ store, router } = renderApp('/logout', signedInMe()));
    expect(await screen.findByRole('heading', { name: "You're logged out" })).toBeInTheDocument();
    expect(store.getState().auth.user).toBeNull();
    expect(calls('/api/auth/logout')).toHaveLength(1);
    expect(calls('/api/auth/@me')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(here(router)).toBe('/logout');
  });
});

describe('overlay host', () => {
  function host() {
    store = makeStore();
    configureShared({ config: TEST_CONFIG, navigate: vi.fn(), dispatch: store.dispatch });
    render(<OverlayHost />);
  }

  it('Login Required offers only "Login with discord"', async () => {
    mockApi({ '/api/x': () => json({ code: 401, message: 'Log in', isAuthenticated: false }, 401) });
    host();
    void request({ path: '/api/x' }).catch(() => undefined);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Login Required');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Login with discord']);
  });

  it('Request Failed shows the message, "<code> - <status>", Retry and Home; Retry re-sends', async () => {
    let calls = 0;
    mockApi({ '/api/x': () => (++calls === 1 ? apiError(500, 1500, 'Something broke') : json({ ok: true })) });
    host();
    const answer = request<{ ok: boolean }>({ path: '/api/x' });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Request Failed');
    expect(dialog).toHaveTextContent('Something broke');
    expect(dialog).toHaveTextContent('1500 - 500');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Retry', 'Home']);
    expect(dialog).toHaveStyle({ backgroundColor: OVERLAY.colors.backdrop });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await expect(answer).resolves.toEqual({ ok: true });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('shows the loading overlay only for requests slower than the delay', async () => {
    vi.useFakeTimers();
    let release: (response: Response) => void = () => {};
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((ok) => (release = ok)));
    host();
    const done = request({ path: '/api/slow' });
    await act(() => vi.advanceTimersByTimeAsync(OVERLAY.loadingDelayMs - 1));
    expect(screen.queryByText('Loading…')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    release(json({}));
    await act(async () => {
      await done;
    });
    expect(overlayStore.getSnapshot().loading).toBe(false);
    vi.useRealTimers();
  });
});

describe('runtime config', () => {
  const good = { ...TEST_CONFIG };
  it('accepts a complete config.json', async () => {
    expect(parseRuntimeConfig(good)).toEqual(good);
    const fetchImpl = vi.fn(async () => json(good));
    await expect(loadRuntimeConfig(fetchImpl as unknown as typeof fetch)).resolves.toEqual(good);
  });
  it('resolves site-relative manifest URLs against the page, and keeps versions and tables', () => {
    const parsed = parseRuntimeConfig(
      { ...good, remotes: { billing: { manifest: '/remotes/billing/abc123/mf-manifest.json', version: 'abc123', routes: { schema: 1 } } } },
      'https://tickety.example/dashboard',
    );
    expect(parsed.remotes).toEqual({ billing: { manifest: 'https://tickety.example/remotes/billing/abc123/mf-manifest.json', version: 'abc123', routes: { schema: 1 } } });
  });
  it('refuses a config with a malformed remote, or that is not JSON, with a readable message', async () => {
    expect(() => parseRuntimeConfig({ ...good, remotes: { ...good.remotes, staff: '' } })).toThrow(/remotes\.staff/);
    expect(() => parseRuntimeConfig({ ...good, remotes: { staff: { manifest: '' } } })).toThrow(/remotes\.staff/);
    expect(() => parseRuntimeConfig('x')).toThrow(ConfigLoadError);
    // The contract's schema, not a second hand-written check: every field is checked, none dropped
    // (the hand check kept no `shell` and took any `demo`).
    expect(() => parseRuntimeConfig({ ...good, demo: 'yes' })).toThrow(/"demo"/);
    expect(() => parseRuntimeConfig({ ...good, productName: '' })).toThrow(/"productName" must be a non-empty string/);
    expect(parseRuntimeConfig({ ...good, shell: { version: 'abcdefabcdef' } }).shell).toEqual({ version: 'abcdefabcdef' });
    const notFound = vi.fn(async () => new Response('nope', { status: 404 }));
    await expect(loadRuntimeConfig(notFound as unknown as typeof fetch)).rejects.toThrow(/HTTP 404/);
  });
});

describe('staff remote registration', () => {
  it('registers the staff remote only once the user is staff', async () => {
    store = makeStore();
    configureShared({ config: TEST_CONFIG, navigate: vi.fn(), dispatch: store.dispatch });
    const stop = watchForStaff(store, TEST_CONFIG);
    mockApi({ '/api/auth/@me': signedInMe() });
    const { loadUser } = await import('@tickety/shared');
    await store.dispatch(loadUser({ force: true }));
    expect(registry.registered.has('staff')).toBe(false);
    vi.restoreAllMocks();
    mockApi({ '/api/auth/@me': signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] } }) });
    await store.dispatch(loadUser({ force: true }));
    expect(registry.registered.has('staff')).toBe(true);
    stop();
  });
});

describe('early remote loading', () => {
  it('knows the remote of a public page at an exact path, and nothing guarded or with params', () => {
    const site = composeSite(configWithTables());
    expect(publicRemoteFor(site, '/')).toBe('marketing');
    expect(publicRemoteFor(site, '/premium/')).toBe('marketing');
    expect(publicRemoteFor(site, '/premium-purchase')).toBe('billing');
    expect(publicRemoteFor(site, '/dashboard')).toBeNull();
    expect(publicRemoteFor(site, '/team-manager')).toBeNull();
    expect(publicRemoteFor(site, '/billing/123')).toBeNull();
    expect(publicRemoteFor(site, '/nope')).toBeNull();
  });
});

describe('helpers', () => {
  it('safeNext allows only same-origin paths', () => {
    expect(safeNext('/dashboard')).toBe('/dashboard');
    expect(safeNext('/dashboard/1?x=1#y')).toBe('/dashboard/1?x=1#y');
    for (const bad of ['https://evil.test', '//evil.test', '/\\evil.test', '/\t/evil.test', '/\n/evil.test', '/\\/evil.test', 'dashboard', null]) expect(safeNext(bad), String(bad)).toBeNull();
  });
  it('pageTitle uses the innermost title and a function title gets the params', () => {
    expect(pageTitle('Tickety', [{ handle: { title: 'A' }, params: {} }, { handle: undefined, params: {} }])).toBe('Tickety - A');
    expect(pageTitle('X', [{ handle: { title: (p: Record<string, string | undefined>) => `User ${p.id}` }, params: { id: '7' } }])).toBe('X - User 7');
    expect(pageTitle('Tickety', [])).toBe('Tickety - The #1 Discord support bot');
  });
});

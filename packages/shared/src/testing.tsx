/**
 * Test helpers for the shell and the remotes (`@tickety/shared/testing`; never part of a bundle):
 * render a page inside a memory router with the one store and a configured shared package, and
 * answer the API's paths from a table instead of the network.
 */
import { cleanup, type RenderResult, render } from '@testing-library/react';
import type { BillingSubscription, Plan } from '@tickety/api-contract';
import { type ReactElement, type ReactNode, useEffect } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetLoginPopup } from './auth/login-popup';
import { serverApi, useOpenServer } from './auth/open-records';
import { api } from './client/api';
import { resetClientState } from './client/request';
import { configureShared, resetSharedConfiguration } from './config';
import { type AnyRemoteRoutesModule, leafPaths, parseRouteTable, type RouteHandle } from './contracts/remotes';
import { changeLocale, i18n } from './i18n/i18n';
import { clearSidebarBadges } from './sidebar/badges';
import type { Locale } from './i18n/locales';
import { type AppStore, makeStore, type RootState, useAppDispatch } from './store';
import type { ApiError, Guild, MeResponse, RuntimeConfig, ServerAccess } from './types';

/** The badge a page published for a sidebar entry (what the shell's sidebar would show), or null. */
export { getSidebarBadge } from './sidebar/badges';

export const TEST_API_ORIGIN = 'http://api.test';

export const TEST_CONFIG: RuntimeConfig = {
  productName: 'Tickety',
  apiOrigin: TEST_API_ORIGIN,
  remotes: {
    marketing: { manifest: `${TEST_API_ORIGIN}/remotes/marketing/mf-manifest.json`, version: null, routes: null },
    billing: { manifest: `${TEST_API_ORIGIN}/remotes/billing/mf-manifest.json`, version: null, routes: null },
    dashboard: { manifest: `${TEST_API_ORIGIN}/remotes/dashboard/mf-manifest.json`, version: null, routes: null },
    staff: { manifest: `${TEST_API_ORIGIN}/remotes/staff/mf-manifest.json`, version: null, routes: null },
  },
  docsUrl: 'https://docs.tickety.test',
  supportUrl: 'https://discord.gg/tickety-test',
  inviteUrl: 'https://discord.test/oauth2/authorize?client_id=1300000000000000001&scope=bot%20applications.commands&permissions=8',
  discordClientId: '1300000000000000001',
  discordOrigin: 'https://discord.test',
  paddleToken: null,
  paddleScriptUrl: null,
  analyticsToken: null,
  demo: true,
};

/** A Paddle subscription as `/api/billing` answers it (Ava's, Premium monthly, its slot on Ava's Arcade). */
export function testSubscription(over: Partial<BillingSubscription> = {}): BillingSubscription {
  return {
    provider: 'paddle',
    id: 'sub_01',
    userId: '1000000000000000001',
    planId: 'premium',
    planName: 'Premium',
    interval: 'month',
    status: 'active',
    premium: true,
    graceUntil: null,
    currentPeriodEnd: '2026-12-26T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    paymentMethod: 'Visa •••• 4242',
    guildId: null,
    slots: [{ slot: 1, guildId: '1100000000000000001', guildName: "Ava's Arcade", assignedAt: '2026-11-26T10:00:00.000Z', movableAt: null }],
    actions: ['cancel', 'updatePaymentMethod', 'portal'],
    updatedAt: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}

/** The plan catalogue as apps/api/config/plans.json ships it (trimmed feature lists). */
export const TEST_PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceMonthly: 0,
    priceYearly: 0,
    currency: 'USD',
    highlight: false,
    features: ['3 ticket panels', 'HTML transcripts'],
    limits: { panels: 3, servers: 1, statisticsDays: 7, statisticsExport: false, tags: 50, blocklist: 100 },
    providerPrices: [],
  },
  {
    id: 'premium',
    name: 'Premium',
    priceMonthly: 4.99,
    priceYearly: 49.99,
    currency: 'USD',
    highlight: true,
    features: ['Everything in Free', '50 ticket panels and multi-panels', 'Support hours with time zones', 'Priority support'],
    limits: { panels: 50, servers: 1, statisticsDays: 366, statisticsExport: true, tags: 200, blocklist: 1000 },
    providerPrices: [
      { provider: 'paddle', id: 'pri_premium_monthly', interval: 'month' },
      { provider: 'paddle', id: 'pri_premium_yearly', interval: 'year' },
    ],
  },
];

export function testGuild(over: Partial<Guild> & Pick<Guild, 'id' | 'name'>): Guild {
  return { icon: null, iconUrl: null, owner: false, permissions: '0', canManage: false, botInGuild: false, ...over };
}

/** A signed-in answer of `@me` (override any field). */
export function signedInMe(over: Partial<Extract<MeResponse, { isAuthenticated: true }>> = {}): Extract<MeResponse, { isAuthenticated: true }> {
  return {
    isAuthenticated: true,
    user: { id: '1000000000000000001', username: 'ava', globalName: 'Ava', avatar: null, avatarUrl: 'https://cdn.test/embed/avatars/0.png' },
    guilds: [
      testGuild({ id: '1100000000000000001', name: "Ava's Arcade", owner: true, permissions: '2251799813685247', canManage: true, botInGuild: true }),
      testGuild({ id: '1100000000000000003', name: 'Study Hall', permissions: '8', canManage: true, botInGuild: false }),
      testGuild({ id: '1100000000000000004', name: 'Cozy Corner', permissions: '3072', canManage: false, botInGuild: true }),
    ],
    team: null,
    sub: null,
    guildsRefreshedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export const SIGNED_OUT_ME: MeResponse = { isAuthenticated: false, user: null, guilds: [], team: null, sub: null, guildsRefreshedAt: null };

/** The auth slice's state for a given `@me` answer (as if it had just loaded). */
export function authStateFor(me: MeResponse, now = Date.now()): RootState['auth'] {
  return {
    user: me.user,
    team: me.team,
    sub: me.sub,
    guilds: me.guilds,
    guildsRefreshedAt: me.guildsRefreshedAt,
    lastLoaded: now,
    status: 'loaded',
    temporaryServer: null,
    temporaryBilling: null,
  };
}

/**
 * What the shell's server layout does for a server page: the server open while the caller is mounted
 * and, given `access`, its `GET /api/guilds/:server` answer in the cache (kept subscribed, as the
 * layout keeps it). `guild`: the server as answered (a staff member's view of a server not theirs).
 */
export function useServedServer(id: string, access?: ServerAccess, guild?: Guild): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (access === undefined) return;
    const answer = { ...(guild ?? testGuild({ id, name: id })), access };
    dispatch(serverApi.util.upsertQueryEntries([{ endpointName: 'getServer', arg: id, value: answer }]));
    const subscription = dispatch(serverApi.endpoints.getServer.initiate(id));
    return () => subscription.unsubscribe();
  }, [dispatch, id, access, guild]);
  useOpenServer(id);
}

export type ApiAnswer = unknown | ((url: URL, init: RequestInit | undefined) => Response | Promise<Response>);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function apiError(status: number, code: number, message: string, extra: Partial<ApiError> = {}): Response {
  return json({ code, message, isAuthenticated: true, ...extra } satisfies ApiError, status);
}

/**
 * Replaces fetch: `answers` maps 'GET /api/plans' (or just '/api/plans' for any method) to a JSON
 * body, or to a function returning a Response. Anything else answers 404 with an ApiError and is
 * recorded in `unexpected`, so a test can assert no stray call was made.
 */
export function mockApi(answers: Record<string, ApiAnswer>) {
  const unexpected: string[] = [];
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const answer = answers[`${method} ${url.pathname}`] ?? answers[url.pathname];
    if (answer === undefined) {
      unexpected.push(`${method} ${url.pathname}${url.search}`);
      return json({ code: 1002, message: `No mock for ${method} ${url.pathname}`, isAuthenticated: true }, 404);
    }
    if (typeof answer === 'function') return (answer as (url: URL, init: RequestInit | undefined) => Response | Promise<Response>)(url, init);
    return json(answer);
  });
  const calls = (path: string) => fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname === path);
  return { fetchMock, unexpected, calls };
}

export interface RenderPageOptions {
  /** The URL to start at (default '/'). */
  url?: string;
  /** Route pattern the element is mounted at (default: the path of `url`). */
  path?: string;
  handle?: RouteHandle;
  /** Extra routes next to the page (e.g. a target to navigate to). */
  routes?: RouteObject[];
  /** The signed-in state (default: signed out, loaded). */
  me?: MeResponse;
  config?: Partial<RuntimeConfig>;
  /** Wraps the routed element (e.g. a layout). */
  wrap?: (page: ReactNode) => ReactNode;
}

export interface RenderedPage extends RenderResult {
  store: AppStore;
  router: ReturnType<typeof createMemoryRouter>;
  navigate: ReturnType<typeof vi.fn<(to: string) => void>>;
}

/** Renders one page as the shell would: one store, the shared package configured, a router. */
export function renderPage(element: ReactElement, options: RenderPageOptions = {}): RenderedPage {
  const url = options.url ?? '/';
  const path = options.path ?? new URL(url, 'http://x').pathname;
  const store = makeStore({ auth: authStateFor(options.me ?? SIGNED_OUT_ME) });
  const router = createMemoryRouter(
    [{ path, handle: options.handle, element: options.wrap ? options.wrap(element) : element }, ...(options.routes ?? []), { path: '*', element: <p>No route in the test</p> }],
    { initialEntries: [url] },
  );
  const navigate = vi.fn<(to: string) => void>((to) => {
    void router.navigate(to);
  });
  configureShared({ config: { ...TEST_CONFIG, ...options.config }, navigate, dispatch: store.dispatch });
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...result, store, router, navigate };
}

/** Unmounts what was rendered, then resets what renderPage and the request client keep (call in afterEach). */
export function resetShared(store?: AppStore): void {
  cleanup();
  store?.dispatch(api.util.resetApiState());
  resetClientState();
  resetLoginPopup();
  resetSharedConfiguration();
  clearSidebarBadges();
  vi.restoreAllMocks();
}

/**
 * What is wrong with a remote's `./routes` module, for its own test: its table does not parse (the
 * same check its build and the shell run), a page the table names has no component, or a component
 * no route uses. Empty when all is well.
 */
export function routesModuleProblems(module: AnyRemoteRoutesModule): string[] {
  const problems: string[] = [];
  try {
    parseRouteTable(JSON.parse(JSON.stringify(module.table)), module.id);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  if (module.table.remote !== module.id) problems.push(`the table belongs to ${module.table.remote}, the module to ${module.id}`);
  const named = new Set(leafPaths(module.table).flatMap((l) => (l.route.page ? [l.route.page] : [])));
  const provided = new Set(Object.keys(module.routes));
  for (const page of named) if (!provided.has(page)) problems.push(`page "${page}" has no component`);
  for (const page of provided) if (!named.has(page)) problems.push(`component "${page}" is not used by any route`);
  // Titles and sidebar labels are translated through the remote's catalogue (title.<page>, description.<page>, sidebar.<page>),
  // whose English must say what the table says (the shell shows the table's text until it has loaded).
  const english = i18n.messages as Record<string, unknown>;
  if (i18n.locale !== 'en') problems.push('load the English catalogues (startI18n("en")) before checking a routes module');
  for (const { route } of leafPaths(module.table)) {
    if (!route.page) continue;
    for (const [kind, text] of [['title', route.title], ['description', route.description], ['sidebar', route.sidebar?.label]] as const) {
      if (!text) continue;
      const key = `${module.id}.${kind}.${route.page}`;
      if (english[key] === undefined) problems.push(`the catalogue has no "${kind}.${route.page}" for "${text}"`);
      else if (i18n._(key) !== text) problems.push(`the catalogue's "${kind}.${route.page}" is "${i18n._(key)}", the table says "${text}"`);
    }
  }
  return problems;
}

/**
 * Runs every test of the file (or `describe` block) in `locale`, back to English after each (the
 * language every other test expects).
 */
export function inLocale(locale: Locale): void {
  beforeEach(() => changeLocale(locale));
  afterEach(() => changeLocale('en'));
}

// For tests only: what the overlay shows (the shell's overlay host reads it through useOverlayState).
export { overlayStore } from './client/overlay-store';

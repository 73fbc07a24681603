import { vi } from 'vitest';
import { resetLoginPopup } from '../auth/login-popup';
import { resetClientState } from '../client/request';
import { configureShared, resetSharedConfiguration } from '../config';
import { makeStore } from '../store';
import type { ApiError, Guild, MeResponse, RuntimeConfig } from '../types';

export const API_ORIGIN = 'http://localhost:3000';

export const CONFIG: RuntimeConfig = {
  productName: 'Tickety',
  apiOrigin: API_ORIGIN,
  remotes: {
    marketing: { manifest: 'http://localhost:4001/mf-manifest.json', version: null, routes: null },
    billing: { manifest: 'http://localhost:4002/mf-manifest.json', version: null, routes: null },
    dashboard: { manifest: 'http://localhost:4003/mf-manifest.json', version: null, routes: null },
    staff: { manifest: 'http://localhost:4004/mf-manifest.json', version: null, routes: null },
  },
  docsUrl: 'https://docs.example.com',
  supportUrl: 'https://discord.gg/example',
  inviteUrl: 'https://discord.com/oauth2/authorize?client_id=1',
  discordClientId: '100000000000000001',
  discordOrigin: 'https://discord.com',
  paddleToken: null,
  paddleScriptUrl: null,
  analyticsToken: null,
  demo: true,
};

export const GUILD_MANAGED: Guild = {
  id: '200000000000000001',
  name: 'Managed',
  icon: null,
  iconUrl: null,
  owner: true,
  permissions: '8',
  canManage: true,
  botInGuild: true,
};
export const GUILD_MEMBER: Guild = { ...GUILD_MANAGED, id: '200000000000000002', name: 'Member', owner: false, permissions: '0', canManage: false };

export const SIGNED_IN: Extract<MeResponse, { isAuthenticated: true }> = {
  isAuthenticated: true,
  user: { id: '300000000000000001', username: 'ana', globalName: 'Ana', avatar: null, avatarUrl: 'https://cdn.example.com/a.png' },
  guilds: [GUILD_MANAGED, GUILD_MEMBER],
  team: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'], owner: false },
  sub: { premium: true, servers: [GUILD_MANAGED.id] },
  guildsRefreshedAt: '2026-01-01T00:00:00.000Z',
};

export const SIGNED_OUT: MeResponse = {
  isAuthenticated: false,
  user: null,
  guilds: [],
  team: null,
  sub: null,
  guildsRefreshedAt: null,
};

export function apiError(code: number, message: string, extra: Partial<ApiError> = {}): ApiError {
  return { code, message, isAuthenticated: true, ...extra };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

type FetchArgs = Parameters<typeof fetch>;

/** A fetch that never answers, but honours its abort signal like the real one. */
export function hangingFetch(...[, init]: FetchArgs): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}

/** Installs the fetch mock, a store and the configuration. */
export function setup() {
  const fetchMock = vi.spyOn(globalThis, 'fetch');
  const navigate = vi.fn<(to: string) => void>();
  const store = makeStore();
  configureShared({ config: CONFIG, navigate, dispatch: store.dispatch });
  return { fetchMock, navigate, store };
}

export function teardown(): void {
  resetClientState();
  resetLoginPopup();
  resetSharedConfiguration();
  vi.restoreAllMocks();
  vi.useRealTimers();
}

/** The URL, method, headers and body of the fetch call at `index` (0-based). */
export function call(fetchMock: { mock: { calls: FetchArgs[] } }, index = 0) {
  const args = fetchMock.mock.calls[index];
  if (!args) throw new Error(`fetch was not called ${index + 1} time(s)`);
  const [input, init] = args;
  return {
    url: String(input),
    method: init?.method,
    headers: new Headers(init?.headers),
    body: init?.body,
    credentials: init?.credentials,
    signal: init?.signal ?? null,
  };
}

/** Follows a promise's outcome without awaiting it. */
export function track<T>(promise: Promise<T>) {
  const tracked: { status: 'pending' | 'fulfilled' | 'rejected'; value?: T; error?: unknown } = { status: 'pending' };
  promise.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (error: unknown) => {
      tracked.status = 'rejected';
      tracked.error = error;
    },
  );
  return tracked;
}

/** Lets pending promise callbacks (and zero-delay timers) run under fake timers. */
export async function flush(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

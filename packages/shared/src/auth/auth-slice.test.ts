import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlayStore } from '../client/overlay-store';
import { OVERLAY } from '../constants';
import {
  API_ORIGIN,
  apiError,
  call,
  flush,
  GUILD_MANAGED,
  hangingFetch,
  jsonResponse,
  SIGNED_IN,
  SIGNED_OUT,
  setup,
  teardown,
  track,
} from '../test/helpers';
import type { MeResponse } from '../types';
import { loadUser, logout, refreshGuilds, setTemporaryBilling, setTemporaryServer } from './auth-slice';

let env: ReturnType<typeof setup>;
const T0 = new Date('2026-03-01T12:00:00.000Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  env = setup();
});
afterEach(teardown);

function answerMe(me: MeResponse) {
  env.fetchMock.mockImplementation(async () => jsonResponse(me));
}
const meCalls = () => env.fetchMock.mock.calls.filter(([u]) => String(u) === `${API_ORIGIN}/api/auth/@me`).length;

describe('loadUser', () => {
  it('loads the user into the state and records when', async () => {
    answerMe(SIGNED_IN);
    expect(env.store.getState().auth.status).toBe('idle');
    const pending = env.store.dispatch(loadUser());
    expect(env.store.getState().auth.status).toBe('loading');
    await pending;
    const auth = env.store.getState().auth;
    expect(auth.status).toBe('loaded');
    expect(auth.user?.id).toBe('300000000000000001');
    expect(auth.guilds).toHaveLength(2);
    expect(auth.team).toEqual({ permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'], owner: false });
    expect(auth.sub).toEqual({ premium: true, servers: [GUILD_MANAGED.id] });
    expect(auth.guildsRefreshedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(auth.lastLoaded).toBe(T0);
    expect(call(env.fetchMock)).toMatchObject({ url: `${API_ORIGIN}/api/auth/@me`, method: 'GET', credentials: 'include' });
  });

  it('a second call within 50 ms does not fetch again and returns the cached answer (signed out too)', async () => {
    answerMe(SIGNED_OUT);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 49);
    const second = await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(1);
    expect(second.payload).toEqual(SIGNED_OUT);
    expect(second.meta).toMatchObject({ source: 'cache', loadedAt: T0 });
  });

  it('at 60 ms with a user (under 5 s): cached', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 60);
    const second = await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(1);
    expect(second.payload).toEqual(SIGNED_IN);
  });

  it('at 4999 ms with a user: still cached, and the cache does not extend itself', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 4999);
    await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(1);
    expect(env.store.getState().auth.lastLoaded).toBe(T0);
    vi.setSystemTime(T0 + 5000);
    await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(2);
  });

  it('at 60 ms with NO user: fetches', async () => {
    answerMe(SIGNED_OUT);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 60);
    await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(2);
  });

  it('after 5 s: fetches, and the new answer replaces the state', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 5001);
    answerMe(SIGNED_OUT);
    await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(2);
    expect(env.store.getState().auth).toMatchObject({ user: null, guilds: [], team: null, sub: null, lastLoaded: T0 + 5001 });
  });

  it('force bypasses both windows', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    vi.setSystemTime(T0 + 10);
    await env.store.dispatch(loadUser({ force: true }));
    expect(meCalls()).toBe(2);
  });

  it('concurrent calls share one request', async () => {
    answerMe(SIGNED_IN);
    const [a, b, c] = await Promise.all([
      env.store.dispatch(loadUser()),
      env.store.dispatch(loadUser()),
      env.store.dispatch(loadUser()),
    ]);
    expect(meCalls()).toBe(1);
    expect(a.payload).toEqual(SIGNED_IN);
    expect(b.payload).toEqual(SIGNED_IN);
    expect(c.payload).toEqual(SIGNED_IN);
    expect(b.meta).toMatchObject({ source: 'shared' });
  });

  it('an older answer never overwrites a forced reload that started later', async () => {
    const answers: Array<(response: Response) => void> = [];
    env.fetchMock.mockImplementation(() => new Promise<Response>((r) => answers.push(r)));
    const older = env.store.dispatch(loadUser());
    await flush();
    const forced = env.store.dispatch(loadUser({ force: true }));
    await flush();
    expect(answers).toHaveLength(2);
    answers[1]?.(jsonResponse(SIGNED_IN));
    await forced;
    answers[0]?.(jsonResponse(SIGNED_OUT));
    const olderAnswer = await older;
    expect(olderAnswer.payload).toEqual(SIGNED_IN);
    expect(env.store.getState().auth.user?.id).toBe('300000000000000001');
  });

  it('a reload keeps status loaded (guards do not fall back to pending)', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.fetchMock.mockImplementation(hangingFetch);
    void env.store.dispatch(loadUser({ force: true }));
    await flush();
    expect(env.store.getState().auth.status).toBe('loaded');
    expect(env.store.getState().auth.user).not.toBeNull();
  });

  it('a first load the user gives up on (Home on the error overlay) ends in status failed', async () => {
    env.fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const pending = env.store.dispatch(loadUser());
    await flush();
    expect(overlayStore.getSnapshot().error?.kind).toBe('failed');
    const { overlayActions } = await import('../client/overlay-actions');
    overlayActions.home();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    const result = await pending;
    expect(result.type).toBe('auth/loadUser/rejected');
    expect(env.store.getState().auth.status).toBe('failed');
  });
});

describe('logout', () => {
  it('clears user, team, sub and guilds, then reloads the user (force) when the answer says isAuthenticated false', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('/api/auth/logout') ? jsonResponse({ isAuthenticated: false }) : jsonResponse(SIGNED_OUT),
    );
    vi.setSystemTime(T0 + 100);
    const result = await env.store.dispatch(logout());
    expect(result.payload).toEqual({ isAuthenticated: false });
    expect(call(env.fetchMock, 1)).toMatchObject({ url: `${API_ORIGIN}/api/auth/logout`, method: 'GET', credentials: 'include' });
    // A GET that changes state proves it comes from the dashboard (the API refuses it otherwise).
    expect(call(env.fetchMock, 1).headers.get('x-requested-with')).toBe('tickety');
    expect(call(env.fetchMock, 2).url).toBe(`${API_ORIGIN}/api/auth/@me`);
    expect(env.store.getState().auth).toMatchObject({
      user: null,
      team: null,
      sub: null,
      guilds: [],
      guildsRefreshedAt: null,
      status: 'loaded',
      lastLoaded: T0 + 100,
    });
  });

  it('clears even if the reload is still pending, the open server and billing record included', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.store.dispatch(setTemporaryServer('200000000000000001'));
    env.store.dispatch(setTemporaryBilling({ provider: 'paddle', id: 'sub_1' }));
    env.fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('/api/auth/logout') ? jsonResponse({ isAuthenticated: false }) : hangingFetch(input),
    );
    void env.store.dispatch(logout());
    await flush();
    expect(env.store.getState().auth).toMatchObject({ user: null, team: null, sub: null, guilds: [], temporaryServer: null, temporaryBilling: null });
  });

  it('does not reload when the answer does not say isAuthenticated false', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.fetchMock.mockImplementation(async () => jsonResponse({ isAuthenticated: true }));
    await env.store.dispatch(logout());
    expect(env.fetchMock).toHaveBeenCalledTimes(2);
    expect(env.store.getState().auth.user).toBeNull();
  });

  it('times out after 30 s (not 60 s)', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.fetchMock.mockImplementation(hangingFetch);
    void env.store.dispatch(logout());
    await vi.advanceTimersByTimeAsync(OVERLAY.logoutTimeoutMs - 1);
    expect(overlayStore.getSnapshot().error).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(overlayStore.getSnapshot().error).toMatchObject({
      kind: 'failed',
      detail: '408 - 0',
      message: 'Tickety did not answer within 30 seconds. Try again in a moment.',
    });
    expect(call(env.fetchMock, 1).signal?.aborted).toBe(true);
    expect(env.store.getState().auth.user).not.toBeNull();
  });
});

describe('refreshGuilds', () => {
  it('POSTs with the CSRF header and updates the guilds', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    const refreshed: MeResponse = { ...SIGNED_IN, guilds: [GUILD_MANAGED], guildsRefreshedAt: '2026-03-01T12:00:01.000Z' };
    env.fetchMock.mockImplementation(async () => jsonResponse(refreshed));
    vi.setSystemTime(T0 + 1000);
    await env.store.dispatch(refreshGuilds());
    const sent = call(env.fetchMock, 1);
    expect(sent).toMatchObject({ url: `${API_ORIGIN}/api/auth/guilds/refresh`, method: 'POST', body: '{}', credentials: 'include' });
    expect(sent.headers.get('x-requested-with')).toBe('tickety');
    expect(sent.headers.get('content-type')).toBe('application/json');
    expect(env.store.getState().auth.guilds.map((g) => g.id)).toEqual([GUILD_MANAGED.id]);
    expect(env.store.getState().auth.guildsRefreshedAt).toBe('2026-03-01T12:00:01.000Z');
    expect(env.store.getState().auth.lastLoaded).toBe(T0 + 1000);
  });

  it('a rate-limit answer (1003) surfaces its message and Retry-After, without an overlay', async () => {
    answerMe(SIGNED_IN);
    await env.store.dispatch(loadUser());
    env.fetchMock.mockImplementation(async () =>
      jsonResponse(apiError(1003, 'You can refresh your servers once every 10 seconds.'), 429, { 'retry-after': '7' }),
    );
    const t = track(env.store.dispatch(refreshGuilds()));
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.status).toBe('fulfilled');
    expect(t.value?.type).toBe('auth/refreshGuilds/rejected');
    expect(t.value?.payload).toEqual({
      code: 1003,
      status: 429,
      message: 'You can refresh your servers once every 10 seconds.',
      retryAfter: 7,
    });
    expect(overlayStore.getSnapshot()).toEqual({ loading: false, error: null });
    expect(env.store.getState().auth.guilds).toHaveLength(2);
  });
});

describe('temporary values', () => {
  it('setTemporaryServer and setTemporaryBilling', () => {
    env.store.dispatch(setTemporaryServer('200000000000000002'));
    env.store.dispatch(setTemporaryBilling({ provider: 'paddle', id: 'sub_2' }));
    expect(env.store.getState().auth.temporaryServer).toBe('200000000000000002');
    expect(env.store.getState().auth.temporaryBilling).toEqual({ provider: 'paddle', id: 'sub_2' });
    env.store.dispatch(setTemporaryServer(null));
    expect(env.store.getState().auth.temporaryServer).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { overlayActions } from '../client/overlay-actions';
import { overlayStore } from '../client/overlay-store';
import { request } from '../client/request';
import { API_ORIGIN, flush, jsonResponse, SIGNED_IN, SIGNED_OUT, setup, teardown, track } from '../test/helpers';
import { loadUser, login } from './auth-slice';
import { popupFeatures } from './login-popup';

let env: ReturnType<typeof setup>;

interface FakePopup {
  closed: boolean;
  close: () => void;
  focus: () => void;
}

let popup: FakePopup;
let openSpy: MockInstance<Window['open']>;

beforeEach(() => {
  vi.useFakeTimers();
  env = setup();
  popup = {
    closed: false,
    close: vi.fn(() => {
      popup.closed = true;
    }),
    focus: vi.fn(),
  };
  openSpy = vi.spyOn(window, 'open').mockImplementation(() => popup as unknown as Window);
  env.fetchMock.mockImplementation(async () => jsonResponse(SIGNED_IN));
});
afterEach(teardown);

/** A message as the browser delivers it; `source` is the window that posted it (by default the popup). */
function post(data: unknown, origin: string = API_ORIGIN, source: unknown = popup): void {
  const event = new MessageEvent('message', { data, origin });
  Object.defineProperty(event, 'source', { value: source });
  window.dispatchEvent(event);
}
const meCalls = () => env.fetchMock.mock.calls.filter(([u]) => String(u) === `${API_ORIGIN}/api/auth/@me`).length;

describe('login popup', () => {
  it('opens <apiOrigin>/api/auth/login in a centred 500x800 popup', () => {
    void env.store.dispatch(login());
    expect(openSpy).toHaveBeenCalledTimes(1);
    const [url, name, features] = openSpy.mock.calls[0] ?? [];
    expect(url).toBe(`${API_ORIGIN}/api/auth/login`);
    expect(name).toBe('tickety-login');
    expect(features).toContain('width=500');
    expect(features).toContain('height=800');
    expect(features).not.toContain('noopener');
    const left = Math.round(window.screenX + (window.outerWidth - 500) / 2);
    const top = Math.round(window.screenY + (window.outerHeight - 800) / 2);
    expect(features).toBe(`popup=yes,width=500,height=800,left=${left},top=${top}`);
  });

  it('centres on the opener window', () => {
    const win = { screenX: 100, screenY: 50, outerWidth: 1500, outerHeight: 1000 } as Window;
    expect(popupFeatures(win)).toBe('popup=yes,width=500,height=800,left=600,top=150');
  });

  it('a message from the API origin with auth:true resolves true and reloads the user, bypassing the cache', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(SIGNED_OUT));
    await env.store.dispatch(loadUser());
    expect(meCalls()).toBe(1);
    env.fetchMock.mockImplementation(async () => jsonResponse(SIGNED_IN));
    const t = track(env.store.dispatch(login()));
    post({ auth: true });
    await flush();
    expect(t.value?.payload).toBe(true);
    expect(meCalls()).toBe(2);
    expect(env.store.getState().auth.user?.id).toBe('300000000000000001');
    expect(popup.close).toHaveBeenCalled();
  });

  it.each([
    ['another origin', { auth: true }, 'https://evil.example'],
    ['a look-alike origin', { auth: true }, 'http://localhost:3000.evil.com'],
    ['the API origin with a path-like suffix', { auth: true }, 'http://localhost:30000'],
    ['the dashboard origin', { auth: true }, 'http://localhost:4000'],
    ["auth as the string 'true'", { auth: 'true' }, API_ORIGIN],
    ['auth as 1', { auth: 1 }, API_ORIGIN],
    ['a bare string', 'auth:true', API_ORIGIN],
    ['null', null, API_ORIGIN],
    ['an array', [{ auth: true }], API_ORIGIN],
    ['an object without auth', { ok: true }, API_ORIGIN],
    ['another window of the API origin (not the popup)', { auth: true }, API_ORIGIN, { closed: false }],
    ['a message without a source window', { auth: true }, API_ORIGIN, null],
  ])('ignores %s', async (_label, data, origin, source: unknown = popup) => {
    const t = track(env.store.dispatch(login()));
    post(data, origin, source);
    await vi.advanceTimersByTimeAsync(100);
    expect(t.status).toBe('pending');
    expect(meCalls()).toBe(0);
    // the genuine answer still works afterwards
    post({ auth: true });
    await flush();
    expect(t.value?.payload).toBe(true);
    expect(meCalls()).toBe(1);
  });

  it('auth:false resolves false and does not reload', async () => {
    const t = track(env.store.dispatch(login()));
    post({ auth: false, error: 'access_denied' });
    await flush();
    expect(t.value?.payload).toBe(false);
    expect(meCalls()).toBe(0);
  });

  it('resolves false when the popup is closed without an answer', async () => {
    const t = track(env.store.dispatch(login()));
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.status).toBe('pending');
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.value?.payload).toBe(false);
    expect(meCalls()).toBe(0);
  });

  it('falls back to navigating the window when the popup is blocked', async () => {
    openSpy.mockReturnValue(null);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const result = await env.store.dispatch(login());
    expect(assign).toHaveBeenCalledExactlyOnceWith(`${API_ORIGIN}/api/auth/login`);
    expect(result.payload).toBe(false);
  });

  it('a second login while the popup is open focuses it instead of opening another', async () => {
    const first = track(env.store.dispatch(login()));
    const second = track(env.store.dispatch(login()));
    expect(openSpy).toHaveBeenCalledTimes(1);
    expect(popup.focus).toHaveBeenCalled();
    post({ auth: true });
    await flush();
    expect(first.value?.payload).toBe(true);
    expect(second.value?.payload).toBe(true);
  });
});

describe("the overlay's 'Login with discord'", () => {
  it('opens the popup and, once signed in, re-sends the request, which resolves', async () => {
    let signedIn = false;
    env.fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/api/auth/@me')) return jsonResponse(signedIn ? SIGNED_IN : SIGNED_OUT);
      return signedIn
        ? jsonResponse({ config: 'ok' })
        : jsonResponse({ code: 401, message: 'You need to log in with Discord to do this.', isAuthenticated: false }, 401);
    });
    const t = track(request<{ config: string }>({ path: '/api/guilds/1/config' }));
    await flush();
    expect(overlayStore.getSnapshot().error?.kind).toBe('login');

    const pressed = overlayActions.login();
    expect(openSpy).toHaveBeenCalledTimes(1);
    signedIn = true;
    post({ auth: true });
    await pressed;
    await flush();
    expect(env.store.getState().auth.user?.id).toBe('300000000000000001');
    expect(t).toMatchObject({ status: 'fulfilled', value: { config: 'ok' } });
    expect(overlayStore.getSnapshot().error).toBeNull();
    const configCalls = env.fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/api/guilds/1/config'));
    expect(configCalls).toHaveLength(2);
  });

  it('a closed popup leaves the login overlay in place and re-sends nothing', async () => {
    env.fetchMock.mockImplementation(async () =>
      jsonResponse({ code: 401, message: 'You need to log in with Discord to do this.', isAuthenticated: false }, 401),
    );
    const t = track(request({ path: '/api/x' }));
    await flush();
    const pressed = overlayActions.login();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    await pressed;
    expect(overlayStore.getSnapshot().error?.kind).toBe('login');
    expect(env.fetchMock).toHaveBeenCalledTimes(1);
    expect(t.status).toBe('pending');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OVERLAY } from '../constants';
import { API_ORIGIN, apiError, call, flush, hangingFetch, jsonResponse, setup, teardown, track } from '../test/helpers';
import { ApiRequestError } from './errors';
import { overlayActions } from './overlay-actions';
import { overlayStore } from './overlay-store';
import { request } from './request';

let env: ReturnType<typeof setup>;

beforeEach(() => {
  vi.useFakeTimers();
  env = setup();
});
afterEach(teardown);

const overlay = () => overlayStore.getSnapshot();

/** Makes the request fail once with `body`/`status`, then succeed with `ok` on every later call. */
function failThenSucceed(status: number, body: unknown, ok: unknown = { ok: true }) {
  env.fetchMock.mockImplementationOnce(async () => jsonResponse(body, status));
  env.fetchMock.mockImplementation(async () => jsonResponse(ok));
}

describe('what request sends', () => {
  it('GETs apiOrigin + path + query with credentials and accept, no CSRF header, no body', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse({ hello: 'world' }));
    const data = await request<{ hello: string }>({ path: '/api/plans', query: { page: 2, q: 'a b', skip: undefined } });
    expect(data).toEqual({ hello: 'world' });
    const sent = call(env.fetchMock);
    expect(sent.url).toBe(`${API_ORIGIN}/api/plans?page=2&q=a+b`);
    expect(sent.method).toBe('GET');
    expect(sent.credentials).toBe('include');
    expect(sent.headers.get('accept')).toBe('application/json');
    expect(sent.headers.get('x-requested-with')).toBeNull();
    expect(sent.headers.get('content-type')).toBeNull();
    expect(sent.body).toBeUndefined();
  });

  it('with gzip, asks for gzipped JSON and inflates it in the page; errors stay JSON', async () => {
    const json = JSON.stringify({ messages: Array.from({ length: 100 }, (_, i) => `message ${i} ✓`) });
    const gzipped = await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
    env.fetchMock.mockImplementationOnce(async () => new Response(gzipped, { status: 200, headers: { 'content-type': 'application/gzip' } }));
    const data = await request<{ messages: string[] }>({ path: '/api/transcripts/v2/1/t', gzip: true });
    expect(data.messages).toHaveLength(100);
    expect(data.messages[99]).toBe('message 99 ✓');
    expect(call(env.fetchMock).headers.get('accept')).toBe('application/gzip, application/json;q=0.9');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('%s carries the JSON content-type and x-requested-with: tickety', async (method) => {
    env.fetchMock.mockImplementation(async () => jsonResponse({ saved: true }));
    await request({ path: '/api/things', method, body: { name: 'x' } });
    const sent = call(env.fetchMock);
    expect(sent.method).toBe(method);
    expect(sent.credentials).toBe('include');
    expect(sent.headers.get('content-type')).toBe('application/json');
    expect(sent.headers.get('x-requested-with')).toBe('tickety');
    expect(sent.body).toBe('{"name":"x"}');
  });

  it('a mutation without a body sends {} (a JSON content-type with an empty body is refused by the API)', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse({}));
    await request({ path: '/api/auth/guilds/refresh', method: 'POST' });
    expect(call(env.fetchMock).body).toBe('{}');
  });

  it('an empty answer resolves undefined', async () => {
    env.fetchMock.mockImplementation(async () => new Response(null, { status: 204 }));
    await expect(request({ path: '/api/x', method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('refuses a path that is not absolute on the API origin', async () => {
    await expect(request({ path: 'https://evil.example/api', overlay: false })).rejects.toThrow(/must start with '\/'/);
    expect(env.fetchMock).not.toHaveBeenCalled();
  });
});

describe('silent requests (overlay: false)', () => {
  it('throw an ApiRequestError with status, body and Retry-After, and never touch the overlay', async () => {
    env.fetchMock.mockImplementation(async () =>
      jsonResponse(apiError(1003, 'Too many requests: wait a moment and try again.'), 429, { 'retry-after': '10' }),
    );
    const tracked = track(request({ path: '/api/x', overlay: false }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(tracked.status).toBe('rejected');
    const error = tracked.error as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(429);
    expect(error.body?.code).toBe(1003);
    expect(error.retryAfter).toBe(10);
    expect(error.message).toBe('Too many requests: wait a moment and try again.');
    expect(overlay()).toEqual({ loading: false, error: null });
  });

  it('report a network failure as kind network', async () => {
    env.fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(request({ path: '/api/x', overlay: false })).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('time out after 60 s by default (kind timeout) and abort the fetch', async () => {
    env.fetchMock.mockImplementation(hangingFetch);
    const tracked = track(request({ path: '/api/x', overlay: false }));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(tracked.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(tracked.status).toBe('rejected');
    expect(tracked.error).toMatchObject({ kind: 'timeout', status: 0 });
    expect(call(env.fetchMock).signal?.aborted).toBe(true);
  });
});

describe('loading overlay', () => {
  it('appears only after 250 ms and goes away on the answer', async () => {
    let answer: (response: Response) => void = () => {};
    env.fetchMock.mockImplementation(() => new Promise<Response>((r) => (answer = r)));
    const tracked = track(request({ path: '/api/slow' }));
    await vi.advanceTimersByTimeAsync(OVERLAY.loadingDelayMs - 1);
    expect(overlay().loading).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(overlay().loading).toBe(true);
    answer(jsonResponse({ done: 1 }));
    await flush();
    expect(tracked.value).toEqual({ done: 1 });
    expect(overlay().loading).toBe(false);
  });

  it('never flashes for a fast answer', async () => {
    const seen: boolean[] = [];
    const unsubscribe = overlayStore.subscribe(() => seen.push(overlayStore.getSnapshot().loading));
    env.fetchMock.mockImplementation(
      () => new Promise<Response>((r) => setTimeout(() => r(jsonResponse({ fast: true })), 100)),
    );
    const tracked = track(request({ path: '/api/fast' }));
    await vi.advanceTimersByTimeAsync(1000);
    unsubscribe();
    expect(tracked.value).toEqual({ fast: true });
    expect(seen).not.toContain(true);
  });

  it('stays while any visible request is pending', async () => {
    const answers: Array<(response: Response) => void> = [];
    env.fetchMock.mockImplementation(() => new Promise<Response>((r) => answers.push(r)));
    track(request({ path: '/api/a' }));
    track(request({ path: '/api/b' }));
    await vi.advanceTimersByTimeAsync(300);
    expect(overlay().loading).toBe(true);
    answers[0]?.(jsonResponse({}));
    await flush();
    expect(overlay().loading).toBe(true);
    answers[1]?.(jsonResponse({}));
    await flush();
    expect(overlay().loading).toBe(false);
  });
});

describe('error catalogue (docs/behaviour.md#request-overlay-and-error-catalogue)', () => {
  it('not signed in (401, isAuthenticated false): Login Required with only the login button; the promise waits', async () => {
    env.fetchMock.mockImplementation(async () =>
      jsonResponse({ code: 401, message: 'You need to log in with Discord to do this.', isAuthenticated: false }, 401),
    );
    const tracked = track(request({ path: '/api/guilds/1' }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(overlay().error).toEqual({
      kind: 'login',
      title: 'Login Required',
      message: 'You need to log in with Discord to do this.',
      detail: null,
      buttons: { home: false, retry: false, cancel: false, selectServer: false },
      attempt: 0,
    });
    expect(tracked.status).toBe('pending');
  });

  it('any answer with isAuthenticated false is the login row, whatever its code', async () => {
    env.fetchMock.mockImplementation(async () =>
      jsonResponse({ code: 1004, message: 'staff only', isAuthenticated: false }, 403),
    );
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error?.kind).toBe('login');
  });

  it('signed in, code 403: no access, with the reason and Home, Retry, Select Another Server (Cancel off)', async () => {
    const reason = "Only this server's owner and members with the Administrator or Manage Server permission can manage it here. If your role changed recently, refresh your server list.";
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(403, reason), 403));
    const tracked = track(request({ path: '/api/guilds/1/config' }));
    await flush();
    expect(overlay().error).toEqual({
      kind: 'noAccess',
      title: "You don't have access to this server.",
      message: reason,
      detail: null,
      buttons: { home: true, retry: true, cancel: false, selectServer: true },
      attempt: 0,
    });
    expect(tracked.status).toBe('pending');
  });

  it('signed in, code 405 (sent with HTTP 404): no access too', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(405, 'This server is not one of your servers.'), 404));
    track(request({ path: '/api/guilds/2/config' }));
    await flush();
    expect(overlay().error).toMatchObject({
      kind: 'noAccess',
      title: "You don't have access to this server.",
      message: 'This server is not one of your servers.',
    });
  });

  it('no access shows each button only if enabled by the request', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(403, 'no'), 403));
    track(request({ path: '/api/x', buttons: { cancel: true, home: false, selectServer: false } }));
    await flush();
    expect(overlay().error?.buttons).toEqual({ home: false, retry: true, cancel: true, selectServer: false });
  });

  it('other failures: Request Failed with the message, "<code> - <http status>", Home and Retry', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'Something went wrong on our side.'), 500));
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error).toEqual({
      kind: 'failed',
      title: 'Request Failed',
      message: 'Something went wrong on our side.',
      detail: '1500 - 500',
      buttons: { home: true, retry: true, cancel: false, selectServer: false },
      attempt: 0,
    });
  });

  it('a staff-permission error (1004, HTTP 403) is an other failure, not "no access"', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1004, 'Needs a staff permission.'), 403));
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error).toMatchObject({ kind: 'failed', detail: '1004 - 403', message: 'Needs a staff permission.' });
  });

  it('Select Another Server is shown on other failures only when the answer has selector', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1001, 'Pick a server.', { selector: true }), 400));
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error?.buttons).toEqual({ home: true, retry: true, cancel: false, selectServer: true });
  });

  it('selector can still be turned off by the request', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1001, 'Pick a server.', { selector: true }), 400));
    track(request({ path: '/api/x', buttons: { selectServer: false } }));
    await flush();
    expect(overlay().error?.buttons.selectServer).toBe(false);
  });

  it('buttons.selectServer alone does not show it without selector', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1001, 'Bad input.'), 400));
    track(request({ path: '/api/x', buttons: { selectServer: true } }));
    await flush();
    expect(overlay().error?.buttons.selectServer).toBe(false);
  });

  it('other failures honour custom buttons (Cancel on, Home and Retry off)', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1001, 'Bad input.'), 400));
    track(request({ path: '/api/x', buttons: { cancel: true, home: false, retry: false } }));
    await flush();
    expect(overlay().error?.buttons).toEqual({ home: false, retry: false, cancel: true, selectServer: false });
  });

  it('a network failure: Request Failed, a plain message, detail "0 - 0"', async () => {
    env.fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error).toMatchObject({
      kind: 'failed',
      title: 'Request Failed',
      message: 'Could not reach Tickety. Check your internet connection, then try again.',
      detail: '0 - 0',
    });
  });

  it('a timeout (60 s): Request Failed, detail "408 - 0", the fetch aborted', async () => {
    env.fetchMock.mockImplementation(hangingFetch);
    const tracked = track(request({ path: '/api/x' }));
    await vi.advanceTimersByTimeAsync(OVERLAY.timeoutMs - 1);
    expect(overlay().error).toBeNull();
    expect(overlay().loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(overlay().error).toMatchObject({
      kind: 'failed',
      message: 'Tickety did not answer within 60 seconds. Try again in a moment.',
      detail: '408 - 0',
    });
    expect(overlay().loading).toBe(false);
    expect(call(env.fetchMock).signal?.aborted).toBe(true);
    expect(tracked.status).toBe('pending');
  });

  it('a custom timeout is honoured', async () => {
    env.fetchMock.mockImplementation(hangingFetch);
    track(request({ path: '/api/x', timeoutMs: 5000 }));
    await vi.advanceTimersByTimeAsync(4999);
    expect(overlay().error).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(overlay().error?.detail).toBe('408 - 0');
  });

  it('an answer that is not the API error shape: the HTTP status in message and detail', async () => {
    env.fetchMock.mockImplementation(async () => new Response('<html>Bad Gateway</html>', { status: 502 }));
    track(request({ path: '/api/x' }));
    await flush();
    expect(overlay().error).toMatchObject({ kind: 'failed', message: 'The request failed (HTTP 502).', detail: '502 - 502' });
  });
});

describe('the buttons', () => {
  it('Retry closes the overlay, re-sends after 250 ms and resolves the original promise', async () => {
    failThenSucceed(500, apiError(1500, 'boom'), { second: 'try' });
    const tracked = track(request<{ second: string }>({ path: '/api/x', method: 'POST', body: { a: 1 } }));
    await flush();
    expect(overlay().error?.kind).toBe('failed');
    overlayActions.retry();
    expect(overlay().error).toBeNull();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs - 1);
    expect(env.fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(env.fetchMock).toHaveBeenCalledTimes(2);
    expect(call(env.fetchMock, 1)).toMatchObject({ url: `${API_ORIGIN}/api/x`, method: 'POST', body: '{"a":1}' });
    await flush();
    expect(tracked).toMatchObject({ status: 'fulfilled', value: { second: 'try' } });
    expect(overlay()).toEqual({ loading: false, error: null });
  });

  it('never retries by itself', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const tracked = track(request({ path: '/api/x' }));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(env.fetchMock).toHaveBeenCalledTimes(1);
    expect(tracked.status).toBe('pending');
    expect(overlay().error?.kind).toBe('failed');
  });

  it('counts attempts: a retried request that fails again shows attempt 1', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    track(request({ path: '/api/x' }));
    await flush();
    overlayActions.retry();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(overlay().error?.attempt).toBe(1);
  });

  it('Retry does nothing when it is not enabled', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    track(request({ path: '/api/x', buttons: { retry: false, cancel: true } }));
    await flush();
    overlayActions.retry();
    await vi.advanceTimersByTimeAsync(1000);
    expect(env.fetchMock).toHaveBeenCalledTimes(1);
    expect(overlay().error?.kind).toBe('failed');
  });

  it('Cancel (when enabled) closes and rejects as cancelled, without navigating', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const tracked = track(request({ path: '/api/x', buttons: { cancel: true } }));
    await flush();
    overlayActions.cancel();
    expect(overlay().error).toBeNull();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(tracked.status).toBe('rejected');
    expect(tracked.error).toMatchObject({ kind: 'cancelled' });
    expect(env.navigate).not.toHaveBeenCalled();
  });

  it('Cancel is off by default and then does nothing', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const tracked = track(request({ path: '/api/x' }));
    await flush();
    overlayActions.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(tracked.status).toBe('pending');
    expect(overlay().error?.kind).toBe('failed');
  });

  it("Home closes, navigates to '/' and rejects as cancelled", async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const tracked = track(request({ path: '/api/x' }));
    await flush();
    overlayActions.home();
    expect(overlay().error).toBeNull();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith('/');
    expect(tracked.error).toMatchObject({ kind: 'cancelled' });
  });

  it("Select Another Server closes, navigates to '/dashboard' and rejects", async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(403, 'no access'), 403));
    const tracked = track(request({ path: '/api/x' }));
    await flush();
    overlayActions.selectServer();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith('/dashboard');
    expect(tracked.error).toMatchObject({ kind: 'cancelled' });
  });

  it('the retry limit: 999 retries are allowed, the next press rejects with retryLimit and goes Home after 500 ms', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const tracked = track(request({ path: '/api/x' }));
    await flush();
    for (let i = 1; i <= OVERLAY.retryLimit; i++) {
      overlayActions.retry();
      await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
      expect(overlay().error?.attempt).toBe(i);
    }
    expect(env.fetchMock).toHaveBeenCalledTimes(1000);
    expect(tracked.status).toBe('pending');

    overlayActions.retry();
    await flush();
    expect(overlay().error).toBeNull();
    expect(tracked.status).toBe('rejected');
    expect(tracked.error).toMatchObject({ kind: 'retryLimit' });
    await vi.advanceTimersByTimeAsync(OVERLAY.retryLimitDelayMs - 1);
    expect(env.navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith('/');
    expect(env.fetchMock).toHaveBeenCalledTimes(1000);
  });

  it('an aborted request leaves the overlay and rejects as cancelled', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const controller = new AbortController();
    const tracked = track(request({ path: '/api/x', signal: controller.signal }));
    await flush();
    expect(overlay().error?.kind).toBe('failed');
    controller.abort();
    await flush();
    expect(overlay().error).toBeNull();
    expect(tracked.error).toMatchObject({ kind: 'cancelled' });
  });

  it('an abort while in flight rejects as cancelled without any error overlay', async () => {
    env.fetchMock.mockImplementation(hangingFetch);
    const controller = new AbortController();
    const tracked = track(request({ path: '/api/x', signal: controller.signal }));
    await flush();
    controller.abort();
    await flush();
    expect(tracked.error).toMatchObject({ kind: 'cancelled' });
    expect(overlay().error).toBeNull();
  });
});

describe('several failures at once', () => {
  it('show one at a time, oldest first; Cancel moves on to the next after the action delay', async () => {
    env.fetchMock.mockImplementation(async (input) =>
      jsonResponse(apiError(1500, String(input).endsWith('/a') ? 'first' : 'second'), 500),
    );
    const first = track(request({ path: '/api/a', buttons: { cancel: true } }));
    const second = track(request({ path: '/api/b' }));
    await flush();
    expect(overlay().error?.message).toBe('first');
    overlayActions.cancel();
    expect(overlay().error).toBeNull();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(first.error).toMatchObject({ kind: 'cancelled' });
    expect(overlay().error?.message).toBe('second');
    expect(second.status).toBe('pending');
  });

  it('Retry re-sends only the shown request; a repeat failure goes to the back of the queue', async () => {
    env.fetchMock.mockImplementation(async (input) =>
      jsonResponse(apiError(1500, String(input).endsWith('/a') ? 'first' : 'second'), 500),
    );
    track(request({ path: '/api/a' }));
    track(request({ path: '/api/b' }));
    await flush();
    overlayActions.retry();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(env.fetchMock).toHaveBeenCalledTimes(3);
    expect(call(env.fetchMock, 2).url).toBe(`${API_ORIGIN}/api/a`);
    expect(overlay().error?.message).toBe('second');
    overlayActions.retry();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(overlay().error).toMatchObject({ message: 'first', attempt: 1 });
  });

  it('Home leaves the page: every queued request is rejected', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const first = track(request({ path: '/api/a' }));
    const second = track(request({ path: '/api/b' }));
    await flush();
    overlayActions.home();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    expect(first.error).toMatchObject({ kind: 'cancelled' });
    expect(second.error).toMatchObject({ kind: 'cancelled' });
    expect(overlay().error).toBeNull();
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith('/');
  });
});

import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createElement } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OVERLAY } from '../constants';
import { API_ORIGIN, apiError, call, flush, jsonResponse, setup, teardown } from '../test/helpers';
import { api } from './api';
import { overlayActions } from './overlay-actions';
import { overlayStore } from './overlay-store';

interface Plan {
  id: string;
  name: string;
}

const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    plans: build.query<Plan[], void>({ query: () => '/api/plans', providesTags: ['Plans'] }),
    serverConfig: build.query<{ prefix: string }, string>({
      query: (id) => ({ path: `/api/guilds/${id}/config`, query: { v: 2 } }),
    }),
    quietStatus: build.query<{ status: string }, void>({ query: () => ({ path: '/api/status', overlay: false }) }),
    savePrefix: build.mutation<{ prefix: string }, { id: string; prefix: string }>({
      query: ({ id, prefix }) => ({ path: `/api/guilds/${id}/config`, method: 'PATCH', body: { prefix }, buttons: { cancel: true } }),
      invalidatesTags: ['Plans'],
    }),
  }),
});

let env: ReturnType<typeof setup>;
afterEach(teardown);

describe('overlayBaseQuery in a real store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    env = setup();
  });

  it('a string query GETs apiOrigin + path and stores the data', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse([{ id: 'pro', name: 'Pro' }]));
    const result = await env.store.dispatch(plansApi.endpoints.plans.initiate());
    expect(result.data).toEqual([{ id: 'pro', name: 'Pro' }]);
    expect(call(env.fetchMock)).toMatchObject({ url: `${API_ORIGIN}/api/plans`, method: 'GET', credentials: 'include' });
    expect(plansApi.endpoints.plans.select()(env.store.getState()).data).toEqual([{ id: 'pro', name: 'Pro' }]);
  });

  it('RequestOptions queries keep their query string, and mutations their method, body and CSRF header', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse({ prefix: '!' }));
    await env.store.dispatch(plansApi.endpoints.serverConfig.initiate('42'));
    expect(call(env.fetchMock).url).toBe(`${API_ORIGIN}/api/guilds/42/config?v=2`);
    const saved = await env.store.dispatch(plansApi.endpoints.savePrefix.initiate({ id: '42', prefix: '?' }));
    expect(saved.data).toEqual({ prefix: '!' });
    const sent = call(env.fetchMock, 1);
    expect(sent.method).toBe('PATCH');
    expect(sent.body).toBe('{"prefix":"?"}');
    expect(sent.headers.get('x-requested-with')).toBe('tickety');
  });

  it('a failing query shows the overlay and waits; Retry re-sends and the query succeeds', async () => {
    env.fetchMock.mockImplementationOnce(async () => jsonResponse(apiError(1500, 'boom'), 500));
    env.fetchMock.mockImplementation(async () => jsonResponse([{ id: 'free', name: 'Free' }]));
    const pending = env.store.dispatch(plansApi.endpoints.plans.initiate());
    await flush();
    expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'failed', detail: '1500 - 500' });
    expect(plansApi.endpoints.plans.select()(env.store.getState()).isLoading).toBe(true);
    overlayActions.retry();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    const result = await pending;
    expect(result.data).toEqual([{ id: 'free', name: 'Free' }]);
    expect(result.isSuccess).toBe(true);
  });

  it('Cancel gives RTK a CANCELLED error it can render, and the store keeps working', async () => {
    env.fetchMock.mockImplementationOnce(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const pending = env.store.dispatch(plansApi.endpoints.savePrefix.initiate({ id: '1', prefix: '!' }));
    await flush();
    overlayActions.cancel();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    const result = await pending;
    expect(result.error).toEqual({ status: 'CANCELLED', data: null, message: 'The request was cancelled.' });
    env.fetchMock.mockImplementation(async () => jsonResponse([]));
    const again = await env.store.dispatch(plansApi.endpoints.plans.initiate());
    expect(again.data).toEqual([]);
  });

  it('Home gives CANCELLED too (and navigates)', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(403, 'No access to this server.'), 403));
    const pending = env.store.dispatch(plansApi.endpoints.serverConfig.initiate('7'));
    await flush();
    expect(overlayStore.getSnapshot().error?.kind).toBe('noAccess');
    overlayActions.home();
    await vi.advanceTimersByTimeAsync(OVERLAY.actionDelayMs);
    const result = await pending;
    expect(result.error).toMatchObject({ status: 'CANCELLED', data: null });
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('a silent query returns the HTTP status and the API error as data', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse(apiError(1009, 'Database unavailable.'), 503));
    const result = await env.store.dispatch(plansApi.endpoints.quietStatus.initiate());
    expect(result.error).toEqual({ status: 503, data: apiError(1009, 'Database unavailable.'), message: 'Database unavailable.' });
    expect(overlayStore.getSnapshot().error).toBeNull();
  });

  it('a silent query maps network failures and timeouts', async () => {
    env.fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const network = await env.store.dispatch(plansApi.endpoints.quietStatus.initiate());
    expect(network.error).toMatchObject({ status: 'NETWORK', data: null });
  });

  it("RTK's abort signal reaches the request: aborting the query rejects it as CANCELLED", async () => {
    env.fetchMock.mockImplementationOnce(async () => jsonResponse(apiError(1500, 'boom'), 500));
    const pending = env.store.dispatch(plansApi.endpoints.plans.initiate());
    await flush();
    expect(overlayStore.getSnapshot().error?.kind).toBe('failed');
    pending.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(overlayStore.getSnapshot().error).toBeNull();
  });
});

describe('hooks', () => {
  beforeEach(() => {
    env = setup();
  });

  it('useQuery of an injected endpoint renders data through the base query', async () => {
    env.fetchMock.mockImplementation(async () => jsonResponse([{ id: 'pro', name: 'Pro' }]));
    const wrapper = ({ children }: { children: ReactNode }) => createElement(Provider, { store: env.store, children });
    const { result } = renderHook(() => plansApi.usePlansQuery(), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([{ id: 'pro', name: 'Pro' }]);
    await act(async () => {
      env.store.dispatch(api.util.resetApiState());
    });
  });
});

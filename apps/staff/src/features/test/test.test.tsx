import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERROR_CODES, type PlaygroundIndex, playgroundCodes } from '@tickety/api-contract';
import { overlayActions } from '@tickety/shared';
import { apiError, json, mockApi, overlayStore, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TestPage from './test';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  resetShared(store);
});

const staff = signedInMe({ team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } });
const INDEX: PlaygroundIndex = { codes: playgroundCodes(), slowMaxMs: 15_000, holdMaxMs: 65_000, keepAliveEveryMs: 10_000, holdsPerUser: 3, recoverMaxMs: 600_000 };

/** The catalogue's error body for a code, as the playground's error route answers it (isAuthenticated false only for 401). */
function catalogueError(url: URL): Response {
  const code = Number(url.pathname.split('/').pop());
  const entry = Object.values(ERROR_CODES).find((e) => e.code === code)!;
  const selector = url.searchParams.get('selector') === 'true' || [403, 405, 1017].includes(code) ? { selector: true } : {};
  return apiError(entry.httpStatus, entry.code, entry.message, { isAuthenticated: code !== 401, ...selector });
}

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /api/staff/playground': INDEX, ...extra });
  ({ store } = renderPage(<TestPage />, { url: '/test', me: staff }));
  return api;
}

const lastResult = () => screen.getByRole('heading', { level: 2, name: 'Last result' }).closest('section')!;
const urlsOf = (calls: ReturnType<typeof mockApi>['fetchMock']['mock']['calls']) => calls.map(([input]) => new URL(String(input))).filter((u) => u.pathname !== '/api/staff/playground');

describe('test playground', () => {
  it('groups the buttons by state, one per catalogue code with its HTTP status, each explained', async () => {
    const { unexpected, calls } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Test' })).toBeInTheDocument();
    for (const name of ['Loading overlay', 'Login Required', 'No access to a server', 'Timeout', 'Network failure', 'Request Failed']) {
      expect(screen.getByRole('heading', { level: 2, name }), name).toBeInTheDocument();
    }
    expect(screen.getByText('Shown while a request is still pending after 250 ms, removed when it answers.')).toBeInTheDocument();
    expect(screen.getByText('After 999 retries of one request, the user is sent Home.')).toBeInTheDocument();
    const failed = screen.getByRole('heading', { level: 2, name: 'Request Failed' }).closest('section')!;
    await within(failed).findByRole('button', { name: '1001 HTTP 400: answer VALIDATION_FAILED' });
    const codes = within(failed)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label'));
    // Every code but those with a group of their own (401, 403, 405).
    expect(codes).toHaveLength(Object.keys(ERROR_CODES).length - 3);
    expect(codes).toContain('1500 HTTP 500: answer INTERNAL');
    expect(screen.getByRole('button', { name: '403 HTTP 403: answer NO_SERVER_ACCESS' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '405 HTTP 404: answer SERVER_NOT_FOUND' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Offer Cancel on the error overlay/ })).toBeChecked();
    expect(within(lastResult()).getByRole('status')).toHaveTextContent('Nothing triggered yet.');
    // The catalogue is a dashboard read without the overlay.
    expect(new Headers(calls('/api/staff/playground')[0]![1]!.headers).get('x-requested-with')).toBe('tickety');
    expect(overlayStore.getSnapshot()).toEqual({ loading: false, error: null });
    expect(unexpected).toEqual([]);
  });

  it('a slow success shows the real loading overlay after its delay, then reports the answer', async () => {
    let answer: (response: Response) => void = () => {};
    const { fetchMock, unexpected } = setup({
      'GET /api/staff/playground/slow': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Success after 1 s' }));
    expect(urlsOf(fetchMock.mock.calls).map((u) => `${u.pathname}${u.search}`)).toEqual(['/api/staff/playground/slow?ms=1000']);
    expect(new Headers(fetchMock.mock.calls.at(-1)![1]!.headers).get('x-requested-with')).toBe('tickety');
    expect(within(lastResult()).getByRole('status')).toHaveTextContent('Success after 1 s: waiting; the overlay shows what happens.');
    expect(overlayStore.getSnapshot().loading).toBe(false);
    await waitFor(() => expect(overlayStore.getSnapshot().loading).toBe(true));
    await waitFor(() => expect(within(lastResult()).getByText(/^Shown after 0[.,]\d+ s$/)).toBeInTheDocument());
    await act(async () => answer(json({ ok: true, waitedMs: 1000, answeredAt: '2026-01-01T00:00:00.000Z' })));
    await waitFor(() => expect(within(lastResult()).getByRole('status')).toHaveTextContent(/Success after 1 s: answered successfully after \d/));
    expect(overlayStore.getSnapshot()).toEqual({ loading: false, error: null });
    expect(within(lastResult()).getByText('GET /api/staff/playground/slow?ms=1000')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('a catalogue code shows Request Failed with its code and status; Retry sends it again; Cancel ends it, as reported', async () => {
    const { fetchMock } = setup({ '/api/staff/playground/error/1009': catalogueError });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '1009 HTTP 503: answer DATABASE_UNAVAILABLE' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'failed', title: 'Request Failed', detail: '1009 - 503', attempt: 0 }));
    expect(overlayStore.getSnapshot().error!.buttons).toEqual({ home: true, retry: true, cancel: true, selectServer: false });
    await act(async () => overlayActions.retry());
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ detail: '1009 - 503', attempt: 1 }));
    expect(urlsOf(fetchMock.mock.calls).map((u) => u.pathname)).toEqual(['/api/staff/playground/error/1009', '/api/staff/playground/error/1009']);
    const shown = within(lastResult()).getAllByRole('listitem').map((li) => li.textContent);
    expect(shown).toEqual(['Request Failed (1009 - 503)', 'Request Failed (1009 - 503) · after retry 1']);
    await act(async () => overlayActions.cancel());
    await waitFor(() => expect(within(lastResult()).getByRole('status')).toHaveTextContent(/ended after \d+([.,]\d+)? s: The request was cancelled\./));
    expect(within(lastResult()).getByText('Ended without an answer')).toBeInTheDocument();
  });

  it('login required and no access use the real overlay states; the options turn Cancel off and the selector on', async () => {
    const { fetchMock } = setup({ '/api/staff/playground/error/401': catalogueError, '/api/staff/playground/error/405': catalogueError, '/api/staff/playground/error/1500': catalogueError });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Answer 401: login required' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'login', title: 'Login Required' }));
    expect(overlayStore.getSnapshot().error!.buttons.cancel).toBe(true);
    await act(async () => overlayActions.cancel());
    await waitFor(() => expect(overlayStore.getSnapshot().error).toBeNull());

    await user.click(screen.getByRole('button', { name: '405 HTTP 404: answer SERVER_NOT_FOUND' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'noAccess', title: "You don't have access to this server." }));
    expect(overlayStore.getSnapshot().error!.buttons).toEqual({ home: true, retry: true, cancel: true, selectServer: true });
    await act(async () => overlayActions.cancel());
    await waitFor(() => expect(overlayStore.getSnapshot().error).toBeNull());

    await user.click(screen.getByRole('checkbox', { name: /Offer Cancel/ }));
    await user.click(screen.getByRole('checkbox', { name: /selector: true/ }));
    await user.click(screen.getByRole('button', { name: '1500 HTTP 500: answer INTERNAL' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'failed', detail: '1500 - 500' }));
    expect(overlayStore.getSnapshot().error!.buttons).toEqual({ home: true, retry: true, cancel: false, selectServer: true });
    expect(urlsOf(fetchMock.mock.calls).at(-1)!.searchParams.get('selector')).toBe('true');
  });

  it('“Retry succeeds after 15 s” asks the API to recover, and the success after Retry is reported', async () => {
    let now = 0;
    const { fetchMock } = setup({
      '/api/staff/playground/error/1003': (url: URL) =>
        Number(url.searchParams.get('until')) <= now ? json({ ok: true, recovered: true, code: 1003, answeredAt: '2026-01-01T00:00:00.000Z' }) : catalogueError(url),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /Let Retry succeed after 15 s/ }));
    const before = Date.now();
    await user.click(await screen.findByRole('button', { name: '1003 HTTP 429: answer RATE_LIMITED' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ detail: '1003 - 429' }));
    const until = Number(urlsOf(fetchMock.mock.calls)[0]!.searchParams.get('until'));
    expect(until).toBeGreaterThanOrEqual(before + 15_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 15_000);
    now = until;
    await act(async () => overlayActions.retry());
    await waitFor(() => expect(within(lastResult()).getByRole('status')).toHaveTextContent(/the error was over, Retry succeeded\./));
    expect(overlayStore.getSnapshot().error).toBeNull();
  });

  it('a network failure and a timeout show Request Failed with the client’s codes', async () => {
    const { fetchMock } = setup({
      'GET /api/staff/playground/network': () => Promise.reject(new TypeError('fetch failed')),
      'GET /api/staff/playground/timeout': (_url: URL, init: RequestInit | undefined) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Drop the connection' }));
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'failed', detail: '0 - 0', message: expect.stringMatching(/Could not reach Tickety/) }));
    await act(async () => overlayActions.cancel());
    await waitFor(() => expect(overlayStore.getSnapshot().error).toBeNull());
    expect(urlsOf(fetchMock.mock.calls).at(-1)!.pathname).toBe('/api/staff/playground/network');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Time out after 5 s (shortened for this request)' }));
    expect(urlsOf(fetchMock.mock.calls).at(-1)!.search).toBe('?ms=15000');
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ kind: 'failed', detail: '408 - 0', message: expect.stringMatching(/within 5 seconds/) }));
    await act(async () => overlayActions.cancel());
    await act(async () => {
      vi.advanceTimersByTime(300);
    });
    await waitFor(() => expect(overlayStore.getSnapshot().error).toBeNull());

    // The real timeout: the API holds 65 s, the client keeps its own 60 s.
    await user.click(screen.getByRole('button', { name: 'Time out after 60 s (the client\'s real timeout)' }));
    expect(urlsOf(fetchMock.mock.calls).at(-1)!.search).toBe('?ms=65000');
    await act(async () => {
      vi.advanceTimersByTime(59_000);
    });
    expect(overlayStore.getSnapshot().error).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    await waitFor(() => expect(overlayStore.getSnapshot().error).toMatchObject({ detail: '408 - 0', message: expect.stringMatching(/within 60 seconds/) }));
  });

  it('says so in place when the catalogue cannot be loaded, and tries again', async () => {
    let fail = true;
    setup({ 'GET /api/staff/playground': () => (fail ? apiError(503, 1009, ERROR_CODES.DATABASE_UNAVAILABLE.message) : json(INDEX)) });
    expect(await screen.findByText('The error catalogue could not be loaded.')).toBeInTheDocument();
    expect(overlayStore.getSnapshot().error).toBeNull();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: '1001 HTTP 400: answer VALIDATION_FAILED' })).toBeInTheDocument();
  });
});

import { getApiOrigin, getNavigate } from '../config';
import { OVERLAY } from '../constants';
import { ApiRequestError, isApiError, MESSAGES, parseRetryAfter, toOverlayErrorView } from './errors';
import { type OverlayButtons, type OverlayErrorView, setOverlayState } from './overlay-store';

export type RequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Path on the API origin, starting with '/': '/api/auth/@me'. */
  path: string;
  method?: RequestMethod;
  /** JSON body of a mutation (ignored on GET). A mutation without one sends `{}`. */
  body?: unknown;
  /** Query string values; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
  /** Default OVERLAY.timeoutMs (60 s). */
  timeoutMs?: number;
  /** Default true. False: a silent background request; no overlay, errors are simply thrown. */
  overlay?: boolean;
  /** Which error-overlay buttons to show (defaults per row of docs/behaviour.md#request-overlay-and-error-catalogue, see toOverlayErrorView). */
  buttons?: Partial<OverlayButtons>;
  /** Aborting rejects the request with kind 'cancelled' (and takes it off the overlay). */
  signal?: AbortSignal;
  /**
   * A GET that changes state (logout stays a GET, docs/behaviour.md#sign-in-sign-out-and-the-user-cache):
   * sends `x-requested-with: tickety`, which another site's page cannot send (from another origin it
   * needs a CORS preflight only dashboard origins pass), so the API acts on it even when the browser
   * sends no Origin or Fetch Metadata.
   */
  fromDashboard?: boolean;
  /**
   * The answer may come as gzipped JSON (`application/gzip`, e.g. a stored transcript): the client
   * asks for it where the browser has DecompressionStream and inflates it in the page, so a large
   * body crosses from the network process compressed. Errors stay plain JSON.
   */
  gzip?: boolean;
}

/**
 * Gzipped JSON inflated in the page (DecompressionStream), as text: the browser collects the inflated
 * bytes and decodes them once (a string joined chunk by chunk in script costs a large body twice its
 * parse time in copies and garbage).
 */
async function inflatedText(res: Response): Promise<string> {
  if (!res.body) return '';
  return new Response(res.body.pipeThrough(new DecompressionStream('gzip'))).text();
}

/** Builds `apiOrigin + path (+ query)`. */
export function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!path.startsWith('/')) throw new Error(`request: path must start with '/' (got "${path}").`);
  let url = getApiOrigin() + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (path.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

function cancelledError(cause?: unknown): ApiRequestError {
  return new ApiRequestError('cancelled', MESSAGES.cancelled(), { cause });
}

/**
 * One HTTP exchange, no overlay: credentials included, JSON accepted; mutations carry
 * `content-type: application/json` and `x-requested-with: tickety` (the API's CSRF check). The timeout
 * aborts the fetch and the body read. Resolves with the parsed JSON (undefined for an empty body);
 * rejects with ApiRequestError only (or a plain Error for a programming mistake such as no configuration).
 */
export async function sendOnce(options: RequestOptions): Promise<unknown> {
  const method = options.method ?? 'GET';
  const timeoutMs = options.timeoutMs ?? OVERLAY.timeoutMs;
  const url = buildUrl(options.path, options.query);
  if (options.signal?.aborted) throw cancelledError(options.signal.reason);

  const headers: Record<string, string> = { accept: options.gzip && typeof DecompressionStream === 'function' ? 'application/gzip, application/json;q=0.9' : 'application/json' };
  let body: string | undefined;
  if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    headers['x-requested-with'] = 'tickety';
    body = JSON.stringify(options.body ?? {});
  } else if (options.fromDashboard) headers['x-requested-with'] = 'tickety';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const failure = (cause: unknown): ApiRequestError => {
    if (timedOut) return new ApiRequestError('timeout', MESSAGES.timeout(timeoutMs), { cause });
    if (options.signal?.aborted) return cancelledError(cause);
    return new ApiRequestError('network', MESSAGES.network(), { cause });
  };

  try {
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method, headers, body, credentials: 'include', signal: controller.signal });
      text = res.ok && res.headers.get('content-type')?.startsWith('application/gzip') ? await inflatedText(res) : await res.text();
    } catch (cause) {
      throw failure(cause);
    }
    let data: unknown;
    let readable = true;
    if (text !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        readable = false;
      }
    }
    if (res.ok) {
      if (!readable) throw new ApiRequestError('http', MESSAGES.notJson(), { status: res.status });
      return data;
    }
    const apiBody = readable && isApiError(data) ? data : null;
    throw new ApiRequestError('http', apiBody?.message ?? MESSAGES.http(res.status), {
      status: res.status,
      body: apiBody,
      retryAfter: parseRetryAfter(res.headers.get('retry-after')),
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/* ------------------------------------------------------------------------------------------------
 * The overlay queue.
 *
 * Rule: failed overlay requests wait in one queue, in the order they failed, and the error overlay
 * shows the oldest one. A button acts on the shown request only: the overlay closes at once and the
 * action takes effect after OVERLAY.actionDelayMs, then the next queued error (if any) is shown.
 * Home and Select Another Server leave the page, so they also cancel every other queued request;
 * a successful login re-sends every request waiting for login. A retried request that fails again
 * joins the back of the queue.
 * ---------------------------------------------------------------------------------------------- */

interface Entry {
  options: RequestOptions;
  /** Retries the user asked for so far. */
  attempt: number;
  view: OverlayErrorView | null;
  done: boolean;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  detach: () => void;
}

let queue: Entry[] = [];
/** An action's delay is running: nothing is shown until it ends. */
let transitioning = false;
let visibleLoads = 0;
/** Bumped by resetClientState so stale timers and trackers of a previous run are ignored. */
let generation = 0;
const timers = new Set<ReturnType<typeof setTimeout>>();

function afterDelayUnlessReset(ms: number, fn: () => void): void {
  const gen = generation;
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (gen === generation) fn();
  }, ms);
  timers.add(timer);
}

function publishError(): void {
  const shown = transitioning ? undefined : queue[0];
  setOverlayState({ error: shown?.view ?? null });
}

/** Starts the loading overlay's clock for one attempt; returns its stop function. */
function trackLoading(): () => void {
  const gen = generation;
  let visible = false;
  const timer = setTimeout(() => {
    if (gen !== generation) return;
    visible = true;
    visibleLoads += 1;
    setOverlayState({ loading: true });
  }, OVERLAY.loadingDelayMs);
  return () => {
    clearTimeout(timer);
    if (!visible || gen !== generation) return;
    visibleLoads -= 1;
    setOverlayState({ loading: visibleLoads > 0 });
  };
}

function settle(entry: Entry, outcome: { value: unknown } | { error: unknown }): void {
  if (entry.done) return;
  entry.done = true;
  entry.detach();
  if ('value' in outcome) entry.resolve(outcome.value);
  else entry.reject(outcome.error);
}

function removeFromQueue(entry: Entry): boolean {
  const position = queue.indexOf(entry);
  if (position === -1) return false;
  queue.splice(position, 1);
  return true;
}

function send(entry: Entry): void {
  if (entry.done) return;
  const stop = trackLoading();
  sendOnce(entry.options).then(
    (value) => {
      stop();
      settle(entry, { value });
    },
    (error: unknown) => {
      stop();
      if (entry.done) return;
      if (!(error instanceof ApiRequestError) || error.kind === 'cancelled') {
        settle(entry, { error });
        return;
      }
      entry.view = toOverlayErrorView(error, entry.options.buttons, entry.attempt);
      queue.push(entry);
      publishError();
    },
  );
}

/**
 * The one way to call the API. With the overlay (default) the promise stays pending while the error
 * overlay waits for the user, and settles with the outcome of the last attempt or the user's choice.
 */
export function request<T>(options: RequestOptions): Promise<T> {
  if (options.overlay === false) return sendOnce(options) as Promise<T>;
  return new Promise<T>((resolve, reject) => {
    const entry: Entry = {
      options: options,
      attempt: 0,
      view: null,
      done: false,
      resolve: resolve as (value: unknown) => void,
      reject,
      detach: () => {},
    };
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) {
        reject(cancelledError(signal.reason));
        return;
      }
      const onAbort = (): void => {
        if (removeFromQueue(entry)) publishError();
        settle(entry, { error: cancelledError(signal.reason) });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.detach = () => signal.removeEventListener('abort', onAbort);
    }
    send(entry);
  });
}

function shownEntry(): Entry | undefined {
  return transitioning ? undefined : queue[0];
}

/** Closes the overlay now, runs `effect` after `delay`, then shows the next queued error. */
function closeThenAfterDelay(entry: Entry, delay: number, effect: () => void): void {
  removeFromQueue(entry);
  transitioning = true;
  publishError();
  afterDelayUnlessReset(delay, () => {
    transitioning = false;
    effect();
    publishError();
  });
}

function cancelQueued(): void {
  const waiting = queue;
  queue = [];
  for (const e of waiting) settle(e, { error: cancelledError() });
}

/** Retry: re-sends the shown request after OVERLAY.actionDelayMs; past OVERLAY.retryLimit it gives up and goes Home. */
export function retryShown(): void {
  const entry = shownEntry();
  if (!entry?.view?.buttons.retry) return;
  if (entry.attempt >= OVERLAY.retryLimit) {
    removeFromQueue(entry);
    settle(entry, { error: new ApiRequestError('retryLimit', MESSAGES.retryLimit()) });
    closeThenAfterDelay(entry, OVERLAY.retryLimitDelayMs, () => {
      getNavigate()('/');
      cancelQueued();
    });
    return;
  }
  closeThenAfterDelay(entry, OVERLAY.actionDelayMs, () => {
    entry.attempt += 1;
    send(entry);
  });
}

function leaveTo(path: string, button: 'home' | 'selectServer'): void {
  const entry = shownEntry();
  if (!entry?.view?.buttons[button]) return;
  closeThenAfterDelay(entry, OVERLAY.actionDelayMs, () => {
    getNavigate()(path);
    settle(entry, { error: cancelledError() });
    cancelQueued();
  });
}

/** Home: closes, goes to '/', rejects the shown request (and the queued ones) as cancelled. */
export function homeShown(): void {
  leaveTo('/', 'home');
}

/** Select Another Server: closes, goes to '/dashboard', rejects as Home does. */
export function selectServerShown(): void {
  leaveTo('/dashboard', 'selectServer');
}

/** Cancel: closes and rejects the shown request as cancelled. */
export function cancelShown(): void {
  const entry = shownEntry();
  if (!entry?.view?.buttons.cancel) return;
  closeThenAfterDelay(entry, OVERLAY.actionDelayMs, () => {
    settle(entry, { error: cancelledError() });
  });
}

/** After a successful login: re-sends every request that was waiting for one. */
export function resendAfterLogin(): void {
  const waiting = queue.filter((e) => e.view?.kind === 'login');
  if (waiting.length === 0) return;
  queue = queue.filter((e) => e.view?.kind !== 'login');
  publishError();
  for (const e of waiting) send(e);
}

/** Tests only: drops the queue, timers and overlay state (pending promises are left unsettled). */
export function resetClientState(): void {
  generation += 1;
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  for (const e of queue) e.detach();
  queue = [];
  transitioning = false;
  visibleLoads = 0;
  setOverlayState({ loading: false, error: null });
}

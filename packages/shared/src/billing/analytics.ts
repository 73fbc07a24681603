/**
 * The subscription-analytics script in the browser (ProfitWell, now Paddle's ProfitWell Metrics /
 * Retain), started with the Tickety user id (docs/behaviour.md) once a user is signed in and the
 * browser is idle, never for a visitor or without a token. ProfitWell's `window.profitwell(...)`
 * queues its calls (`profitwell.q`) until `profitwell.js` has loaded and replays them, so a script
 * that fails to load changes nothing. Why the user id and not a billing customer id, and the script tag's shape:
 * docs/api.md, `analyticsToken`, `analyticsScriptUrl`. In demo mode the script is the sandbox's stand-in.
 */

/** ProfitWell's global: a function queueing its calls (`q`) until the script replaces it. */
export type ProfitwellFunction = ((...args: unknown[]) => void) & { q?: unknown[][] };

declare global {
  interface Window {
    profitwell?: ProfitwellFunction;
  }
}

export interface AnalyticsSettings {
  analyticsToken: string | null;
  /** Absent in a config.json written before the setting existed: no analytics then. */
  analyticsScriptUrl?: string | null;
}

/** What `scheduleAnalytics` reads of the store: the signed-in user's id. */
export interface AnalyticsStore {
  getState(): { auth: { user: { id: string } | null } };
  subscribe(listener: () => void): () => void;
}

/** The script element's id (ProfitWell's snippet reads `data-pw-auth` from it). */
export const PROFITWELL_SCRIPT_ID = 'profitwell-js';

let injected: HTMLScriptElement | null = null;
let failureReported = false;

/** `window.profitwell`, defined as ProfitWell's queueing stub when the script has not defined it yet. */
function profitwell(): ProfitwellFunction {
  if (typeof window.profitwell === 'function') return window.profitwell;
  const queue: ProfitwellFunction = (...args: unknown[]) => {
    queue.q ??= [];
    queue.q.push(args);
  };
  window.profitwell = queue;
  return queue;
}

/** Adds the script tag once per page (never again, even after a failure: the calls just stay queued). */
function injectScript(token: string, scriptUrl: string): void {
  if (injected || document.getElementById(PROFITWELL_SCRIPT_ID)) return;
  const script = document.createElement('script');
  const src = new URL(scriptUrl, window.location.href);
  src.searchParams.set('auth', token);
  script.id = PROFITWELL_SCRIPT_ID;
  script.async = true;
  script.setAttribute('data-pw-auth', token);
  script.src = src.href;
  script.addEventListener('error', () => {
    if (failureReported) return;
    failureReported = true;
    console.warn(`The subscription-analytics script could not be loaded (${src.origin}${src.pathname}); the page works on without it.`);
  });
  injected = script;
  document.head.append(script);
}

/**
 * At start-up: starts the analytics script with the signed-in user's id when the browser is idle (at
 * most `timeoutMs` later), and again for each different user who signs in. Nothing for visitors or
 * without a token. Answers the unsubscribe.
 */
export function scheduleAnalytics(store: AnalyticsStore, settings: AnalyticsSettings, timeoutMs = 5000): () => void {
  const token = settings.analyticsToken;
  const scriptUrl = settings.analyticsScriptUrl;
  if (!token || !scriptUrl || typeof window === 'undefined') return () => undefined;
  const userId = () => store.getState().auth.user?.id ?? null;
  let started: string | null = null;
  let pending = false;
  let stopped = false;

  const run = () => {
    pending = false;
    const id = userId();
    // Signed out (or the same user again) meanwhile: nothing to start.
    if (stopped || id === null || id === started) return;
    started = id;
    try {
      const pw = profitwell();
      injectScript(token, scriptUrl);
      pw('start', { user_id: id });
    } catch (error) {
      // Analytics never break the page.
      console.warn('The subscription-analytics script could not be started.', error);
    }
  };
  const check = () => {
    const id = userId();
    if (pending || id === null || id === started) return;
    pending = true;
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: timeoutMs });
    else setTimeout(run, Math.min(timeoutMs, 2000));
  };
  check();
  const unsubscribe = store.subscribe(check);
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** Forgets the script and the queue (tests). */
export function resetAnalytics(): void {
  injected?.remove();
  injected = null;
  failureReported = false;
  delete window.profitwell;
}

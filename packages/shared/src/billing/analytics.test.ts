import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnalyticsStore, PROFITWELL_SCRIPT_ID, resetAnalytics, scheduleAnalytics } from './analytics';

const SETTINGS = { analyticsToken: 'pk_public', analyticsScriptUrl: 'https://public.profitwell.test/js/profitwell.js' };
const AVA = '1000000000000000001';
const BEN = '1000000000000000002';

/** Just the store's auth user, changed by the test (sign-in, sign-out). */
function fakeStore(userId: string | null) {
  let user = userId === null ? null : { id: userId };
  const listeners = new Set<() => void>();
  const store: AnalyticsStore & { signIn(id: string | null): void } = {
    getState: () => ({ auth: { user } }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(id) {
      user = id === null ? null : { id };
      for (const l of listeners) l();
    },
  };
  return store;
}

/** requestIdleCallback held by the test: nothing runs until `idle()`. */
let idleCallbacks: Array<() => void> = [];
function idle() {
  const due = idleCallbacks;
  idleCallbacks = [];
  for (const cb of due) cb();
}
const scripts = () => [...document.querySelectorAll<HTMLScriptElement>(`script#${PROFITWELL_SCRIPT_ID}`)];
const queued = () => window.profitwell?.q ?? [];

let stop: () => void = () => undefined;
beforeEach(() => {
  idleCallbacks = [];
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => {
    idleCallbacks.push(cb);
    return idleCallbacks.length;
  });
});
afterEach(() => {
  stop();
  resetAnalytics();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('scheduleAnalytics', () => {
  it('loads nothing for a visitor: no script, no profitwell global', () => {
    const store = fakeStore(null);
    stop = scheduleAnalytics(store, SETTINGS);
    idle();
    expect(idleCallbacks).toHaveLength(0);
    expect(scripts()).toHaveLength(0);
    expect(window.profitwell).toBeUndefined();
  });

  it('loads nothing without a token or a script URL, even for a signed-in user', () => {
    for (const settings of [
      { analyticsToken: null, analyticsScriptUrl: SETTINGS.analyticsScriptUrl },
      { analyticsToken: 'pk_public', analyticsScriptUrl: null },
      { analyticsToken: 'pk_public' },
    ]) {
      const store = fakeStore(AVA);
      stop = scheduleAnalytics(store, settings);
      store.signIn(BEN);
      idle();
      stop();
    }
    expect(scripts()).toHaveLength(0);
    expect(window.profitwell).toBeUndefined();
  });

  it('waits for the browser to be idle, then loads the script once and starts it with the user id', () => {
    const store = fakeStore(AVA);
    stop = scheduleAnalytics(store, SETTINGS);
    // Never before the first page is done.
    expect(scripts()).toHaveLength(0);
    expect(window.profitwell).toBeUndefined();
    idle();
    const [script, ...more] = scripts();
    expect(more).toHaveLength(0);
    expect(script?.getAttribute('data-pw-auth')).toBe('pk_public');
    expect(script?.src).toBe('https://public.profitwell.test/js/profitwell.js?auth=pk_public');
    expect(script?.async).toBe(true);
    expect(queued()).toEqual([['start', { user_id: AVA }]]);
    // Store updates for the same user start nothing more.
    store.signIn(AVA);
    idle();
    expect(scripts()).toHaveLength(1);
    expect(queued()).toHaveLength(1);
  });

  it('starts when a user signs in later (a visitor who signs in)', () => {
    const store = fakeStore(null);
    stop = scheduleAnalytics(store, SETTINGS);
    store.signIn(AVA);
    expect(scripts()).toHaveLength(0);
    idle();
    expect(scripts()).toHaveLength(1);
    expect(queued()).toEqual([['start', { user_id: AVA }]]);
  });

  it('queues every call made before the script has loaded, in order, for the script to replay', () => {
    const store = fakeStore(AVA);
    stop = scheduleAnalytics(store, SETTINGS);
    idle();
    window.profitwell?.('cq_dismiss');
    expect(queued()).toEqual([['start', { user_id: AVA }], ['cq_dismiss']]);
    // Once the script has replaced the stub, calls go to it directly.
    const calls: unknown[][] = [];
    const real = (...args: unknown[]) => void calls.push(args);
    window.profitwell = real;
    store.signIn(BEN);
    idle();
    expect(calls).toEqual([['start', { user_id: BEN }]]);
    expect(scripts()).toHaveLength(1);
  });

  it('starts again with the new id when another user signs in after a sign-out; never while signed out', () => {
    const store = fakeStore(AVA);
    stop = scheduleAnalytics(store, SETTINGS);
    idle();
    store.signIn(null);
    idle();
    expect(queued()).toEqual([['start', { user_id: AVA }]]);
    store.signIn(BEN);
    idle();
    expect(queued()).toEqual([['start', { user_id: AVA }], ['start', { user_id: BEN }]]);
    expect(scripts()).toHaveLength(1);
  });

  it('starts nothing for a user who signed out before the browser was idle', () => {
    const store = fakeStore(AVA);
    stop = scheduleAnalytics(store, SETTINGS);
    store.signIn(null);
    idle();
    expect(scripts()).toHaveLength(0);
    expect(window.profitwell).toBeUndefined();
  });

  it('reports a script that fails to load once, and the page carries on (later starts only queue)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = fakeStore(AVA);
    stop = scheduleAnalytics(store, SETTINGS);
    idle();
    const [script] = scripts();
    expect(() => {
      script?.dispatchEvent(new Event('error'));
      script?.dispatchEvent(new Event('error'));
    }).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/could not be loaded \(https:\/\/public\.profitwell\.test\/js\/profitwell\.js\)/);
    // The token is public, but the log names the script without it.
    expect(String(warn.mock.calls[0]?.[0])).not.toContain('pk_public');
    store.signIn(BEN);
    expect(() => idle()).not.toThrow();
    expect(scripts()).toHaveLength(1);
    expect(queued()).toEqual([['start', { user_id: AVA }], ['start', { user_id: BEN }]]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('falls back to a timer where requestIdleCallback is missing', () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal('requestIdleCallback', undefined);
      // `in window` must be false, not merely undefined.
      delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
      const store = fakeStore(AVA);
      stop = scheduleAnalytics(store, SETTINGS, 1000);
      expect(scripts()).toHaveLength(0);
      vi.advanceTimersByTime(1000);
      expect(queued()).toEqual([['start', { user_id: AVA }]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops watching when unsubscribed', () => {
    const store = fakeStore(null);
    scheduleAnalytics(store, SETTINGS)();
    store.signIn(AVA);
    idle();
    expect(scripts()).toHaveLength(0);
  });
});

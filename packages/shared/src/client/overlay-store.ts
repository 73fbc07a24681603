import { useSyncExternalStore } from 'react';

/** Which of the error overlay's buttons are shown. */
export interface OverlayButtons {
  home: boolean;
  retry: boolean;
  cancel: boolean;
  selectServer: boolean;
}

/** What the shell's overlay host renders for the error shown (docs/behaviour.md#request-overlay-and-error-catalogue). */
export interface OverlayErrorView {
  kind: 'login' | 'noAccess' | 'failed';
  title: string;
  message: string;
  /** '<code> - <http status>' for 'failed', else null. */
  detail: string | null;
  buttons: OverlayButtons;
  /** Retries the user already asked for on this request (0 on the first failure). */
  attempt: number;
}

export interface OverlayState {
  /** True while at least one overlay request has been pending for `OVERLAY.loadingDelayMs` or more. */
  loading: boolean;
  /** The error shown, or null. Only one at a time; others wait in the request client's queue. */
  error: OverlayErrorView | null;
}

/**
 * Outside Redux on purpose: the queue behind it holds promises' resolve/reject, retry closures and
 * abort controllers, which are not serialisable. Snapshots are immutable (a new object per change),
 * as useSyncExternalStore requires.
 */
const IDLE: OverlayState = Object.freeze({ loading: false, error: null });
let snapshot: OverlayState = IDLE;
const listeners = new Set<() => void>();

export const overlayStore = {
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  },
  getSnapshot(): OverlayState {
    return snapshot;
  },
};

/** Internal (request client): replaces parts of the snapshot and notifies subscribers when something changed. */
export function setOverlayState(patch: Partial<OverlayState>): void {
  const next: OverlayState = { ...snapshot, ...patch };
  if (next.loading === snapshot.loading && next.error === snapshot.error) return;
  snapshot = next.loading === false && next.error === null ? IDLE : Object.freeze(next);
  for (const fn of [...listeners]) fn();
}

/** The overlay's state in a component (the shell's overlay host). */
export function useOverlayState(): OverlayState {
  return useSyncExternalStore(overlayStore.subscribe, overlayStore.getSnapshot, overlayStore.getSnapshot);
}

/**
 * What the banner (announcements.tsx) and the boot script (boot/boot.ts) share about notices: the
 * dismissals this browser keeps, and when a page first reads the notices. No React and no imports
 * that bring code: the boot script is inlined into every page (a type import only).
 */
import type { PublicAnnouncement } from '@tickety/api-contract';

/** localStorage: the notices this browser dismissed, as `id:revision` (a changed text shows again). */
export const DISMISSED_KEY = 'tickety-dismissed-announcements';
/** The dismissals kept (the oldest are forgotten first; a notice ends long before). */
export const DISMISSED_MAX = 50;
/** The first read waits for the browser to be idle, at most this long. */
export const ANNOUNCEMENTS_IDLE_TIMEOUT_MS = 4_000;

export const dismissalKey = (notice: Pick<PublicAnnouncement, 'id' | 'revision'>) => `${notice.id}:${notice.revision}`;

/** The dismissals stored in this browser (none when storage is refused or holds something else). */
export function readDismissed(win: Window = window): string[] {
  try {
    const value: unknown = JSON.parse(win.localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(-DISMISSED_MAX) : [];
  } catch {
    return [];
  }
}

/** Runs `task` once the browser is idle (at most `timeoutMs` later); answers the cancel. Like schedulePaddle. */
export function whenIdle(task: () => void, timeoutMs = ANNOUNCEMENTS_IDLE_TIMEOUT_MS, win: Window = window): () => void {
  if (typeof win.requestIdleCallback === 'function') {
    const handle = win.requestIdleCallback(task, { timeout: timeoutMs });
    return () => win.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, Math.min(timeoutMs, 2_000));
  return () => clearTimeout(timer);
}

import type { PublicAnnouncement, PublicAnnouncementsAnswer } from '@tickety/api-contract';
import { type RouteHandle, request, useAppSelector, useMatches } from '@tickety/shared';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { DISMISSED_KEY, DISMISSED_MAX, dismissalKey, readDismissed, whenIdle } from './dismissals';

/**
 * The banner reads the notices again this often while the page is visible. With the answer's own
 * 30 s cache (the API's Cache-Control), a withdrawn notice is gone within a minute.
 */
export const ANNOUNCEMENTS_REFRESH_MS = 30_000;

// The banner's code (the markdown renderer, the styles) is fetched only when there is a notice to show.
const AnnouncementBanner = lazy(() => import('./announcement-banner'));

function writeDismissed(keys: string[]): void {
  try {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(keys.slice(-DISMISSED_MAX)));
  } catch {
    // Storage refused (private mode): dismissed for this page only.
  }
}

/**
 * The shell's announcement banner on every page of every layout (mounted once, beside the overlay
 * host). It never holds up a page: nothing is read until the browser is idle after the page is shown,
 * the request is a silent background one (no overlay; a failure keeps what was shown), and the
 * banner itself is a fixed region over the page, so nothing on the page moves when it appears.
 * Read again every 30 s while the page is visible, when it becomes visible again, and when the
 * signed-in user changes (the audience is the API's to decide, from the session). Not on the
 * display layout: those pages are embedded in other sites (no chrome at all).
 */
export function AnnouncementHost() {
  const embedded = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.layout === 'display');
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  const [notices, setNotices] = useState<PublicAnnouncement[]>([]);
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);
  const [now, setNow] = useState(() => Date.now());

  const load = useCallback(async (signal: AbortSignal) => {
    try {
      const answer = await request<PublicAnnouncementsAnswer>({ path: '/api/announcements', overlay: false, signal, timeoutMs: 15_000 });
      if (!signal.aborted && Array.isArray(answer?.announcements)) setNotices(answer.announcements);
    } catch {
      // Offline, the API busy: the banner keeps what it shows and tries at the next read.
    }
    if (!signal.aborted) setNow(Date.now());
  }, []);

  // `userId` is the trigger: another user (or none) may see other notices.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (embedded) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelIdle: (() => void) | undefined;
    const schedule = (delay: number) => {
      clearTimeout(timer);
      timer = setTimeout(read, delay);
    };
    const read = () => {
      if (document.visibilityState === 'hidden') return;
      void load(controller.signal).finally(() => {
        if (!controller.signal.aborted) schedule(ANNOUNCEMENTS_REFRESH_MS);
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        clearTimeout(timer);
        read();
      }
    };
    cancelIdle = whenIdle(read);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      cancelIdle?.();
      cancelIdle = undefined;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [embedded, load, userId]);

  // Dismissed in another tab: gone here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === DISMISSED_KEY) setDismissed(readDismissed());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // A notice whose end comes before the next read leaves at its end.
  const nextEnd = useMemo(() => {
    const ends = notices.map((n) => (n.endsAt ? Date.parse(n.endsAt) : Number.NaN)).filter((ms) => Number.isFinite(ms) && ms > now);
    return ends.length > 0 ? Math.min(...ends) : null;
  }, [notices, now]);
  useEffect(() => {
    if (nextEnd === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, nextEnd - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [nextEnd]);

  const shown = useMemo(() => {
    const hidden = new Set(dismissed);
    return notices.filter((n) => !hidden.has(dismissalKey(n)) && (n.endsAt === null || Date.parse(n.endsAt) > now));
  }, [notices, dismissed, now]);

  const dismiss = useCallback((notice: PublicAnnouncement) => {
    const key = dismissalKey(notice);
    setDismissed((current) => {
      // The stored list read again (another tab may have added to it), with this page's own.
      const next = [...new Set([...readDismissed(), ...current])].filter((k) => k !== key).concat(key).slice(-DISMISSED_MAX);
      writeDismissed(next);
      return next;
    });
  }, []);

  if (embedded || shown.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <AnnouncementBanner notices={shown} onDismiss={dismiss} />
    </Suspense>
  );
}

/**
 * The shell's first script: inlined at the top of index.html by the build (build-config's
 * BootScriptPlugin), before any stylesheet, so it runs before the first paint. No React, no imports
 * that bring code (~1.6 KB gzip once minified). It sets the colour scheme, decides when the app
 * starts (a prerendered page waits for the visitor's first reach, a signed-in user, a busy page or
 * another language start it at once), keeps a press on Login or the menu for the app, and starts it
 * once idle for an undismissed notice (marked on the page by the server, else read). Why each:
 * docs/architecture.md, "The boot script" and "Announcements on a prerendered page".
 */
import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, pickLocale } from '@tickety/api-contract/locales';
import { ANNOUNCEMENTS_IDLE_TIMEOUT_MS, dismissalKey, readDismissed, whenIdle } from '../announcements/dismissals';
import { SCHEME_EVENT, THEME_STORAGE_KEY } from '../theme/theme';

/** localStorage: set while this browser has a signed-in user (app/start.tsx keeps it), so a public page starts the app at once. */
export const SIGNED_IN_HINT_KEY = 'tickety-signed-in';

/** Controls that need the app (links work without it). */
export const NEEDS_APP = 'button, [role="button"], input, select, textarea, summary, label';

/** Marks the theme toggle, which works before the app is in. */
export const THEME_TOGGLE_ATTR = 'data-theme-toggle';

/** What the visitor does that starts the app on a prerendered page. */
export const START_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

export interface BootOptions {
  /** The app's entry scripts, in order. */
  scripts: string[];
  /** Chunks every start needs: preloaded with the entry, so they download in parallel with it. */
  preload: string[];
}

/** The presses kept for the app, shared with app/takeover.ts. */
export interface BootState {
  started: boolean;
  pressed: Element[];
}

declare global {
  interface Window {
    __tickety?: BootState;
  }
}

function clean(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // as it is
  }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
}

/**
 * Whether #root holds a page prerendered for this very address (`data-prerendered` names it). A page
 * served for another address or for any (a static host's 404.html for an address it does not know,
 * marked "*") is only a stand-in: the app starts at once and renders over it.
 */
export function isPrerenderedHere(root: Element | null, location: Location): boolean {
  const at = root?.getAttribute('data-prerendered');
  if (at === null || at === undefined) return false;
  return at === '' || clean(at) === clean(location.pathname);
}

function stored(win: Window): string | null {
  try {
    return win.localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    return null;
  }
}

function setScheme(doc: Document, dark: boolean): void {
  doc.documentElement.classList.toggle('dark', dark);
  doc.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

/**
 * Whether the prerendered page is in another language than the reader's (a static host serves
 * English; the server's guess from Accept-Language can differ from a pick made in this browser).
 */
export function inOtherLanguage(doc: Document, win: Window): boolean {
  let picked: string | null = null;
  try {
    picked = win.localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // no storage: the browser's languages decide
  }
  const nav = win.navigator;
  const wanted = pickLocale(picked, [...(nav?.languages ?? []), nav?.language ?? ''].filter(Boolean));
  return wanted !== (doc.documentElement.lang || DEFAULT_LOCALE);
}

/** A signed-in user was here last time (a hint only: the app asks the API). */
function wasSignedIn(win: Window): boolean {
  try {
    return win.localStorage.getItem(SIGNED_IN_HINT_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether an active notice is one this browser has not dismissed (the banner would show it). The
 * API's origin is config.json's `apiOrigin`, as for the app (a static host's API is elsewhere); the
 * notices are the caller's, with its cookies, as the banner reads them. Any failure answers false.
 */
export async function undismissedNotice(win: Window = window): Promise<boolean> {
  const read = async (url: string, init: RequestInit) => {
    const res = await win.fetch(url, init);
    if (!res.ok) throw new Error(url);
    return res.json();
  };
  try {
    const config: { apiOrigin: string } = await read('/config.json', { cache: 'no-cache' });
    const answer: { announcements: Array<{ id: string; revision: number }> } = await read(`${config.apiOrigin}/api/announcements`, { credentials: 'include' });
    const dismissed = readDismissed(win);
    return answer.announcements.some((notice) => !dismissed.includes(dismissalKey(notice)));
  } catch {
    return false;
  }
}

/** Whether `marked` (a page's `data-notices`: `id:revision` keys, space-separated) holds one not in `dismissed`. */
export function hasUndismissed(marked: string, dismissed: readonly string[]): boolean {
  return marked.split(' ').some((key) => key !== '' && !dismissed.includes(key));
}

/** Runs `task` once the page has loaded (its images too) and the browser is then idle. */
function afterLoadAndIdle(task: () => void, doc: Document, win: Window): void {
  const idle = () => whenIdle(task, ANNOUNCEMENTS_IDLE_TIMEOUT_MS, win);
  if (doc.readyState === 'complete') idle();
  else win.addEventListener('load', idle, { once: true });
}

/**
 * Keeps presses on `root`'s controls that need the app in `pressed` (the default action is
 * prevented: the app performs it). The theme toggle is handled here instead.
 */
export function keepPresses(root: Element, pressed: Element[], doc: Document = document, win: Window = window): () => void {
  const onClick = (event: Event) => {
    const target = event.target as Element | null;
    const toggle = target?.closest?.(`[${THEME_TOGGLE_ATTR}]`);
    if (toggle && root.contains(toggle)) {
      event.preventDefault();
      const dark = !doc.documentElement.classList.contains('dark');
      try {
        win.localStorage.setItem(THEME_STORAGE_KEY, dark ? 'dark' : 'light');
      } catch {
        // Storage refused (private mode): the pick lasts for this page.
      }
      setScheme(doc, dark);
      // The app, if it is rendering beside this page already, follows (theme/theme.ts).
      win.dispatchEvent(new Event(SCHEME_EVENT));
      return;
    }
    const control = target?.closest?.(NEEDS_APP);
    if (!control || !root.contains(control)) return;
    event.preventDefault();
    pressed.push(control);
  };
  root.addEventListener('click', onClick, true);
  return () => root.removeEventListener('click', onClick, true);
}

export function boot(options: BootOptions, doc: Document = document, win: Window = window): BootState {
  const pick = stored(win);
  setScheme(doc, pick === 'dark' || (pick !== 'light' && typeof win.matchMedia === 'function' && win.matchMedia('(prefers-color-scheme: dark)').matches));

  const state: BootState = { started: false, pressed: [] };
  win.__tickety = state;

  const start = () => {
    if (state.started) return;
    state.started = true;
    for (const type of START_EVENTS) win.removeEventListener(type, start, true);
    for (const href of options.preload) {
      const link = doc.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = href;
      doc.head.appendChild(link);
    }
    for (const src of options.scripts) {
      const script = doc.createElement('script');
      script.src = src;
      // In order, like the deferred scripts they replace.
      script.async = false;
      doc.head.appendChild(script);
    }
  };

  const decide = () => {
    const root = doc.getElementById('root');
    if (!root || !isPrerenderedHere(root, win.location)) return start();
    keepPresses(root, state.pressed, doc, win);
    // The server saw a session (data-start), or this browser had a signed-in user last time; or the
    // page is still loading something (its plans, the status, a document: aria-busy) that only the
    // app can fetch; or it is in another language than the reader's (the app renders theirs).
    if (root.hasAttribute('data-start') || wasSignedIn(win) || root.querySelector('[aria-busy="true"]') || inOtherLanguage(doc, win)) return start();
    for (const type of START_EVENTS) win.addEventListener(type, start, { capture: true, passive: true });
    // A page whose data the server put in and that changes while it is open (the status: data-refresh)
    // starts the app after its first paint, once loaded and idle, to refresh it in place.
    if (root.hasAttribute('data-refresh')) afterLoadAndIdle(start, doc, win);
    // A notice to show starts the app (its banner), once the page is in and the browser is idle. Not
    // on a page without the site's header: the display layout, embedded in other sites, shows none.
    if (!root.querySelector('header')) return;
    const known = root.getAttribute('data-notices');
    // The server marked the visitor's notices on the page: nothing to fetch, and nothing to schedule
    // when there is none to show. A static host cannot: the notices are read once idle.
    if (known !== null) {
      if (hasUndismissed(known, readDismissed(win))) afterLoadAndIdle(start, doc, win);
      return;
    }
    afterLoadAndIdle(
      () => {
        if (!state.started) void undismissedNotice(win).then((show) => show && start());
      },
      doc,
      win,
    );
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', decide, { once: true });
  else decide();
  return state;
}

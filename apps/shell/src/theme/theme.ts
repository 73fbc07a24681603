/**
 * No React here: the entry imports this before the Module Federation async boundary.
 *
 * The colour scheme (docs/behaviour.md#look-and-titles): follows the system setting until the user picks light or dark; the
 * pick is remembered in localStorage. Applied as the `dark` class on <html> (Tailwind's dark variant).
 */
export type Scheme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'tickety-theme';
/** Fired on window when the boot script (boot/boot.ts) changed the scheme before the app was in. */
export const SCHEME_EVENT = 'tickety:scheme';

const listeners = new Set<() => void>();

function stored(): Scheme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function systemScheme(): Scheme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The scheme in effect: the user's pick, else the system's. */
export function currentScheme(): Scheme {
  return stored() ?? systemScheme();
}

function apply(): void {
  const scheme = currentScheme();
  document.documentElement.classList.toggle('dark', scheme === 'dark');
  document.documentElement.style.colorScheme = scheme;
  for (const fn of listeners) fn();
}

let started = false;

/** Applies the scheme now and follows system changes while the user has not picked one. Idempotent. */
export function startTheme(): void {
  apply();
  if (started) return;
  started = true;
  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (!stored()) apply();
    });
  }
  // Another tab changed the pick.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) apply();
  });
  // The boot script's toggle on a prerendered page (boot/boot.ts, SCHEME_EVENT).
  window.addEventListener(SCHEME_EVENT, apply);
}

/** Remembers the user's pick and applies it. */
export function setScheme(scheme: Scheme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, scheme);
  } catch {
    // Storage refused (private mode): the pick lasts for this page only.
  }
  document.documentElement.classList.toggle('dark', scheme === 'dark');
  document.documentElement.style.colorScheme = scheme;
  for (const fn of listeners) fn();
}

/** Calls `fn` when the scheme in effect changes. */
export function onSchemeChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** The scheme the page shows now (the class on <html>). */
export const shownScheme = (): Scheme => (document.documentElement.classList.contains('dark') ? 'dark' : 'light');

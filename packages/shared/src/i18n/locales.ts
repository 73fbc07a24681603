/**
 * The reader's language in the browser: the list and the matching are the contract's
 * (@tickety/api-contract locales), the remembering is here.
 */
import { LOCALE_STORAGE_KEY, type Locale, pickLocale } from '@tickety/api-contract';

export {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_NAMES,
  LOCALE_STORAGE_KEY,
  LOCALES,
  type Locale,
  localeFromAcceptLanguage,
  matchLocale,
} from '@tickety/api-contract';

/** The reader's pick, if they made one in this browser. */
export function storedLocale(): string | null {
  try {
    return globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The locale to start in: the reader's pick, else the browser's languages, else English. */
export function preferredLocale(): Locale {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return pickLocale(storedLocale(), nav ? [...(nav.languages ?? []), nav.language].filter(Boolean) : []);
}

/** Remembers the reader's pick (localStorage for the app, a cookie for the server's prerender). */
export function rememberLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // storage refused (private mode): the pick lasts for this page only
  }
  if (typeof document !== 'undefined') {
    // biome-ignore lint/suspicious/noDocumentCookie: one fixed name and a value from LOCALES (the Cookie Store API is not in every browser we support)
    document.cookie = `${LOCALE_STORAGE_KEY}=${locale}; path=/; max-age=31536000; samesite=lax${location.protocol === 'https:' ? '; secure' : ''}`;
  }
}

/**
 * The languages Tickety speaks, and how a reader's one is chosen: the one they picked (remembered in
 * the browser, and in a cookie the server reads), else the first of their languages we have (the
 * browser's list, or the Accept-Language header), else English. One definition for the front ends,
 * the shell's boot script and the server's prerender.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, for the language menu. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/** The localStorage key and cookie name of the reader's pick. */
export const LOCALE_STORAGE_KEY = 'tickety-locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first of `tags` (BCP 47, best first: "de-AT", "en-GB") we have a catalogue for. */
export function matchLocale(tags: readonly string[]): Locale | null {
  for (const tag of tags) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLocale(base)) return base;
  }
  return null;
}

/** The locale an `Accept-Language` header asks for (q-values honoured), or null. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | null {
  if (!header) return null;
  // A reader names a few languages: a longer header is cut, not parsed whole (it is attacker-sized).
  const tags = header
    .slice(0, 256)
    .split(',', 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const quality = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: quality === undefined ? 1 : Number(quality), index };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
  return matchLocale(tags);
}

/** The reader's locale from what they picked (if it is one of ours) and the languages they speak. */
export function pickLocale(picked: string | null | undefined, languages: readonly string[]): Locale {
  return isLocale(picked) ? picked : (matchLocale(languages) ?? DEFAULT_LOCALE);
}

/**
 * The one i18n layer: a single `@lingui/core` instance (this package is a Module Federation
 * singleton, so the shell and every remote share it) holding every front end's catalogue under its
 * own namespace. A front end declares its catalogue with `defineCatalog` and ships one JSON file per
 * locale (`src/locales/<locale>.json`, compiled at build time, each locale its own chunk loaded on
 * demand). A page's own messages can be a lazy part of its front end's catalogue, loaded with the
 * page. Switching language loads every catalogue in use in the new locale first, then switches, so no
 * page ever shows a missing message.
 */
import { type Messages, setupI18n } from '@lingui/core';
import { DEFAULT_LOCALE, LOCALES, type Locale, preferredLocale, rememberLocale } from './locales';

export const i18n = setupI18n({ locale: DEFAULT_LOCALE, messages: Object.fromEntries(LOCALES.map((l) => [l, {}])) });

/** Values a message interpolates ("{count, plural, ...}", "{name}"). */
export type MessageValues = Record<string, string | number | Date>;

/** A compiled catalogue module as the bundler gives it (`import('./locales/de.json')`). */
export type CatalogModule = { default: Messages } | Messages;
export type CatalogLoader = (locale: Locale) => Promise<CatalogModule>;

/** A declared catalogue: its loader, the prefix its keys take, and whether it loads only when asked. */
interface Declared {
  loader: CatalogLoader;
  prefix: string;
  lazy: boolean;
}
const declared = new Map<string, Declared>();
const loaded = new Map<string, Promise<void>>();
/** The lazy catalogues some page has asked for: a language switch loads them too. */
const asked = new Set<string>();

function messagesOf(module: CatalogModule): Messages {
  return ('default' in module && module.default && typeof module.default === 'object' ? module.default : module) as Messages;
}

function put(prefix: string, locale: Locale, messages: CatalogModule): void {
  const prefixed: Messages = {};
  for (const [key, message] of Object.entries(messagesOf(messages))) prefixed[`${prefix}.${key}`] = message;
  i18n.load(locale, prefixed);
}

/** Adds a namespace's compiled messages for a locale (prerender and tests load them without a chunk). */
export function addMessages(namespace: string, locale: Locale, messages: CatalogModule): void {
  put(namespace, locale, messages);
  loaded.set(`${namespace}/${locale}`, Promise.resolve());
}

/** Loads one namespace's catalogue in `locale` (once; a failed load is tried again next time). */
export function loadNamespace(namespace: string, locale: Locale): Promise<void> {
  const key = `${namespace}/${locale}`;
  asked.add(namespace);
  const existing = loaded.get(key);
  if (existing) return existing;
  const catalogue = declared.get(namespace);
  if (!catalogue) return Promise.reject(new Error(`No catalogue is declared for "${namespace}".`));
  const pending = catalogue.loader(locale).then(
    (module) => put(catalogue.prefix, locale, module),
    (error: unknown) => {
      loaded.delete(key);
      throw error;
    },
  );
  loaded.set(key, pending);
  return pending;
}

/**
 * Declares a namespace's catalogue loader (once per namespace; the first declaration wins). Its keys
 * take `prefix` (default: the namespace). A `lazy` one loads only when asked (`loadNamespace`), and
 * from then on with every language switch; the others load with every switch, the first included.
 */
export function registerCatalog(namespace: string, loader: CatalogLoader, options: { prefix?: string; lazy?: boolean } = {}): void {
  if (!declared.has(namespace)) declared.set(namespace, { loader, prefix: options.prefix ?? namespace, lazy: options.lazy ?? false });
}

/** The active locale. */
export function activeLocale(): Locale {
  return i18n.locale as Locale;
}

function applyToDocument(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/**
 * Switches every front end to `locale`: loads each declared catalogue in it, then activates it (the
 * pages re-render), sets `<html lang>` and, when the reader picked it, remembers the pick.
 */
export async function changeLocale(locale: Locale, options: { remember?: boolean } = {}): Promise<void> {
  // Again while a page asked for a part meanwhile (a page opened during the switch), so that part is
  // in the new language too when it is activated.
  for (let count = -1; count !== asked.size; ) {
    count = asked.size;
    const wanted = [...declared].filter(([namespace, catalogue]) => !catalogue.lazy || asked.has(namespace));
    await Promise.all(wanted.map(([namespace]) => loadNamespace(namespace, locale)));
  }
  if (options.remember) rememberLocale(locale);
  if (i18n.locale !== locale) i18n.activate(locale);
  applyToDocument(locale);
}

/** Starts the language layer in the reader's preferred locale (or `locale`). */
export function startI18n(locale: Locale = preferredLocale()): Promise<void> {
  return changeLocale(locale);
}

/** Subscribes to locale changes (returns the unsubscribe). */
export function onLocaleChange(listener: () => void): () => void {
  return i18n.on('change', listener);
}

/**
 * A route's text in the active language: the owning remote's `<kind>.<page>` message (`title.premium`,
 * `sidebar.logs-web`) once its catalogue has loaded, else the route table's English `fallback`.
 */
export function routeText(remote: string, kind: 'title' | 'description' | 'sidebar', page: string, fallback: string): string {
  const id = `${remote}.${kind}.${page}`;
  return i18n.messages[id] === undefined ? fallback : i18n._(id);
}

/**
 * A front end's catalogue: `defineCatalog<typeof en>('marketing', loader)` gives typed `t` (for code
 * outside React), `useT` (components: re-render when the language changes) and `T` (a message with
 * markup: `"Read the <link>policy</link>."` with `components={{ link: <Link to=... /> }}`).
 * Keys are the English catalogue's, so a misspelt key is a type error.
 */
import { cloneElement, Fragment, type ReactElement, type ReactNode, useCallback, useSyncExternalStore } from 'react';
import { activeLocale, type CatalogModule, i18n, loadNamespace, type MessageValues, onLocaleChange, registerCatalog } from './i18n';
import type { Locale } from './locales';

/** A loader per locale (`{ en: () => import('../locales/en.json'), de: ... }`): a missing one is a type error. */
export type CatalogLoaders = Record<Locale, () => Promise<CatalogModule>>;

export type Translate<K extends string> = (key: K, values?: MessageValues) => string;

export interface Catalog<K extends string = string> {
  readonly namespace: string;
  /** Resolves once this catalogue is loaded in `locale` (default: the active one). */
  ready(locale?: Locale): Promise<void>;
  /** A message in the active language (outside React; components use `useT`). */
  t: Translate<K>;
  /** The translate function, re-rendering the component when the language changes. */
  useT(): Translate<K>;
  /** A message whose `<name>…</name>` / `<name/>` tags become the given elements. */
  T(props: { k: K; values?: MessageValues; components?: Record<string, ReactElement> }): ReactNode;
}

/** The active locale, re-rendering the component when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(onLocaleChange, activeLocale, activeLocale);
}

// Bumped on every change of the layer (a locale activated, a catalogue loaded), so a component showing
// a fallback (a route title before its remote's catalogue arrived) renders again with the message.
let revision = 0;
const readRevision = () => revision;
function subscribeRevision(listener: () => void): () => void {
  return onLocaleChange(() => {
    revision++;
    listener();
  });
}

/** A number that changes whenever a locale is activated or a catalogue is loaded. */
export function useI18nRevision(): number {
  return useSyncExternalStore(subscribeRevision, readRevision, readRevision);
}

/**
 * Splits a formatted message on `<tag>…</tag>` and `<tag/>` into text and the given elements. `text`
 * maps each piece of text before it is shown (restoring interpolated values, see NamespaceMessage).
 */
export function formatElements(message: string, components: Record<string, ReactElement> = {}, text: (source: string) => string = (s) => s): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /<([a-z][a-z0-9]*)\/>|<([a-z][a-z0-9]*)>([\s\S]*?)<\/\2>/g;
  let last = 0;
  let index = 0;
  for (let match = pattern.exec(message); match; match = pattern.exec(message)) {
    if (match.index > last) out.push(text(message.slice(last, match.index)));
    const name = match[1] ?? match[2]!;
    const element = components[name];
    const inner = match[3];
    const key = `${name}-${index++}`;
    if (!element) out.push(text(inner ?? ''));
    else out.push(inner === undefined ? cloneElement(element, { key }) : cloneElement(element, { key }, ...formatElements(inner, components, text)));
    last = match.index + match[0].length;
  }
  if (last < message.length) out.push(text(message.slice(last)));
  return out;
}

// Interpolated text stands in the message as these markers while its tags are read, so a value (a
// server or user name, chosen by anyone) is only ever text: "<link>x</link>" in a name is not a link.
const VALUE_START = '\uE000';
const VALUE_END = '\uE001';
const VALUE_MARK = /\uE000(\d+)\uE001/g;

/** A namespace's translate function, new whenever the layer changes (a locale or a catalogue). */
function useNamespaceT<K extends string>(namespace: string): Translate<K> {
  const current = useI18nRevision();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new function per change re-renders memoised children
  return useCallback<Translate<K>>((key, values) => i18n._(`${namespace}.${key}`, values), [namespace, current]);
}

/** A namespace's message with markup, its tags replaced by `components`. */
function NamespaceMessage({ namespace, k, values, components }: { namespace: string; k: string; values?: MessageValues; components?: Record<string, ReactElement> }): ReactNode {
  useI18nRevision();
  const texts: string[] = [];
  const marked: MessageValues = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    // Only text that could read as a tag is set aside (a select's key, "ready", must stay itself):
    // "<", and a backslash, which the formatter would decode ("\u003c" is "<").
    if (typeof value === 'string' && /[<\\\uE000\uE001]/.test(value)) {
      marked[name] = `${VALUE_START}${texts.length}${VALUE_END}`;
      texts.push(value);
    } else marked[name] = value;
  }
  const restore = (piece: string) => piece.replace(VALUE_MARK, (_, i: string) => texts[Number(i)] ?? '');
  return <Fragment>{formatElements(i18n._(`${namespace}.${k}`, marked), components, restore)}</Fragment>;
}

function catalogOf<K extends string>(namespace: string, load: (locale: Locale) => Promise<void>): Catalog<K> {
  return {
    namespace,
    ready: (locale = activeLocale()) => load(locale),
    t: (key, values) => i18n._(`${namespace}.${key}`, values),
    useT: () => useNamespaceT<K>(namespace),
    // biome-ignore lint/correctness/noComponentHookFactories: made once per catalogue when its module loads (never per render), so its identity is stable
    T: (props) => <NamespaceMessage namespace={namespace} {...props} />,
  };
}

export function defineCatalog<C extends Record<string, string>>(namespace: string, loaders: CatalogLoaders): Catalog<Extract<keyof C, string>> {
  registerCatalog(namespace, (locale) => loaders[locale]());
  return catalogOf(namespace, (locale) => loadNamespace(namespace, locale));
}

/**
 * A part of `base` only some pages use (a page's own messages, `C`): loaded when a page asks for it
 * (`ready()`, awaited with the page's code), not with `base`, and with every language switch once
 * asked for. Its messages join base's namespace (a key must not be in both) and its functions take
 * the keys of both, so a page's code uses one `t`.
 */
export function defineCatalogPart<C extends Record<string, string>, B extends string>(base: Catalog<B>, part: string, loaders: CatalogLoaders): Catalog<Extract<keyof C, string> | B> {
  const id = `${base.namespace}.${part}`;
  registerCatalog(id, (locale) => loaders[locale](), { prefix: base.namespace, lazy: true });
  return catalogOf(base.namespace, (locale) => loadNamespace(id, locale));
}

/**
 * The dashboard's message catalogue (src/locales/<locale>.json): what several pages show (route
 * titles, sidebar labels, access, shared words). Each feature's own messages are a part of it
 * (`features/<name>/locales/<locale>.json`, declared in `features/<name>/i18n.ts`), loaded with the
 * feature's page, so a page downloads its own strings and not every page's.
 */
import { type Catalog, type CatalogLoaders, defineCatalog, defineCatalogPart } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('dashboard', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;

/** A key of this catalogue (for data that names a message rather than holding its text). */
export type MessageKey = Parameters<typeof t>[0];

/**
 * A feature's part of the catalogue: its own keys (`C`, its English file) and the shared ones, and
 * those of the parts it `uses` (their keys `U`), which its `ready()` loads with it.
 */
export function defineFeatureCatalog<C extends Record<string, string>, U extends string = never>(
  feature: string,
  loaders: CatalogLoaders,
  uses: readonly Pick<Catalog, 'ready'>[] = [],
): Catalog<Extract<keyof C, string> | MessageKey | U> {
  // Every part's messages are under the dashboard's namespace, so its functions read any of its keys:
  // the type adds the keys of the parts it uses.
  const part = defineCatalogPart<C, MessageKey>(catalog, feature, loaders) as Catalog<Extract<keyof C, string> | MessageKey | U>;
  if (uses.length === 0) return part;
  return { ...part, ready: (locale) => Promise.all([part.ready(locale), ...uses.map((other) => other.ready(locale))]).then(() => undefined) };
}

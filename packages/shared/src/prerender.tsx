/**
 * `@tickety/shared/prerender`: a remote's public pages rendered to HTML in Node (its dist/prerender.mjs,
 * built for the server, never loaded by a browser). The server puts the page into the shell's frame,
 * so a public page's first paint needs no JavaScript; the app takes it over in the browser.
 */
import { isOpenPage, type PageData, tablePages } from '@tickety/api-contract';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { visitorAuthState } from './auth/auth-slice';
import { configureShared } from './config';
import type { RouteHandle, RouteTable } from './contracts/remotes';
import { addMessages, type CatalogModule, i18n } from './i18n/i18n';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './i18n/locales';
import sharedDe from './locales/de.json';
import sharedEn from './locales/en.json';
import { PrerenderingContext } from './routing/prerendering';
import { type AppDispatch, makeStore } from './store';
import type { RuntimeConfig } from './types';

/** A remote's renderer: the HTML of the page at `path` in `locale`, or null when it is not one it prerenders. */
export type PageRenderer = (path: string, config: RuntimeConfig, locale?: Locale, data?: PageData) => { html: string; layout: string } | null;

/** Puts the data a page is rendered with (the server's: the status, the plans) into its store, as the app does at its takeover. */
export type PageDataSeeder = (dispatch: AppDispatch, data: PageData) => void;

/** A front end's catalogue for the server: its namespace and its messages in every locale (static imports). */
export interface PrerenderCatalog {
  namespace: string;
  messages: Record<Locale, CatalogModule>;
}

/**
 * Loads catalogues into this (server-side, one per bundle) language layer, with the shared package's
 * own. Rendering is synchronous, so activating a locale right before `renderToString` is safe.
 */
export function loadPrerenderCatalogs(...catalogs: PrerenderCatalog[]): void {
  for (const { namespace, messages } of [{ namespace: 'shared', messages: { en: sharedEn, de: sharedDe } }, ...catalogs]) {
    for (const locale of LOCALES) addMessages(namespace, locale, messages[locale]);
  }
}

/** Activates `locale` for the synchronous render that follows. */
export function activateForRender(locale: Locale = DEFAULT_LOCALE): void {
  if (i18n.locale !== locale) i18n.activate(locale);
}

/**
 * Prerenders the pages of `table` anyone may see at a fixed address (no parameter, no sign-in, no
 * staff permission), signed out, with `pages` (eager components: no lazy loading on the server).
 */
export function pageRenderer(table: RouteTable, pages: Record<string, ComponentType>, catalog: PrerenderCatalog, seed?: PageDataSeeder): PageRenderer {
  loadPrerenderCatalogs(catalog);
  const prerendered = new Map<string, { page: string; layout: string; handle: RouteHandle }>();
  for (const entry of tablePages(table)) {
    const { path, route, layout } = entry;
    if (!isOpenPage(entry) || !route.page || !pages[route.page]) continue;
    const handle: RouteHandle = { remote: table.remote, page: route.page, ...(route.data ? { data: route.data } : {}), ...(route.title ? { title: route.title } : {}) };
    prerendered.set(path, { page: route.page, layout, handle });
  }
  return (path, config, locale, data) => {
    const entry = prerendered.get(path.length > 1 ? path.replace(/\/+$/, '') : path);
    if (!entry) return null;
    const Page = pages[entry.page]!;
    const store = makeStore({ auth: visitorAuthState() });
    if (data && seed) seed(store.dispatch, data);
    const router = createMemoryRouter([{ path: '*', handle: entry.handle, element: <Page /> }], { initialEntries: [path] });
    configureShared({ config, navigate: () => undefined, dispatch: store.dispatch });
    activateForRender(locale);
    const html = renderToString(
      <PrerenderingContext.Provider value={true}>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </PrerenderingContext.Provider>,
    );
    return { html, layout: entry.layout };
  };
}

/**
 * The shell's part of a prerendered public page (built for Node as dist/prerender.mjs, used by the
 * server, never by the browser): the layout a page renders in, signed out, with PAGE_SLOT where the
 * remote's page goes. The app then takes the page over in the browser (bootstrap.tsx).
 */
import { configureShared, type LayoutId, type Locale, makeStore, type RuntimeConfig, visitorAuthState } from '@tickety/shared';
import { activateForRender, loadPrerenderCatalogs } from '@tickety/shared/prerender';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { DisplayLayout, PublicLayout, SubscriptionLayout } from './layouts/layouts';
import { ShellUiText } from './lib/ui-text';
import de from './locales/de.json';
import en from './locales/en.json';
import { NotFound } from './pages/pages';

// The shell's messages (and the shared package's) in every language, loaded once: no chunk to fetch here.
loadPrerenderCatalogs({ namespace: 'shell', messages: { en, de } });

/** Where the page goes in the rendered frame. */
export const PAGE_SLOT = '<div data-tk-page=""></div>';

const LAYOUTS: Partial<Record<LayoutId, () => React.JSX.Element>> = {
  public: PublicLayout,
  display: DisplayLayout,
  subscription: SubscriptionLayout,
};

/** The layouts a page can be prerendered in (the others need a signed-in user). */
export const PRERENDERED_LAYOUTS = Object.keys(LAYOUTS) as LayoutId[];

function render(Layout: () => React.JSX.Element, page: React.JSX.Element, path: string, config: RuntimeConfig, locale: Locale | undefined): string {
  // Signed out, as the app shows a visitor once its user load has answered.
  const store = makeStore({ auth: visitorAuthState() });
  const router = createMemoryRouter([{ element: <Layout />, children: [{ path: '*', element: page }] }], { initialEntries: [path] });
  configureShared({ config, navigate: () => undefined, dispatch: store.dispatch });
  // Rendering is synchronous: the language set here is the one the whole frame renders in.
  activateForRender(locale);
  return renderToString(
    <Provider store={store}>
      <ShellUiText>
        <RouterProvider router={router} />
      </ShellUiText>
    </Provider>,
  );
}

/** The frame of `path` in `layout`, in `locale` (English by default; null for a layout that is not prerendered). */
export function renderFrame(layout: LayoutId, path: string, config: RuntimeConfig, locale?: Locale): string | null {
  const Layout = LAYOUTS[layout];
  return Layout ? render(Layout, <div data-tk-page="" />, path, config, locale) : null;
}

/** The 404 page in the public layout, in `locale` (English by default; the same markup at any address). */
export function renderNotFound(config: RuntimeConfig, locale?: Locale): string {
  return render(PublicLayout, <NotFound />, '/404', config, locale);
}

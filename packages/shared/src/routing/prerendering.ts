import { createContext, useContext } from 'react';

/** Provided (true) by `pageRenderer` around a page the server prerenders. */
export const PrerenderingContext = createContext(false);

/**
 * Whether the page is being prerendered for the server (`@tickety/shared/prerender`): rendered once
 * per path for every visitor, signed out, without the address's query string. A page whose content
 * comes from the query (or anything else only the browser knows) renders its waiting state then,
 * marked `aria-busy="true"`: the boot script starts the app at once on such a page, and the app
 * renders the real one over it. Always false in the browser.
 */
export function usePrerendering(): boolean {
  return useContext(PrerenderingContext);
}

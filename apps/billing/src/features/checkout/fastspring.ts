/**
 * FastSpring's Store Builder Library (its popup checkout), loaded once per page load: a
 * `<script id="fsc-api">` in document.head with the storefront and the name of the global function
 * FastSpring calls when its popup closes (with the order, or null when nothing was bought).
 */

/** What the popup-closed callback receives after an order (null when closed without one). */
export interface FastspringOrder {
  id: string;
  reference?: string | null;
}

/**
 * The part of `window.fastspring.builder` the checkout uses: `secure` takes the session the API
 * encrypted (the product and what ties the order to the user; the page adds nothing of its own).
 */
export interface FastspringBuilder {
  secure(securePayload: string, secureKey: string): void;
  checkout(): void;
}

declare global {
  interface Window {
    fastspring?: { builder: FastspringBuilder };
    ticketyFastspringPopupClosed?: (order: FastspringOrder | null) => void;
  }
}

const FASTSPRING_SCRIPT_ID = 'fsc-api';
/** The global function FastSpring's script calls when the popup closes (`data-popup-closed`). */
const FASTSPRING_POPUP_CLOSED = 'ticketyFastspringPopupClosed';

const listeners = new Set<(order: FastspringOrder | null) => void>();

/** Follows FastSpring's popup closing; returns the unsubscribe. */
export function onFastspringPopupClosed(listener: (order: FastspringOrder | null) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

let loading: Promise<FastspringBuilder> | null = null;

/**
 * The Store Builder Library for a storefront: the one already on the page, or the script appended
 * once (a second call while it loads waits for the same script). A failed load removes the script so
 * that trying again appends a fresh one.
 */
export function loadFastspring({ scriptUrl, storefront }: { scriptUrl: string; storefront: string }): Promise<FastspringBuilder> {
  window[FASTSPRING_POPUP_CLOSED] = (order) => {
    const closed = order && typeof order.id === 'string' && order.id ? order : null;
    for (const listener of [...listeners]) listener(closed);
  };
  const ready = window.fastspring?.builder;
  if (ready) return Promise.resolve(ready);
  if (loading) return loading;
  loading = new Promise<FastspringBuilder>((resolve, reject) => {
    document.getElementById(FASTSPRING_SCRIPT_ID)?.remove();
    const script = document.createElement('script');
    script.id = FASTSPRING_SCRIPT_ID;
    script.type = 'text/javascript';
    script.src = scriptUrl;
    script.async = true;
    script.dataset.storefront = storefront;
    script.dataset.popupClosed = FASTSPRING_POPUP_CLOSED;
    const fail = () => {
      script.remove();
      loading = null;
      reject(new Error('FastSpring checkout could not be loaded'));
    };
    script.addEventListener('load', () => {
      const builder = window.fastspring?.builder;
      if (builder) resolve(builder);
      else fail();
    });
    script.addEventListener('error', fail);
    document.head.appendChild(script);
  });
  return loading;
}

/** For tests: forgets the script, the callback and its listeners. */
export function resetFastspring(): void {
  loading = null;
  listeners.clear();
  document.getElementById(FASTSPRING_SCRIPT_ID)?.remove();
  delete window[FASTSPRING_POPUP_CLOSED];
  delete window.fastspring;
}

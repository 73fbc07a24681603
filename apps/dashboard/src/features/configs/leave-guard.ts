/**
 * The unsaved-changes warning of an editor: closing or reloading the tab gets the browser's own
 * prompt (`beforeunload`); a click on any link of the page is held while there are changes and
 * `onBlocked` decides. Not react-router's `useBlocker`: @tickety/shared, where remotes take the
 * router from, does not re-export it, so the browser's Back button is not held (the Panel Menu keeps
 * a draft left that way and offers to return to it).
 */
import { useEffect, useRef } from 'react';

/** The in-app address of a click on a link that would leave the current address, or null. */
function leavingLinkTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  // A link to a place on the same page (only the hash differs) leaves nothing.
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return url.pathname + url.search + url.hash;
}

export function useLeaveGuard(active: boolean, onBlocked: (to: string) => void): void {
  const blocked = useRef(onBlocked);
  blocked.current = onBlocked;

  useEffect(() => {
    if (!active) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value; none shows it (they show their own sentence).
      event.returnValue = '';
    };
    const click = (event: MouseEvent) => {
      const to = leavingLinkTarget(event);
      if (to === null) return;
      // Held before the router's own click handler (React listens below the document).
      event.preventDefault();
      event.stopPropagation();
      blocked.current(to);
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [active]);
}

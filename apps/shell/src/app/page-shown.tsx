import { selectAuthStatus, useAppSelector } from '@tickety/shared';
import { useLayoutEffect } from 'react';
import { pageShown } from './takeover';

/**
 * Rendered with a page that can arrive prerendered (a remote's page in its Suspense boundary, so once
 * the page itself is there; the 404 page): tells the takeover, once the user load has answered too
 * (the header then matches the prerendered one).
 */
export function PageShown() {
  const status = useAppSelector(selectAuthStatus);
  const settled = status === 'loaded' || status === 'failed';
  useLayoutEffect(() => {
    if (settled) pageShown();
  }, [settled]);
  return null;
}

import { useMatches } from 'react-router-dom';
import type { RouteHandle } from '../contracts/remotes';

/**
 * The `data` of the innermost matched route's handle (see RouteHandle.data): how a page that serves
 * several paths learns which one it is, without parsing the URL. Empty when the route has none.
 */
export function useRouteData(): Readonly<Record<string, string>> {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.data) return handle.data;
  }
  return EMPTY;
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

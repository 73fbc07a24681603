import { documentTitle, type RouteHandle, routeText, useI18nRevision, useRuntimeConfig } from '@tickety/shared';
import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';

/** '{product} - <name>' from the innermost route title; the default title otherwise (docs/behaviour.md#look-and-titles). */
export function pageTitle(product: string, matches: Array<{ handle: unknown; params: Record<string, string | undefined> }>): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const handle = match.handle as RouteHandle | undefined;
    const title = handle?.title;
    if (!title) continue;
    const text = typeof title === 'function' ? title(match.params) : title;
    // A remote's page is titled in the reader's language once that remote's catalogue has loaded.
    return documentTitle(product, handle.remote && handle.page && typeof title === 'string' ? routeText(handle.remote, 'title', handle.page, text) : text);
  }
  return documentTitle(product);
}

export function useDocumentTitle(): void {
  const { productName } = useRuntimeConfig();
  const matches = useMatches();
  useI18nRevision();
  const title = pageTitle(productName, matches);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

import { documentTitle, type RouteHandle, useRuntimeConfig } from '@tickety/shared';
import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';

/** '{product} - <name>' from the innermost route title; the default title otherwise (spec §1). */
export function pageTitle(product: string, matches: Array<{ handle: unknown; params: Record<string, string | undefined> }>): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i]!;
    const title = (m.handle as RouteHandle | undefined)?.title;
    if (title) return documentTitle(product, typeof title === 'function' ? title(m.params) : title);
  }
  return documentTitle(product);
}

export function useDocumentTitle(): void {
  const { productName } = useRuntimeConfig();
  const matches = useMatches();
  const title = pageTitle(productName, matches);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

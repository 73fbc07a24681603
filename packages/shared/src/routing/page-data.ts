import { PAGE_DATA_ID, type PageData } from '@tickety/api-contract';

let read: PageData | null = null;

/**
 * The data the server put into the page it answered (`PAGE_DATA_ID`: the status, the plans), read
 * once; empty when there is none (a static host's page, a page without data, no DOM).
 */
export function pageData(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): PageData {
  if (read) return read;
  const text = doc?.getElementById(PAGE_DATA_ID)?.textContent;
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    read = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PageData) : {};
  } catch {
    read = {};
  }
  return read;
}

/** Forgets what was read (tests). */
export function resetPageData(): void {
  read = null;
}

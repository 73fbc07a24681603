import { createContext, useContext } from 'react';
import type { LiveConfig } from './api';

/**
 * The Panel Menu's three reads, started and held by its route (route.tsx) for the whole visit: the
 * page and its parts read them from the cache (`useQueryState`, which starts nothing), and ask for
 * them again here. So a read that failed before a part appeared is not made again by that part's
 * appearing, only by its Retry.
 */
export interface PanelMenuReads {
  refetchConfig(): Promise<LiveConfig>;
  refetchPosts(): void;
  refetchResources(): void;
}

export const PanelMenuReadsContext = createContext<PanelMenuReads | null>(null);

export function usePanelMenuReads(): PanelMenuReads {
  const reads = useContext(PanelMenuReadsContext);
  if (!reads) throw new Error('The Panel Menu renders inside its route (features/configs/route.tsx)');
  return reads;
}

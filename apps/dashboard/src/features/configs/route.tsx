import { useParams } from '@tickety/shared';
import { lazy, useMemo } from 'react';
import { usePanelPostsQuery, useServerConfigQuery, useServerResourcesQuery } from './api';
import { type PanelMenuReads, PanelMenuReadsContext } from './reads';

/** The page itself: its own chunk, fetched as the route renders. */
export const PanelMenuPage = lazy(() => import('./configs'));

/** The route reads the queries' data through the page, never itself: it renders once. */
const NOTHING = {};
const nothing = () => NOTHING;

/**
 * The Panel Menu's route: its three reads (the configuration, where panels are posted, the server's
 * channels and roles) start together as the page is entered, while the page's own code downloads,
 * instead of one after the other once it has (the list waited for its code, then for the
 * configuration, then for the other two). They last the visit, are read anew on each visit, and a
 * save's invalidation reads them again while they do.
 */
export default function PanelMenuRoute() {
  const { server = '' } = useParams();
  const skip = server === '';
  const config = useServerConfigQuery(server, { refetchOnMountOrArgChange: true, skip, selectFromResult: nothing });
  const posts = usePanelPostsQuery(server, { refetchOnMountOrArgChange: true, skip, selectFromResult: nothing });
  const resources = useServerResourcesQuery(server, { skip, selectFromResult: nothing });
  const { refetch: refetchConfig } = config;
  const { refetch: refetchPosts } = posts;
  const { refetch: refetchResources } = resources;
  const reads = useMemo<PanelMenuReads>(
    () => ({
      refetchConfig: () => refetchConfig().unwrap(),
      refetchPosts: () => void refetchPosts(),
      refetchResources: () => void refetchResources(),
    }),
    [refetchConfig, refetchPosts, refetchResources],
  );
  return (
    <PanelMenuReadsContext.Provider value={reads}>
      <PanelMenuPage />
    </PanelMenuReadsContext.Provider>
  );
}

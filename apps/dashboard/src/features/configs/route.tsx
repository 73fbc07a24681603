import { useParams } from '@tickety/shared';
import { lazy, Suspense, useMemo } from 'react';
import { ListSkeleton } from '../../components/list-skeleton';
import { useT } from '../../lib/i18n';
import { usePanelPostsQuery, useServerConfigQuery, useServerResourcesQuery } from './api';
import { catalog } from './i18n';
import { type PanelMenuReads, PanelMenuReadsContext } from './reads';

/** The page itself: its own chunk and its messages, fetched together as the route renders. */
export const PanelMenuPage = lazy(() => Promise.all([import('./configs'), catalog.ready()]).then(([page]) => page));

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
  const t = useT();
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
      {/* Its own boundary: the route is on screen (and its reads started) while the page downloads. */}
      <Suspense fallback={<ListSkeleton label={t('menu.loading')} rows={3} lead="preview" heading />}>
        <PanelMenuPage />
      </Suspense>
    </PanelMenuReadsContext.Provider>
  );
}

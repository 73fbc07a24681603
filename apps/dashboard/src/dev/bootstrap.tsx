import { startStandalone } from '@tickety/shared/dev';
import { Suspense } from 'react';
import routes from '../routes';

type Pages = typeof routes.routes;

// The standalone harness mounts pages without the shell's Suspense boundary: wrap each lazy page here.
const wrapped = { ...routes, routes: {} as Pages };
for (const id of Object.keys(routes.routes) as Array<keyof Pages>) {
  const Page = routes.routes[id].Component;
  wrapped.routes[id] = {
    Component: () => (
      <Suspense fallback={<p>Loading…</p>}>
        <Page />
      </Suspense>
    ),
  };
}

void startStandalone(wrapped, [
  { path: '/dashboard', page: 'manageServers' },
  { path: '/dashboard/:server/configs', page: 'serverConfigs' },
  { path: '/dashboard/:server/statistics', page: 'serverStatistics' },
  { path: '/dashboard/:server/premium', page: 'serverPremium' },
  { path: '/dashboard/:server/logs-web', page: 'serverLogsWeb' },
  { path: '/dashboard/:server/server-configs', page: 'serverRestoreConfigs' },
  { path: '/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm', page: 'transcriptV1' },
  { path: '/transcript/v2/:server/:fileid', page: 'transcriptV2' },
]);

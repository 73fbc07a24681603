import type { ConfigHealth } from '@tickety/api-contract';
import { api, selectOpenServerAccess, setSidebarBadge, useAppSelector, useParams } from '@tickety/shared';
import { useEffect } from 'react';
import { useT } from '../../lib/i18n';

/**
 * The configuration health check (`GET /api/guilds/:server/config/health`): one read shared by the
 * sidebar's count (every server page) and the Panel Menu's list. A background read (`overlay: false`):
 * the Panel Menu says inline when it cannot be loaded. Read again after a save, a send or an update
 * (each writes a Web Logs entry) and every minute.
 */
export const healthApi = api.injectEndpoints({
  endpoints: (build) => ({
    configHealth: build.query<ConfigHealth, string>({
      query: (server) => ({ path: `/api/guilds/${server}/config/health`, overlay: false }),
      // The server's next Web Logs entry (a save, a send, an update, a restore) reads it again.
      providesTags: (_result, _error, server) => [{ type: 'WebLog', id: server }],
    }),
  }),
});

/** Read every minute while a page shows it (the API's answer is at most a minute old itself). */
export const HEALTH_READ = { pollingInterval: 60_000 };

/**
 * The count of configuration problems on the Panel Menu's sidebar entry, while a server page is open
 * (each server page renders it beside itself: routes.tsx). Read once the server's access is known, with Panel Menu access only.
 */
export function HealthBadge() {
  const t = useT();
  const { server = '' } = useParams();
  const access = useAppSelector(selectOpenServerAccess);
  const skip = !server || !access?.areas.panels;
  const count = healthApi.endpoints.configHealth.useQuery(server, { ...HEALTH_READ, skip }).data?.problems.length;
  const shown = skip ? undefined : count;
  useEffect(() => {
    if (shown === undefined) return;
    setSidebarBadge(server, 'configs', { count: shown, label: t('health.badge', { count: shown }) });
    return () => setSidebarBadge(server, 'configs', null);
  }, [server, shown, t]);
  return null;
}

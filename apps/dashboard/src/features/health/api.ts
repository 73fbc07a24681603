/**
 * The configuration health check (`GET /api/guilds/:server/config/health`): one read shared by the
 * sidebar's count (every server page) and the Panel Menu's list. A background read (`overlay: false`):
 * the list says inline when it cannot be loaded. Read again after a save, a send or an update (their
 * Web Logs entry), on each page and every minute while a page is open.
 */
import type { ConfigHealth } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export const healthApi = api.injectEndpoints({
  endpoints: (build) => ({
    configHealth: build.query<ConfigHealth, string>({
      query: (server) => ({ path: `/api/guilds/${encodeURIComponent(server)}/config/health`, overlay: false }),
      providesTags: (_result, _error, server) => [
        { type: 'PanelPosts', id: server },
        { type: 'WebLog', id: server },
      ],
    }),
  }),
});

/** The check's read, kept fresh: read anew when older than a minute, and every minute while shown. */
export const HEALTH_READ = { refetchOnMountOrArgChange: 60, pollingInterval: 60_000, skipPollingIfUnfocused: true } as const;

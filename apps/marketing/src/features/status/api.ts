import type { StatusResponse } from '@tickety/api-contract';
import { type AppDispatch, api } from '@tickety/shared';

/** How often the status page asks again while it is visible. */
export const STATUS_REFRESH_MS = 30_000;

/**
 * The status page's read. Endpoint names are prefixed with the remote's name so they never collide
 * with another remote's endpoints on the one shared `api`.
 */
const statusApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `GET /api/status`, silently (`overlay: false`): the page polls in the background and shows its
     * own inline error, so an unreachable API never stacks error overlays every 30 seconds.
     */
    marketingStatus: build.query<StatusResponse, void>({
      query: () => ({ path: '/api/status', overlay: false, timeoutMs: 15_000 }),
      providesTags: ['Status'],
    }),
  }),
});

export const { useMarketingStatusQuery } = statusApi;

/** Puts the status the page arrived with into the cache, as if `GET /api/status` had just answered it. */
export function seedStatus(dispatch: AppDispatch, status: StatusResponse): void {
  dispatch(statusApi.util.upsertQueryEntries([{ endpointName: 'marketingStatus', arg: undefined, value: status }]));
}

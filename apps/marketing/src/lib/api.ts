import type { Plan, StatusResponse } from '@tickety/api-contract';
import { ApiRequestError, api, type OverlayBaseQueryError, request } from '@tickety/shared';

/** How often the status page asks again while it is visible. */
export const STATUS_REFRESH_MS = 30_000;

function toQueryError(e: ApiRequestError): OverlayBaseQueryError {
  if (e.kind === 'http') return { status: e.status, data: e.body, message: e.message };
  if (e.kind === 'timeout') return { status: 'TIMEOUT', data: null, message: e.message };
  if (e.kind === 'network') return { status: 'NETWORK', data: null, message: e.message };
  return { status: 'CANCELLED', data: null, message: e.message };
}

/**
 * The marketing pages' API calls. Names are prefixed so they never collide with another remote's
 * endpoints on the one shared `api`.
 */
export const marketingApi = api.injectEndpoints({
  endpoints: (b) => ({
    /** `GET /api/plans` through the overlay (loading overlay, error overlay with Retry). */
    marketingPlans: b.query<Plan[], void>({
      query: () => '/api/plans',
      providesTags: ['Plans'],
    }),
    /**
     * `GET /api/status`, silently (`overlay: false`): the page polls in the background and shows its
     * own inline error, so an unreachable API never stacks error overlays every 30 seconds.
     */
    marketingStatus: b.query<StatusResponse, void>({
      queryFn: async (_arg, { signal }) => {
        try {
          return { data: await request<StatusResponse>({ path: '/api/status', overlay: false, signal, timeoutMs: 15_000 }) };
        } catch (e) {
          if (e instanceof ApiRequestError) return { error: toQueryError(e) };
          throw e;
        }
      },
      providesTags: ['Status'],
    }),
  }),
});

export const { useMarketingPlansQuery, useMarketingStatusQuery } = marketingApi;

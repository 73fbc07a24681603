/**
 * Server premium (`/dashboard/:server/premium`): the read of `GET /api/guilds/:server/premium` and
 * putting one of the user's slots on the server (`PUT`), which changes the server's limits too.
 */
import type { AssignPremiumRequest, ServerPremiumAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

const base = (server: string) => `/api/guilds/${encodeURIComponent(server)}`;

const premiumApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Not through the overlay: the page shows a failure in place. */
    serverPremium: build.query<ServerPremiumAnswer, string>({
      query: (server) => ({ path: `${base(server)}/premium`, overlay: false }),
      providesTags: (_result, _error, server) => [{ type: 'ServerPremium', id: server }],
    }),
    assignPremium: build.mutation<ServerPremiumAnswer, AssignPremiumRequest & { server: string }>({
      query: ({ server, ...body }) => ({ path: `${base(server)}/premium`, method: 'PUT', body, overlay: false }),
      // The answer is the server's premium now; its limits (the configuration's) and the Web Logs follow it.
      async onQueryStarted({ server }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(premiumApi.util.upsertQueryData('serverPremium', server, data));
        } catch {
          // The page shows the failure.
        }
      },
      invalidatesTags: (result, _error, { server }) =>
        result
          ? [
              { type: 'ServerConfig', id: server },
              { type: 'WebLog', id: server },
            ]
          : [],
    }),
  }),
});

export const { useServerPremiumQuery, useAssignPremiumMutation } = premiumApi;

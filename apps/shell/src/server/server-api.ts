import { api, type Guild } from '@tickety/shared';

/** The server dashboard frame's one call: may the user manage this server (the API decides)? */
export const serverApi = api.injectEndpoints({
  endpoints: (build) => ({
    getServer: build.query<Guild, string>({
      query: (server) => ({ path: `/api/guilds/${encodeURIComponent(server)}` }),
    }),
  }),
});

export const { useGetServerQuery } = serverApi;

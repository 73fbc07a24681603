import { api, type GuildWithAccess } from '@tickety/shared';

/** The server dashboard frame's one call: may the user open this server, and what may they do there (the API decides)? */
export const serverApi = api.injectEndpoints({
  endpoints: (build) => ({
    getServer: build.query<GuildWithAccess, string>({
      query: (server) => ({ path: `/api/guilds/${encodeURIComponent(server)}` }),
    }),
  }),
});

export const { useGetServerQuery } = serverApi;

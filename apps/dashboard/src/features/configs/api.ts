/**
 * The Panel Menu's requests (RTK Query endpoints on the one shared API): the server's configuration
 * (`/api/guilds/:server/config`), its channels, roles and emojis (`/resources`) and where its panels
 * are posted (`/posts`).
 * - The configuration read goes through the overlay: a failure shows "Request Failed" with Retry.
 * - A save never does (`overlay: false`): the editor shows 1001 at the field and 1013 as a conflict.
 * - Resources and posts are background reads (`overlay: false`): the pickers and the list say inline
 *   when they cannot be loaded, with their own Retry.
 */
import type { PanelPost, PostKind, ServerConfig, ServerConfigAnswer, ServerResources } from '@tickety/api-contract';
import { api } from '@tickety/shared';

/** The live configuration as the editor uses it (the API checked it against the schema). */
export interface LiveConfig extends Omit<ServerConfigAnswer, 'config'> {
  config: ServerConfig;
}

interface SaveConfigArgs {
  server: string;
  expectedVersion: number;
  config: ServerConfig;
}

const base = (server: string) => `/api/guilds/${encodeURIComponent(server)}`;

export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    serverConfig: build.query<LiveConfig, string>({
      query: (server) => ({ path: `${base(server)}/config` }),
      providesTags: (_result, _error, server) => [{ type: 'ServerConfig', id: server }],
    }),
    saveServerConfig: build.mutation<LiveConfig, SaveConfigArgs>({
      query: ({ server, expectedVersion, config }) => ({ path: `${base(server)}/config`, method: 'PUT', body: { expectedVersion, config }, overlay: false }),
      // The answer is the new live version: every view of the configuration shows it at once.
      async onQueryStarted({ server }, { dispatch, queryFulfilled }) {
        try {
          placeLiveConfig(dispatch, server, (await queryFulfilled).data);
        } catch {
          // The caller shows the failure.
        }
      },
      invalidatesTags: (result, _error, { server }) => (result ? savedTags(server) : []),
    }),
    serverResources: build.query<ServerResources, string>({
      query: (server) => ({ path: `${base(server)}/resources`, overlay: false }),
      keepUnusedDataFor: 120,
    }),
    /** Reads Discord again (`?refresh=1`): what a send decides on, and the pickers show it. */
    refreshServerResources: build.mutation<ServerResources, string>({
      query: (server) => ({ path: `${base(server)}/resources`, query: { refresh: 1 }, overlay: false }),
      async onQueryStarted(server, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(configApi.util.upsertQueryData('serverResources', server, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
    /**
     * The live configuration, only for the names of panels and multi-panels in the changes. A
     * background read: without it (a failure, no access to the Panel Menu) the changes name them by
     * what they carry, else by id.
     */
    configNames: build.query<{ config: Record<string, unknown> }, string>({
      query: (server) => ({ path: `/api/guilds/${encodeURIComponent(server)}/config`, overlay: false }),
      providesTags: (_result, _error, server) => [{ type: 'ServerConfig', id: server }],
      keepUnusedDataFor: 60,
    }),
    panelPosts: build.query<{ posts: PanelPost[] }, string>({
      query: (server) => ({ path: `${base(server)}/posts`, overlay: false }),
      providesTags: (_result, _error, server) => [{ type: 'PanelPosts', id: server }],
    }),
    /** The bot posts the item's saved message in a channel. */
    sendPanel: build.mutation<PanelPost, { server: string; kind: PostKind; id: string; channelId: string }>({
      query: ({ server, ...body }) => ({ path: `${base(server)}/posts`, method: 'POST', body, overlay: false }),
      onQueryStarted: ({ server }, api) => rememberPost(server, api),
      invalidatesTags: (_result, _error, { server }) => [{ type: 'WebLog', id: server }],
    }),
    /** The bot edits the posted message in place to show the saved configuration. */
    updatePost: build.mutation<PanelPost, { server: string; kind: PostKind; id: string }>({
      query: ({ server, kind, id }) => ({ path: `${base(server)}/posts/${kind}/${encodeURIComponent(id)}/update`, method: 'POST', overlay: false }),
      onQueryStarted: ({ server }, api) => rememberPost(server, api),
      // A refusal may mean the message is gone from Discord: the posts are read again to show it.
      invalidatesTags: (result, _error, { server }) => (result ? [{ type: 'WebLog', id: server }] : [{ type: 'PanelPosts', id: server }, { type: 'WebLog', id: server }]),
    }),
  }),
});

/** What a new live version makes out of date: the version list, the posts' states, the Web Logs. */
export function savedTags(server: string) {
  return [
    { type: 'ConfigVersions' as const, id: server },
    { type: 'PanelPosts' as const, id: server },
    { type: 'WebLog' as const, id: server },
  ];
}

/** A write answered with the new live version: the reads of the configuration show it without asking again. */
export function placeLiveConfig(dispatch: (action: unknown) => unknown, server: string, data: ServerConfigAnswer): void {
  dispatch(configApi.util.upsertQueryData('serverConfig', server, data as LiveConfig));
  dispatch(configApi.util.upsertQueryData('configNames', server, data));
}

/** A post the API answered replaces the item's earlier one in the list of posts. */
async function rememberPost(
  server: string,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: PanelPost }> },
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    dispatch(
      configApi.util.updateQueryData('panelPosts', server, (list) => {
        list.posts = [...list.posts.filter((p) => !(p.kind === data.kind && p.id === data.id)), data];
      }),
    );
  } catch {
    // The caller shows the failure.
  }
}

export const {
  useServerConfigQuery,
  useSaveServerConfigMutation,
  useServerResourcesQuery,
  useConfigNamesQuery,
  useRefreshServerResourcesMutation,
  usePanelPostsQuery,
  useSendPanelMutation,
  useUpdatePostMutation,
} = configApi;

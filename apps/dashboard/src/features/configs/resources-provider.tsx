/**
 * The server's channels, roles and emojis for the configuration's editors (the Panel Menu's and the
 * Automation page's): the pickers read them from `ResourcesContext`, the live preview resolves
 * mentions and emojis through `DiscordNamesContext`. The page holds the read; this reads its cache.
 */
import { useRuntimeConfig } from '@tickety/shared';
import { type ReactNode, useMemo } from 'react';
import { type DiscordNames, DiscordNamesContext } from '../../components/discord/markdown-view';
import { configApi } from './api';
import { emojiUrl } from './discord-cdn';
import { ResourcesContext, type ResourcesState } from './pickers';

export function ServerResourcesProvider({ server, retry, children }: { server: string; retry(): void; children: ReactNode }) {
  const runtime = useRuntimeConfig();
  const query = configApi.endpoints.serverResources.useQueryState(server);
  const resources = useMemo<ResourcesState>(
    () => ({ data: query.data, loading: query.data === undefined && !query.isError, error: query.error, retry }),
    [query.data, query.isError, query.error, retry],
  );
  const names = useMemo<DiscordNames>(
    () => ({
      loaded: query.data !== undefined,
      roles: new Map((query.data?.roles ?? []).map((r) => [r.id, r])),
      channels: new Map((query.data?.channels ?? []).map((c) => [c.id, c])),
      emojiUrl: (id, animated) => emojiUrl(runtime.discordOrigin, id, animated),
    }),
    [query.data, runtime.discordOrigin],
  );
  return (
    <ResourcesContext.Provider value={resources}>
      <DiscordNamesContext.Provider value={names}>{children}</DiscordNamesContext.Provider>
    </ResourcesContext.Provider>
  );
}

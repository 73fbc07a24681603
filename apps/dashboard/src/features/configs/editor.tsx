/**
 * The Panel Menu's editors, one lazily loaded chunk (with the shared schema, the markdown parser and
 * the live preview): a panel, a multi-panel, or the general settings with dashboard access. Gives them
 * the server's channels, roles and emojis and the names mentions resolve to.
 */
import { useRuntimeConfig } from '@tickety/shared';
import { useMemo } from 'react';
import { type DiscordNames, DiscordNamesContext } from '../../components/discord/markdown-view';
import { configApi } from './api';
import { emojiUrl } from './discord-cdn';
import type { EditorProps } from './editor-props';
import { MultiPanelEditor } from './multi-panel-editor';
import { PanelEditor } from './panel-editor';
import { ResourcesContext, type ResourcesState } from './pickers';
import { usePanelMenuReads } from './reads';
import { SettingsEditor } from './settings-editor';

type MenuEditorProps = Omit<EditorProps, 'view'> & { view: EditorProps['view'] | { kind: 'settings' } };

export default function MenuEditor(props: MenuEditorProps) {
  const runtime = useRuntimeConfig();
  // The route holds the read (route.tsx): the editor reads the cache, and Retry asks the route.
  const query = configApi.endpoints.serverResources.useQueryState(props.server);
  const { refetchResources } = usePanelMenuReads();
  const resources = useMemo<ResourcesState>(
    () => ({ data: query.data, loading: query.data === undefined && !query.isError, error: query.error, retry: refetchResources }),
    [query.data, query.isError, query.error, refetchResources],
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
  const { view } = props;
  return (
    <ResourcesContext.Provider value={resources}>
      <DiscordNamesContext.Provider value={names}>
        {view.kind === 'settings' ? <SettingsEditor {...props} view={view} /> : view.kind === 'panel' ? <PanelEditor {...props} view={view} /> : <MultiPanelEditor {...props} view={view} />}
      </DiscordNamesContext.Provider>
    </ResourcesContext.Provider>
  );
}

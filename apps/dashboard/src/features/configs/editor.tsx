/**
 * The Panel Menu's editors, one lazily loaded chunk (with the shared schema, the markdown parser and
 * the live preview): a panel, a multi-panel, or the general settings with dashboard access. Gives them
 * the server's channels, roles and emojis and the names mentions resolve to.
 */
import type { EditorProps } from './editor-props';
import { MultiPanelEditor } from './multi-panel-editor';
import { PanelEditor } from './panel-editor';
import { usePanelMenuReads } from './reads';
import { ServerResourcesProvider } from './resources-provider';
import { SettingsEditor } from './settings-editor';

type MenuEditorProps = Omit<EditorProps, 'view'> & { view: EditorProps['view'] | { kind: 'settings' } };

export default function MenuEditor(props: MenuEditorProps) {
  // The route holds the read (route.tsx): the editor reads the cache, and Retry asks the route.
  const { refetchResources } = usePanelMenuReads();
  const { view } = props;
  return (
    <ServerResourcesProvider server={props.server} retry={refetchResources}>
      {view.kind === 'settings' ? <SettingsEditor {...props} view={view} /> : view.kind === 'panel' ? <PanelEditor {...props} view={view} /> : <MultiPanelEditor {...props} view={view} />}
    </ServerResourcesProvider>
  );
}

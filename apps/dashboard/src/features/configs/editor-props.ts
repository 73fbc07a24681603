import type { LiveConfig } from './api';
import type { MenuView } from './config-draft';
import type { DraftStash } from './stash';

/** What the page gives an editor. */
export interface EditorProps {
  server: string;
  view: Extract<MenuView, { kind: 'panel' | 'multi' }>;
  live: LiveConfig;
  /** A draft kept from an earlier visit to this editor. */
  restored: DraftStash | null;
  /** "Saved: version 7." after a save that reopened this editor. */
  flash: string | null;
  onRestored(): void;
  onLeftDirty(stash: DraftStash): void;
  onSaved(live: LiveConfig, view: MenuView): void;
  onRefetch(): Promise<LiveConfig>;
}

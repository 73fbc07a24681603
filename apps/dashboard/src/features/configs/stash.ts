import type { LiveConfig } from './api';
import type { MenuView } from './config-draft';

/** A draft whose editor was left with changes (without the warning: the browser's Back button). */
export interface DraftStash {
  /** The editor it belongs to (`viewKey`). */
  key: string;
  view: MenuView;
  /** What the user calls it (the panel's name). */
  label: string;
  draft: unknown;
  /** The configuration the draft started from (a save checks its version). */
  base: LiveConfig;
}

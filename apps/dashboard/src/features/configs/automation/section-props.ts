import type { LiveConfig } from '../api';

/** The Automation page's tabs, in order (`?tab=`; none: the overview). */
export const AUTOMATION_TABS = ['auto-close', 'tags', 'blocklist', 'feedback'] as const;
export type AutomationTab = (typeof AUTOMATION_TABS)[number];

/**
 * What the Automation page gives each tab's section (a lazy module, default export). The page holds
 * the reads; the section host (`section-host.tsx`) gives the server's channels, roles and emojis in
 * `ResourcesContext` and `DiscordNamesContext`. A section edits its part of the configuration with
 * `useConfigEditor` and saves the whole configuration against `live.version`.
 */
export interface SectionProps {
  server: string;
  live: LiveConfig;
  /** After a save: the page shows "Saved: version N." and reads from the new version. */
  onSaved(live: LiveConfig): void;
  /** Reads the configuration again (after a conflict). */
  onRefetch(): Promise<LiveConfig>;
  /** Reads the server's channels, roles and emojis again (the pickers' Retry). */
  retryResources(): void;
}

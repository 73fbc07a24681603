/**
 * Pure helpers over a server configuration for the Panel Menu's list: removing a panel everywhere it
 * is offered, where the page is (its view in the address). No zod here (the list's chunk stays small):
 * the editor checks drafts with the shared schema; its own helpers are in ./config-edit.ts.
 */
import type { MultiPanel, ServerConfig } from '@tickety/api-contract';

/** The configuration without panel `id`, also taken out of every multi-panel offering it. */
export function withoutPanel(config: ServerConfig, id: string): ServerConfig {
  return {
    ...config,
    panels: config.panels.filter((p) => p.id !== id),
    multiPanels: config.multiPanels.map((m) => (m.panelIds.includes(id) ? { ...m, panelIds: m.panelIds.filter((p) => p !== id) } : m)),
  };
}

/** The configuration without multi-panel `id`. */
export function withoutMultiPanel(config: ServerConfig, id: string): ServerConfig {
  return { ...config, multiPanels: config.multiPanels.filter((m) => m.id !== id) };
}

/** The multi-panels that offer panel `id`. */
export function offeredBy(config: ServerConfig, id: string): MultiPanel[] {
  return config.multiPanels.filter((m) => m.panelIds.includes(id));
}

/** Where the Panel Menu is: the list, or an editor (from the address's query). */
export type MenuView =
  | { kind: 'list' }
  | { kind: 'settings' }
  | { kind: 'panel' | 'multi'; id: string | null; copy: string | null };

export function viewOf(params: URLSearchParams): MenuView {
  const edit = params.get('edit');
  if (edit === 'panel' || edit === 'multi') return { kind: edit, id: params.get('id'), copy: params.get('copy') };
  if (params.get('tab') === 'settings') return { kind: 'settings' };
  return { kind: 'list' };
}

/** The query of a view (for typed hrefs). */
export function queryOf(view: MenuView): Record<string, string | undefined> {
  switch (view.kind) {
    case 'list':
      return {};
    case 'settings':
      return { tab: 'settings' };
    default:
      return { edit: view.kind, id: view.id ?? undefined, copy: view.copy ?? undefined };
  }
}

/** A stable name of a view (an editor's identity: its draft belongs to it). */
export function viewKey(view: MenuView): string {
  if (view.kind === 'panel' || view.kind === 'multi') return `${view.kind}:${view.id ?? `new${view.copy ? `:${view.copy}` : ''}`}`;
  return view.kind;
}

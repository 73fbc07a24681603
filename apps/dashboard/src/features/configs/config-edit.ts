/**
 * The editors' helpers over a server configuration: new and copied panels and their ids, an item put
 * in place. Apart from ./config-draft.ts, so the Panel Menu's list does not carry them (they come with
 * the editors' chunk).
 */
import type { MultiPanel, Panel, ServerConfig } from '@tickety/api-contract';

/** Most characters of a panel or multi-panel id (the contract's ShortId). */
const ID_MAX = 32;
/** Most characters of a name (the contract's channel-name limit). */
const NAME_MAX = 100;

/** Every id a panel or multi-panel uses (they share one id space). */
export function usedIds(config: ServerConfig): Set<string> {
  return new Set([...config.panels.map((p) => p.id), ...config.multiPanels.map((m) => m.id)]);
}

/** `prefix-1`, `prefix-2`, …: the first one not used yet. */
export function freeId(used: ReadonlySet<string>, prefix: string): string {
  for (let n = 1; ; n++) {
    const id = `${prefix}-${n}`.slice(0, ID_MAX);
    if (!used.has(id)) return id;
  }
}

/** The id of a copy of `id`: `id-copy`, then `id-copy-2`, … (within the 32-character limit). */
export function copyId(used: ReadonlySet<string>, id: string): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    const candidate = id.slice(0, ID_MAX - suffix.length) + suffix;
    if (!used.has(candidate)) return candidate;
  }
}

/** Cuts a name to the 100-character limit (counted in code points, as Discord does). */
function fitName(name: string): string {
  const points = [...name];
  return points.length <= NAME_MAX ? name : points.slice(0, NAME_MAX).join('');
}

/** A new panel with the texts the reader sees first (their language), every optional part unset. */
export { newPanel } from '@tickety/api-contract';

/** A new multi-panel offering `panelIds` as buttons. */
export function newMultiPanel(id: string, panelIds: string[], texts: { name: string; title: string; description: string }): MultiPanel {
  return {
    id,
    name: texts.name,
    embed: { title: texts.title, description: texts.description, colour: 0x5865f2, imageUrl: null, thumbnailUrl: null, footer: '' },
    mode: 'buttons',
    panelIds,
    selectPlaceholder: null,
  };
}

/** A copy of a panel or multi-panel under a new id, named "<name> (copy)" in the reader's words. */
export function copyOf<T extends Panel | MultiPanel>(item: T, id: string, name: string): T {
  return { ...structuredClone(item), id, name: fitName(name) };
}

/** `config` with `item` in place of the panel of the same id, or appended when it is new. */
export function withPanel(config: ServerConfig, item: Panel, replacing: string | null): ServerConfig {
  const index = replacing === null ? -1 : config.panels.findIndex((p) => p.id === replacing);
  const panels = [...config.panels];
  if (index === -1) panels.push(item);
  else panels[index] = item;
  return { ...config, panels };
}

/** `config` with `item` in place of the multi-panel of the same id, or appended when it is new. */
export function withMultiPanel(config: ServerConfig, item: MultiPanel, replacing: string | null): ServerConfig {
  const index = replacing === null ? -1 : config.multiPanels.findIndex((m) => m.id === replacing);
  const multiPanels = [...config.multiPanels];
  if (index === -1) multiPanels.push(item);
  else multiPanels[index] = item;
  return { ...config, multiPanels };
}

/** A deep equality good enough for plain JSON values (drafts against what was saved). */
export function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

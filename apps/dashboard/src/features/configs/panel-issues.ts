import { Panel } from '@tickety/api-contract';

/** Whether the shared schema's panel rules accept a panel (kept per panel object: a draft is immutable). */
const accepted = new WeakMap<Panel, boolean>();
function panelPasses(panel: Panel): boolean {
  let passes = accepted.get(panel);
  if (passes === undefined) {
    passes = Panel.safeParse(panel).success;
    accepted.set(panel, passes);
  }
  return passes;
}

/**
 * Whether a configuration with the panel `next` in place of `previous` has exactly the issues it had:
 * the panel's own rules accept both (so it adds none before or after), and nothing the
 * configuration-wide rules read of a panel (its id, its name in a duplicate-id message, whether it has
 * support hours) differs. Then the whole configuration (a hundred panels) need not be checked again
 * on a keystroke; any other change is checked in full.
 */
export function panelIssuesUnchanged(previous: Panel, next: Panel): boolean {
  if (previous === next) return true;
  return previous.id === next.id && previous.name === next.name && (previous.supportHours === null) === (next.supportHours === null) && panelPasses(previous) && panelPasses(next);
}

import { type Composition, composeRouteTables, REMOTE_IDS, type RuntimeConfig } from '@tickety/shared';

/**
 * The site's pages: the remotes' route tables from config.json, checked and put together. A table
 * that is malformed, or a mount two remotes claim, is refused loudly in the console; only that
 * remote's addresses are affected.
 */
export function composeSite(config: RuntimeConfig): Composition {
  const tables: Partial<Record<(typeof REMOTE_IDS)[number], unknown>> = {};
  for (const id of REMOTE_IDS) {
    const entry = config.remotes[id];
    if (entry) tables[id] = entry.routes;
  }
  const composition = composeRouteTables(tables);
  for (const problem of composition.problems) console.error(`config.json: ${problem.message}`);
  return composition;
}

import type { RuntimeConfig } from '@tickety/shared';
import { loadRuntimeConfig } from './config';

/**
 * config.json is requested by the entry chunk, before React and the rest of the shell have even
 * downloaded, so it arrives in parallel with them instead of after them. No React here (the entry
 * runs before Module Federation's async boundary).
 */
let early: Promise<RuntimeConfig> | null = null;

export function requestConfigEarly(): Promise<RuntimeConfig> {
  early ??= loadRuntimeConfig();
  // Handled where it is awaited (bootstrap); never an unhandled rejection in between.
  early.catch(() => undefined);
  return early;
}

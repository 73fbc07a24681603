// Types only: this module runs in the entry chunk, before Module Federation has negotiated the shared
// singletons (@tickety/shared among them), so it may not import any of their values.
import type { RemoteId, RuntimeConfig } from '@tickety/shared';

const REQUIRED_STRINGS = ['productName', 'apiOrigin', 'docsUrl', 'supportUrl', 'inviteUrl', 'discordClientId', 'discordOrigin'] as const;

export class ConfigLoadError extends Error {
  override name = 'ConfigLoadError';
}

/** Checks config.json's shape without zod (the shell stays small); throws a readable error. */
export function parseRuntimeConfig(value: unknown, base: string = globalThis.location?.href ?? 'http://localhost/'): RuntimeConfig {
  if (typeof value !== 'object' || value === null) throw new ConfigLoadError('config.json is not a JSON object.');
  const v = value as Record<string, unknown>;
  for (const key of REQUIRED_STRINGS) {
    if (typeof v[key] !== 'string' || v[key] === '') throw new ConfigLoadError(`config.json: "${key}" must be a non-empty string.`);
  }
  const remotes = v.remotes as Record<string, unknown> | undefined;
  if (typeof remotes !== 'object' || remotes === null || Array.isArray(remotes)) throw new ConfigLoadError('config.json: "remotes" must list the deployed remotes.');
  const entries: RuntimeConfig['remotes'] = {};
  for (const [r, value] of Object.entries(remotes)) {
    const entry = value as Record<string, unknown> | undefined;
    if (typeof entry !== 'object' || entry === null || typeof entry.manifest !== 'string' || entry.manifest === '') {
      throw new ConfigLoadError(`config.json: "remotes.${r}" must be { manifest, version, routes }.`);
    }
    entries[r as RemoteId] = {
      // A site-relative manifest URL (/remotes/<name>/<version>/mf-manifest.json) is resolved here.
      manifest: new URL(entry.manifest, base).href,
      version: typeof entry.version === 'string' ? entry.version : null,
      routes: entry.routes,
    };
  }
  for (const key of ['paddleToken', 'analyticsToken'] as const) {
    if (v[key] !== null && v[key] !== undefined && typeof v[key] !== 'string') throw new ConfigLoadError(`config.json: "${key}" must be a string or null.`);
  }
  return {
    productName: v.productName as string,
    apiOrigin: v.apiOrigin as string,
    remotes: entries,
    docsUrl: v.docsUrl as string,
    supportUrl: v.supportUrl as string,
    inviteUrl: v.inviteUrl as string,
    discordClientId: v.discordClientId as string,
    discordOrigin: v.discordOrigin as string,
    paddleToken: (v.paddleToken as string | null | undefined) ?? null,
    analyticsToken: (v.analyticsToken as string | null | undefined) ?? null,
    demo: v.demo === true,
  };
}

/** Reads /config.json next to the shell (no-cache: a changed remote URL takes effect on reload). */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let res: Response;
  try {
    res = await fetchImpl('/config.json', { cache: 'no-cache', headers: { accept: 'application/json' } });
  } catch {
    throw new ConfigLoadError('Could not reach the server to read its configuration. Check your connection.');
  }
  if (!res.ok) throw new ConfigLoadError(`The server's configuration could not be read (HTTP ${res.status}).`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ConfigLoadError('config.json is not valid JSON.');
  }
  return parseRuntimeConfig(body);
}


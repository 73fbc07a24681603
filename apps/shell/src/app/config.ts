// The entry chunk runs this before Module Federation has negotiated the shared singletons
// (@tickety/shared among them): types only from there. The check is the contract's, without zod
// (runtime-config-check.ts: the schema's rules, held equal to it by its test).
import { readRuntimeConfig, runtimeConfigProblem } from '@tickety/api-contract';
import type { RemoteId, RuntimeConfig } from '@tickety/shared';

/** Why config.json could not be used: the start screen says so in the reader's language (bootstrap.tsx). */
export type ConfigFailure = { kind: 'unreachable' } | { kind: 'http'; status: number } | { kind: 'json' } | { kind: 'invalid' };

/** config.json could not be used. `message` is English, for the console; `failure` says why. */
export class ConfigLoadError extends Error {
  override name = 'ConfigLoadError';
  constructor(
    message: string,
    readonly failure: ConfigFailure = { kind: 'invalid' },
  ) {
    super(message);
  }
}

/** Checks config.json against the contract; throws a readable error. Site-relative manifest URLs are resolved. */
export function parseRuntimeConfig(value: unknown, base: string = globalThis.location?.href ?? 'http://localhost/'): RuntimeConfig {
  const problem = runtimeConfigProblem(value);
  if (problem !== null) throw new ConfigLoadError(problem);
  const config = readRuntimeConfig(value as Record<string, unknown>);
  const remotes: RuntimeConfig['remotes'] = {};
  for (const [id, entry] of Object.entries(config.remotes)) {
    // A site-relative manifest URL (/remotes/<name>/<version>/mf-manifest.json) is resolved here.
    if (entry) remotes[id as RemoteId] = { ...entry, manifest: new URL(entry.manifest, base).href };
  }
  return { ...config, remotes };
}

/** Reads /config.json next to the shell (no-cache: a changed remote URL takes effect on reload). */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let res: Response;
  try {
    res = await fetchImpl('/config.json', { cache: 'no-cache', headers: { accept: 'application/json' } });
  } catch {
    throw new ConfigLoadError('Could not reach the server to read its configuration. Check your connection.', { kind: 'unreachable' });
  }
  if (!res.ok) throw new ConfigLoadError(`The server's configuration could not be read (HTTP ${res.status}).`, { kind: 'http', status: res.status });
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ConfigLoadError('config.json is not valid JSON.', { kind: 'json' });
  }
  return parseRuntimeConfig(body);
}


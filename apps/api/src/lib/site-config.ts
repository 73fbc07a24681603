import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Composition, composeRouteTables, REMOTE_IDS, RemoteEntry, type RemoteId } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The site's composition as the API answers it: the remotes (manifest URL, version, route table)
 * and the live shell version, read from `<site>/config.json` (what `scripts/deploy.mjs` writes),
 * with REMOTE_<NAME>_URL overrides for development (the manifest URL from the environment, the
 * route table fetched from `routes.json` beside it).
 */

export type SiteRemotes = Partial<Record<RemoteId, RemoteEntry>>;

export interface SiteState {
  remotes: SiteRemotes;
  /** The live shell version, when the site's config.json says. */
  shell: { version: string } | null;
  /** The remotes' route tables put together (decides which addresses are pages). */
  composition: Composition;
}

interface SiteConfigOptions {
  /** The site folder (STATIC_ROOT). */
  root: string;
  /** REMOTE_<NAME>_URL: manifest URLs that replace the site's entries. */
  overrides: Partial<Record<RemoteId, string>>;
  log: FastifyBaseLogger;
  /** All-in-one: the site is expected, so a missing config.json is worth a warning. */
  required: boolean;
  /** How long a fetched routes.json is reused (ms). */
  overrideTtlMs?: number;
  /** How long a failed fetch is remembered before trying again (ms). */
  overrideFailureTtlMs?: number;
  /** Time limit of one routes.json fetch (ms). */
  overrideTimeoutMs?: number;
}

export interface SiteConfig {
  current(): Promise<SiteState>;
}

interface FileState {
  key: string;
  remotes: SiteRemotes;
  shell: { version: string } | null;
}

const EMPTY: FileState = { key: '', remotes: {}, shell: null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function createSiteConfig(opts: SiteConfigOptions): SiteConfig {
  const file = join(opts.root, 'config.json');
  const ttl = opts.overrideTtlMs ?? 5_000;
  const failureTtl = opts.overrideFailureTtlMs ?? 2_000;
  const timeout = opts.overrideTimeoutMs ?? 2_000;
  let fileState: FileState = EMPTY;
  let lastProblem: string | null = null;
  let lastComposition: { remotes: SiteRemotes; composition: Composition; signature: string } | null = null;
  const fetched = new Map<RemoteId, { expires: number; value: Promise<RemoteEntry | null> }>();

  /** Logs a problem with the file once (until it changes). */
  function problem(key: string, message: string, extra: Record<string, unknown> = {}) {
    if (lastProblem === key) return;
    lastProblem = key;
    opts.log.warn({ file, ...extra }, message);
  }

  function readFile(): FileState {
    let key: string;
    try {
      const stats = statSync(file);
      key = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
    } catch {
      if (opts.required) problem('missing', `the site has no config.json: no remotes are deployed (node scripts/deploy.mjs <app>, or npm start)`);
      fileState = EMPTY;
      return fileState;
    }
    if (key === fileState.key) return fileState;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problem(`unreadable:${key}`, 'the site config.json cannot be read as JSON: no remotes until it is fixed', { err: (error as Error).message });
      fileState = { ...EMPTY, key };
      return fileState;
    }
    if (!isRecord(raw)) {
      problem(`unreadable:${key}`, 'the site config.json is not a JSON object: no remotes until it is fixed');
      fileState = { ...EMPTY, key };
      return fileState;
    }
    const remotes: SiteRemotes = {};
    const given = isRecord(raw.remotes) ? raw.remotes : {};
    for (const id of REMOTE_IDS) {
      if (given[id] === undefined) continue;
      const entry = RemoteEntry.safeParse(given[id]);
      if (entry.success) remotes[id] = entry.data;
      else opts.log.warn({ file, remote: id }, `the site config.json has no valid entry for ${id} ({ manifest, version, routes }): left out`);
    }
    for (const name of Object.keys(given)) {
      if (!(REMOTE_IDS as readonly string[]).includes(name)) opts.log.warn({ file, remote: name }, `the site config.json names an unknown remote "${name}": ignored`);
    }
    const shell = isRecord(raw.shell) && typeof raw.shell.version === 'string' ? { version: raw.shell.version } : null;
    if (lastProblem !== null) opts.log.info({ file }, 'the site config.json is readable again');
    lastProblem = null;
    fileState = { key, remotes, shell };
    opts.log.debug({ file, remotes: Object.keys(remotes), shell: shell?.version ?? null }, 'site config.json read');
    return fileState;
  }

  async function fetchOverride(id: RemoteId, manifest: string): Promise<RemoteEntry | null> {
    const url = new URL('routes.json', manifest).href;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeout), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const routes: unknown = await res.json();
      return { manifest, version: null, routes };
    } catch (error) {
      const reason = error instanceof Error ? (error.name === 'TimeoutError' ? `no answer within ${timeout} ms` : error.message) : String(error);
      opts.log.warn({ remote: id, url, reason }, `REMOTE_${id.toUpperCase()}_URL: its routes.json could not be read; ${id} is left out of config.json`);
      return null;
    }
  }

  function override(id: RemoteId, manifest: string): Promise<RemoteEntry | null> {
    const now = Date.now();
    const cached = fetched.get(id);
    if (cached && cached.expires > now) return cached.value;
    const entry = { expires: Number.POSITIVE_INFINITY, value: fetchOverride(id, manifest) };
    fetched.set(id, entry);
    // Reused for a few seconds once settled (a failure for less), shared while in flight.
    void entry.value.then((v) => {
      entry.expires = Date.now() + (v ? ttl : failureTtl);
    });
    return entry.value;
  }

  function compose(remotes: SiteRemotes): Composition {
    // The same object (the file did not change): no work at all; an equal one (overrides refetched): no recomposition.
    if (lastComposition?.remotes === remotes) return lastComposition.composition;
    const signature = JSON.stringify(remotes);
    if (lastComposition?.signature === signature) {
      lastComposition = { ...lastComposition, remotes };
      return lastComposition.composition;
    }
    const composition = composeRouteTables(Object.fromEntries(Object.entries(remotes).map(([id, e]) => [id, e.routes])));
    for (const p of composition.problems) opts.log.warn({ remote: p.remote, mounts: p.mounts }, `route table refused: ${p.message}`);
    lastComposition = { remotes, composition, signature };
    return composition;
  }

  return {
    async current() {
      const state = readFile();
      const ids = Object.keys(opts.overrides) as RemoteId[];
      let remotes = state.remotes;
      if (ids.length > 0) {
        const entries = await Promise.all(ids.map(async (id) => [id, await override(id, opts.overrides[id]!)] as const));
        remotes = {};
        for (const id of REMOTE_IDS) {
          const entry = entries.find(([k]) => k === id);
          if (entry) {
            if (entry[1]) remotes[id] = entry[1];
          } else if (state.remotes[id]) remotes[id] = state.remotes[id];
        }
      }
      return { remotes, shell: state.shell, composition: compose(remotes) };
    },
  };
}

/**
 * Restore Configs (`/dashboard/:server/server-configs`): the requests of its versions, restores and
 * configuration files, and the helpers the page uses around them.
 * - `GET /config/versions` (paged), `GET /config/versions/:version`, `POST …/restore`;
 * - `GET /config/export[?version=N]` (a download: fetched as a blob, named from Content-Disposition);
 * - `POST /config/import/preview {file}` and `POST /config/import {file, expectedVersion}`;
 * - `POST /config/reset {expectedVersion, confirmName}` (the defaults as a new version).
 * None goes through the overlay: the page shows each failure in place, with its own Retry.
 */
import type { ImportPreview, ResetConfigAnswer, ServerConfigAnswer } from '@tickety/api-contract';
import { CONFIG_FILE_FORMAT, CONFIG_FILE_MAX_BYTES, fileNamePart } from '@tickety/api-contract/config-file-name';
import { ApiRequestError, type AppDispatch, api } from '@tickety/shared';
import type { ConfigChangeInput } from '../../lib/config-change-text';
import type { MessageKey } from './i18n';
import { saveBlob } from '../../lib/save-file';
import { configApi, placeLiveConfig, savedTags } from '../configs/api';


export interface VersionActor {
  id: string;
  name: string;
  avatarUrl: string | null;
}

/** One version as the list shows it. */
export interface VersionSummary {
  version: number;
  savedAt: string;
  savedBy: VersionActor;
  summary: string;
  restoredFrom: number | null;
}

interface VersionPage {
  versions: VersionSummary[];
  nextCursor: string | null;
}

/** One version with its configuration (`changes`: the API's own diff, not relied on here). */
export interface VersionDetail extends VersionSummary {
  config: Record<string, unknown>;
  changes: ConfigChangeInput[];
}

/** Versions a page of the list asks for. */
const VERSIONS_PAGE_SIZE = 25;

const base = (server: string) => `/api/guilds/${encodeURIComponent(server)}/config`;

/** The API's path of a configuration file's download (the live version without `version`). */
export function exportPath(server: string, version?: number): string {
  return `${base(server)}/export${version === undefined ? '' : `?version=${version}`}`;
}

/** After a restore or an import: the new live version everywhere the dashboard shows it (the Panel Menu too). */
function rememberLive(server: string, dispatch: AppDispatch, data: ServerConfigAnswer): void {
  dispatch(configVersionsApi.util.upsertQueryData('restoreLiveConfig', server, data));
  placeLiveConfig(dispatch, server, data);
}

const configVersionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The live configuration (its version is the one marked current, and what a restore is compared with). */
    restoreLiveConfig: build.query<ServerConfigAnswer, string>({
      query: (server) => ({ path: base(server), overlay: false }),
      providesTags: (_result, _error, server) => [{ type: 'ServerConfig', id: server }],
    }),
    /** The versions, newest first, a page at a time (`fetchNextPage` follows `nextCursor`). */
    configVersions: build.infiniteQuery<VersionPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        path: `${base(queryArg)}/versions`,
        query: { cursor: pageParam ?? undefined, limit: VERSIONS_PAGE_SIZE },
        overlay: false,
      }),
      providesTags: (_result, _error, server) => [{ type: 'ConfigVersions', id: server }],
      keepUnusedDataFor: 30,
    }),
    /** One version with its configuration. */
    configVersion: build.query<VersionDetail, { server: string; version: number }>({
      query: ({ server, version }) => ({ path: `${base(server)}/versions/${version}`, overlay: false }),
      keepUnusedDataFor: 120,
    }),
    /** Saves version `version`'s configuration as a new version (1013 when the live one is not `expectedVersion`). */
    restoreConfigVersion: build.mutation<ServerConfigAnswer, { server: string; version: number; expectedVersion: number }>({
      query: ({ server, version, expectedVersion }) => ({ path: `${base(server)}/versions/${version}/restore`, method: 'POST', body: { expectedVersion }, overlay: false }),
      async onQueryStarted({ server }, { dispatch, queryFulfilled }) {
        try {
          rememberLive(server, dispatch as AppDispatch, (await queryFulfilled).data);
        } catch {
          // The page shows the failure.
        }
      },
      invalidatesTags: (result, _error, { server }) => (result ? savedTags(server) : []),
    }),
    /** What importing `file` would do; writes nothing. */
    previewImport: build.mutation<ImportPreview, { server: string; file: unknown }>({
      query: ({ server, file }) => ({ path: `${base(server)}/import/preview`, method: 'POST', body: { file }, overlay: false }),
    }),
    /** Imports `file` as a new version (1013 when the live one is not the preview's). */
    applyImport: build.mutation<ServerConfigAnswer, { server: string; file: unknown; expectedVersion: number }>({
      query: ({ server, file, expectedVersion }) => ({ path: `${base(server)}/import`, method: 'POST', body: { file, expectedVersion }, overlay: false }),
      async onQueryStarted({ server }, { dispatch, queryFulfilled }) {
        try {
          rememberLive(server, dispatch as AppDispatch, (await queryFulfilled).data);
        } catch {
          // The page shows the failure.
        }
      },
      invalidatesTags: (result, _error, { server }) => (result ? savedTags(server) : []),
    }),
    /** Saves the defaults as a new version, confirmed with the server's name (1013 when the live one is not `expectedVersion`). */
    resetConfig: build.mutation<ResetConfigAnswer, { server: string; expectedVersion: number; confirmName: string }>({
      query: ({ server, expectedVersion, confirmName }) => ({ path: `${base(server)}/reset`, method: 'POST', body: { expectedVersion, confirmName }, overlay: false }),
      async onQueryStarted({ server }, { dispatch, queryFulfilled }) {
        try {
          const { postedPanels: _postedPanels, ...live } = (await queryFulfilled).data;
          rememberLive(server, dispatch as AppDispatch, live);
        } catch {
          // The dialog shows the failure.
        }
      },
      invalidatesTags: (result, _error, { server }) => (result ? savedTags(server) : []),
    }),
  }),
});

export const {
  useRestoreLiveConfigQuery,
  useConfigVersionsInfiniteQuery,
  useConfigVersionQuery,
  useRestoreConfigVersionMutation,
  usePreviewImportMutation,
  useApplyImportMutation,
  useResetConfigMutation,
} = configVersionsApi;

/* ------------------------------------------------------------------------------------------------
 * Configuration files: the download, and the checks made before a file is sent.
 * ---------------------------------------------------------------------------------------------- */

/**
 * The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename="…"`),
 * reduced to a safe base name; null when it names none.
 */
export function filenameOf(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[2]!.trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    if (plain) name = (plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1').trim();
  }
  if (!name) return null;
  // No folders, no control characters, nothing hidden.
  const safe = name
    .split(/[/\\]/)
    .pop()!
    .split('')
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/^\.+/, '')
    .trim();
  return safe || null;
}

/**
 * The name a download gets when the API's answer names none (another origin's Content-Disposition
 * is only readable when the API exposes it): the API's shape, `<server-name>-config-v<N>.json`.
 */
export function fallbackFileName(server: string, version?: number, serverName?: string | null): string {
  const name = fileNamePart(serverName ?? '');
  return `${name || `tickety-${server}`}-config${version === undefined ? '' : `-v${version}`}.json`;
}


/**
 * Downloads the configuration file of the live version (or `version`) from the API with the
 * session's cookie, and saves it under the name the API gives. Rejects with an ApiRequestError
 * (the API's error body when it sent one).
 */
export async function downloadConfigFile(
  apiOrigin: string,
  server: string,
  options: { version?: number; signal?: AbortSignal; fallbackName?: string } = {},
): Promise<string> {
  const { version, signal } = options;
  let res: Response;
  let blob: Blob;
  try {
    res = await fetch(apiOrigin + exportPath(server, version), { credentials: 'include', headers: { accept: 'application/json' }, signal });
    blob = await res.blob();
  } catch (cause) {
    if (signal?.aborted) throw new ApiRequestError('cancelled', 'Cancelled.', { cause });
    throw new ApiRequestError('network', 'The file could not be downloaded: the API did not answer.', { cause });
  }
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = JSON.parse(await blob.text());
    } catch {
      body = null;
    }
    const apiBody =
      body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number' && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { code: number; message: string; isAuthenticated?: unknown })
        : null;
    throw new ApiRequestError('http', apiBody?.message ?? `HTTP ${res.status}`, {
      status: res.status,
      body: apiBody ? { code: apiBody.code, message: apiBody.message, isAuthenticated: apiBody.isAuthenticated !== false } : null,
    });
  }
  const name = filenameOf(res.headers.get('content-disposition')) ?? options.fallbackName ?? fallbackFileName(server, version);
  saveBlob(name, blob.type ? blob : new Blob([blob], { type: 'application/json' }));
  return name;
}

/** Why a chosen file is not sent: too large, not JSON, or not a Tickety configuration file. */
type FileProblem = { kind: 'empty' } | { kind: 'tooLarge'; bytes: number } | { kind: 'notJson'; detail: string } | { kind: 'notConfigFile' };

type ReadFile = { ok: true; file: unknown; name: string; bytes: number } | { ok: false; name: string; problem: FileProblem };

/**
 * Reads a chosen file and checks what the browser can: its size (CONFIG_FILE_MAX_BYTES, before
 * reading it), that it is JSON, and that it says it is a Tickety configuration file. The API checks
 * everything again (signature, schema, size).
 */
export async function readConfigFile(file: Blob & { name?: string }): Promise<ReadFile> {
  const name = file.name ?? '';
  if (file.size === 0) return { ok: false, name, problem: { kind: 'empty' } };
  if (file.size > CONFIG_FILE_MAX_BYTES) return { ok: false, name, problem: { kind: 'tooLarge', bytes: file.size } };
  const text = await file.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, name, problem: { kind: 'notJson', detail: error instanceof Error ? error.message : String(error) } };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || (parsed as { format?: unknown }).format !== CONFIG_FILE_FORMAT) {
    return { ok: false, name, problem: { kind: 'notConfigFile' } };
  }
  return { ok: true, file: parsed, name, bytes: file.size };
}

/** Kilobytes, rounded up to a tenth ("512 KB", "12.5 KB"). */
export function kilobytes(bytes: number): number {
  return Math.ceil((bytes / 1024) * 10) / 10;
}

/* ------------------------------------------------------------------------------------------------
 * Reading a configuration.
 * ---------------------------------------------------------------------------------------------- */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A field path of the API's mapping (`panels.0.supportRoleIds.2`, `panels.0.form.1.label`) in the
 * diff's form (`panels[support].supportRoleIds`, `panels[support].form[q1].label`): list items that
 * have an id are named by it, the index of other items (a role in a list, an access rule) is left out.
 */
export function idPath(path: string, config: unknown): string {
  let node: unknown = config;
  let out = '';
  for (const segment of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) {
      const item: unknown = node[Number(segment)];
      if (isObject(item) && typeof item.id === 'string') out += `[${item.id}]`;
      node = item;
      continue;
    }
    out += out ? `.${segment}` : segment;
    node = isObject(node) ? node[segment] : undefined;
  }
  return out;
}

/** Panels and multi-panels of a configuration by id, with their names (for the posted items a restore leaves outdated). */
function itemNames(config: unknown): Map<string, string> {
  const names = new Map<string, string>();
  if (!isObject(config)) return names;
  for (const key of ['panels', 'multiPanels'] as const) {
    const list = config[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) if (isObject(item) && typeof item.id === 'string') names.set(`${key === 'panels' ? 'panel' : 'multiPanel'}:${item.id}`, typeof item.name === 'string' ? item.name : item.id);
  }
  return names;
}

/**
 * The posted panels and multi-panels whose message no longer shows the live configuration (after a
 * restore or an import): asks the API for the posts again (the Panel Menu's list shows the same).
 * Null when they cannot be read (no access to the Panel Menu, a failure): the page then says it in
 * general terms.
 */
export async function outdatedPosts(dispatch: AppDispatch, server: string, config: unknown): Promise<string[] | null> {
  const request = dispatch(configApi.endpoints.panelPosts.initiate(server, { forceRefetch: true }));
  try {
    const { posts } = await request.unwrap();
    const names = itemNames(config);
    return posts.filter((post) => post.state === 'outdated').map((post) => names.get(`${post.kind}:${post.id}`) ?? post.id);
  } catch {
    return null;
  } finally {
    request.unsubscribe();
  }
}

/** The message key of a chosen file's problem. */
export const FILE_PROBLEM: Record<FileProblem['kind'], MessageKey> = {
  empty: 'restore.import.problem.empty',
  tooLarge: 'restore.import.problem.tooLarge',
  notJson: 'restore.import.problem.notJson',
  notConfigFile: 'restore.import.problem.notConfigFile',
};

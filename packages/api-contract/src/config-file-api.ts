/**
 * Configuration files: a server's configuration exported as a signed file and imported again, on the
 * same server or another one the user manages (`/api/guilds/:server/config/export` and `/import`).
 * The signature (HMAC-SHA256 with a server-side key named by `keyId`) proves Tickety wrote the file
 * and nothing changed since; docs/api.md ("Configuration files") documents the key and its rotation.
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';
import { ConfigChange, VERSION_MAX } from './server-config-api';

import { CONFIG_FILE_FORMAT } from './config-file-name';

export { CONFIG_FILE_FORMAT, CONFIG_FILE_MAX_BYTES, fileNamePart } from './config-file-name';

/**
 * The file as exported. `signature` is base64url HMAC-SHA256 over the canonical JSON (keys sorted, no
 * spaces) of every other field; `config` is checked by `serverConfigSchema` when imported.
 */
export const ConfigFile = z.object({
  format: z.literal(CONFIG_FILE_FORMAT),
  /** The configuration's schema version (`SERVER_CONFIG_SCHEMA_VERSION` when exported). */
  schemaVersion: z.number().int().positive(),
  serverId: Snowflake,
  serverName: z.string(),
  /** The configuration version exported. */
  version: z.number().int().nonnegative(),
  exportedAt: z.string(),
  /** The names of the server's channels and roles the configuration refers to, by id (for mapping elsewhere). */
  names: z.object({ channels: z.record(z.string(), z.string()), roles: z.record(z.string(), z.string()) }),
  config: z.record(z.string(), z.unknown()),
  keyId: z.string().min(1).max(64),
  signature: z.string().min(1).max(200),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

/** `GET /api/guilds/:server/config/export?version=N` (the live version without one): the file, as a download. */
export const ConfigExportQuery = z.object({ version: z.coerce.number().int().positive().max(VERSION_MAX).optional() });

/** A channel or role of the file that has no counterpart (by name) on this server. */
export const UnmappedReference = z.object({
  kind: z.enum(['channel', 'role']),
  /** Its id on the file's server. */
  id: z.string(),
  /** Its name there ('' when the file does not know it). */
  name: z.string(),
  /** Where the configuration uses it, as field paths ("panels.0.categoryId"). */
  paths: z.array(z.string()),
});
export type UnmappedReference = z.infer<typeof UnmappedReference>;

/** `POST /api/guilds/:server/config/import/preview` and `/import`: the file as read from disk. */
export const ImportConfigBody = z.object({ file: z.unknown() });
/** Applying: the version the preview was made against (a newer live version is a conflict, 1013). */
export const ApplyImportBody = z.object({ file: z.unknown(), expectedVersion: z.number().int().nonnegative() });

/**
 * What an import would do, before anything is written: the file's origin, the configuration as it
 * would be saved (ids mapped to this server's channels and roles by name, unmapped ones removed), the
 * field-level changes against the live version, and what could not be mapped.
 */
export const ImportPreview = z.object({
  from: z.object({ serverId: Snowflake, serverName: z.string(), version: z.number().int().nonnegative(), exportedAt: z.string() }),
  sameServer: z.boolean(),
  /** The live version the preview compares with (send it back as `expectedVersion`). */
  liveVersion: z.number().int().nonnegative(),
  config: z.record(z.string(), z.unknown()),
  changes: z.array(ConfigChange),
  unmapped: z.array(UnmappedReference),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

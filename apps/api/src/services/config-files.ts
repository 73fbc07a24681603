/**
 * Configuration files: a server's configuration exported as a signed file and imported again, on the
 * same server or another one. The format is `ConfigFile` (packages/api-contract, config-file-api.ts);
 * the signature, the import's checks and how channels and roles are mapped are in
 * docs/api.md#configuration-file-signing-and-mapping.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_MAX_BYTES,
  ConfigFile,
  canonicalJson,
  diffConfig,
  fileNamePart,
  type Guild,
  type ImportPreview,
  SERVER_CONFIG_SCHEMA_VERSION,
  type ServerChannel,
  type ServerConfig,
  type ServerResources,
  serverConfigSchema,
  type UnmappedReference,
} from '@tickety/api-contract';
import type { ZodError } from 'zod';
import type { ConfigFileKey } from '../config';
import type { Clock } from '../lib/clock';
import { ApiHttpError } from '../lib/errors';
import { type LiveConfig, type ServerConfigs, type ServerLimits, stampBlocklist } from './server-config';
import type { ServerResourcesCache } from './server-resources';

/** The fields of a file that the signature covers: all but `signature`. */
type UnsignedConfigFile = Omit<ConfigFile, 'signature'>;

/** The signature of `fields` (a file without its `signature`) under `secret`: base64url HMAC-SHA256. */
function signatureOf(fields: Record<string, unknown>, secret: Buffer): string {
  return createHmac('sha256', secret).update(canonicalJson(fields), 'utf8').digest('base64url');
}

/** A file signed with `key`: `keyId` set to the key's id and the signature added. */
function signConfigFile(fields: Omit<UnsignedConfigFile, 'keyId'>, key: ConfigFileKey): ConfigFile {
  const unsigned: UnsignedConfigFile = { ...fields, keyId: key.id };
  return { ...unsigned, signature: signatureOf(unsigned, key.secret) };
}

/** "512 KB". */
function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

function reject(message: string): ApiHttpError {
  return new ApiHttpError('CONFIG_FILE_REJECTED', { message });
}

/** The 1001 answer for a configuration the schema refuses: the first problem with its field, as PUT /config says it. */
function invalid(error: ZodError): ApiHttpError {
  const [first, ...rest] = error.issues;
  const where = first?.path.join('.') || 'config';
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
  return new ApiHttpError('VALIDATION_FAILED', { message: `${where}: ${first?.message ?? 'not valid'}${more}` });
}

/** Deeper than any configuration file nests (a file is about 10 levels deep). */
export const CONFIG_FILE_MAX_DEPTH = 32;

/** The refusal of a file nested deeper than CONFIG_FILE_MAX_DEPTH (also said while the body is read: routes/guilds/server-configs.ts). */
export function fileTooDeep(): ApiHttpError {
  return reject(`This is not a Tickety configuration file: it nests deeper than ${CONFIG_FILE_MAX_DEPTH} levels, which Tickety's files never do.`);
}

/** Whether `value` nests objects or arrays deeper than `max` (walked without recursion: any input). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a reference needs to be: a category, a channel a message can be posted in, or anything. */
type Fit = 'category' | 'text' | 'any';

/** One place a configuration names a channel or role. */
interface Reference {
  kind: 'channel' | 'role';
  id: string;
  fit: Fit;
  /** Where, in the configuration as given ("panels.0.categoryId"). */
  path: string;
  /** A mention inside a text: kept as it is when it does not map. */
  mention: boolean;
}

const MENTION = /<(#|@&)(\d{17,20})>/g;

/**
 * A copy of `config` with each channel and role it names replaced by what `visit` returns: an id,
 * or null to remove it (an id field becomes null, a role leaves its list, an access rule is
 * dropped; a mention in a text stays as it is). Roles mapped onto one role are kept once.
 */
function rewriteReferences(config: ServerConfig, visit: (ref: Reference) => string | null): ServerConfig {
  const next = structuredClone(config);

  // Mentions first, on the configuration's own indices (nothing has been removed yet).
  const texts = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(MENTION, (whole, sigil: string, id: string) => {
        const kind = sigil === '#' ? 'channel' : 'role';
        const mapped = visit({ kind, id, fit: 'any', path, mention: true });
        return mapped === null ? whole : `<${sigil}${mapped}>`;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => texts(item, `${path}.${index}`));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, texts(item, path ? `${path}.${key}` : key)]));
    return value;
  };
  next.general = texts(next.general, 'general') as ServerConfig['general'];
  next.panels = texts(next.panels, 'panels') as ServerConfig['panels'];
  next.multiPanels = texts(next.multiPanels, 'multiPanels') as ServerConfig['multiPanels'];

  const channel = (id: string | null, fit: Fit, path: string): string | null => (id === null ? null : visit({ kind: 'channel', id, fit, path, mention: false }));
  const roles = (ids: readonly string[], path: string): string[] => {
    const out: string[] = [];
    ids.forEach((id, index) => {
      const mapped = visit({ kind: 'role', id, fit: 'any', path: `${path}.${index}`, mention: false });
      if (mapped !== null && !out.includes(mapped)) out.push(mapped);
    });
    return out;
  };

  const general = next.general;
  general.defaultCategoryId = channel(general.defaultCategoryId, 'category', 'general.defaultCategoryId');
  general.transcriptChannelId = channel(general.transcriptChannelId, 'text', 'general.transcriptChannelId');
  general.logChannelId = channel(general.logChannelId, 'text', 'general.logChannelId');

  const ruled = new Set<string>();
  next.access = next.access.flatMap((rule, index) => {
    const roleId = visit({ kind: 'role', id: rule.roleId, fit: 'any', path: `access.${index}.roleId`, mention: false });
    if (roleId === null || ruled.has(roleId)) return [];
    ruled.add(roleId);
    return [{ ...rule, roleId }];
  });

  next.panels.forEach((panel, index) => {
    const at = `panels.${index}`;
    panel.categoryId = channel(panel.categoryId, 'category', `${at}.categoryId`);
    panel.transcriptChannelId = channel(panel.transcriptChannelId, 'text', `${at}.transcriptChannelId`);
    panel.supportRoleIds = roles(panel.supportRoleIds, `${at}.supportRoleIds`);
    panel.additionalRoleIds = roles(panel.additionalRoleIds, `${at}.additionalRoleIds`);
    panel.pingRoleIds = roles(panel.pingRoleIds, `${at}.pingRoleIds`);
  });
  return next;
}

function fits(channel: Pick<ServerChannel, 'kind'>, fit: Fit): boolean {
  if (fit === 'category') return channel.kind === 'category';
  if (fit === 'text') return channel.kind === 'text' || channel.kind === 'announcement';
  return true;
}

const fold = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * The one item of `items` named `name` (case-insensitive), or null: none, or several (ambiguous: a
 * member who may create channels or roles could otherwise put one of theirs first and receive what
 * the file meant for another; the preview lists it as not mapped instead).
 */
export function byName<T extends { id: string; name: string }>(items: readonly T[], name: string, accept: (item: T) => boolean): T | null {
  const candidates = items.filter((item) => accept(item) && fold(item.name) === fold(name));
  return candidates.length === 1 ? candidates[0]! : null;
}

/** A file's configuration prepared for this server: as it would be saved, and what it would change. */
interface PreparedImport {
  preview: ImportPreview;
  config: ServerConfig;
  live: LiveConfig & ServerLimits;
}

/**
 * Export and import of configuration files. `keys`: the first signs, all verify. Reads the server's
 * channels and roles through the resources cache (names for an export, mapping for an import).
 */
export class ConfigFiles {
  readonly #keys: ReadonlyMap<string, ConfigFileKey>;

  constructor(
    private readonly keys: readonly ConfigFileKey[],
    private readonly configs: ServerConfigs,
    private readonly resources: ServerResourcesCache,
    private readonly clock: Clock,
  ) {
    if (keys.length === 0) throw new Error('ConfigFiles: at least one key is needed');
    this.#keys = new Map(keys.map((key) => [key.id, key]));
  }

  /** The id of the key that signs new exports. */
  get signingKeyId(): string {
    return this.keys[0]!.id;
  }

  /**
   * The server's configuration as a signed file: the live version, or `version` (404 when the server
   * has none of that number), with the names of the channels and roles it refers to.
   */
  async export(guild: Pick<Guild, 'id' | 'name'>, version?: number): Promise<{ file: ConfigFile; filename: string }> {
    let saved: { version: number; config: ServerConfig };
    if (version === undefined) {
      saved = await this.configs.live(guild.id);
    } else {
      const found = await this.configs.version(guild.id, version);
      if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${version}.` });
      saved = { version: found.version, config: found.config };
    }
    const resources = await this.resources.get(guild.id);
    const channels = new Map(resources.channels.map((c) => [c.id, c.name]));
    const roles = new Map(resources.roles.map((r) => [r.id, r.name]));
    const names: ConfigFile['names'] = { channels: {}, roles: {} };
    rewriteReferences(saved.config, (ref) => {
      const name = (ref.kind === 'channel' ? channels : roles).get(ref.id);
      if (name !== undefined) (ref.kind === 'channel' ? names.channels : names.roles)[ref.id] = name;
      return ref.id;
    });
    const exportedAt = new Date(this.clock()).toISOString();
    const file = signConfigFile(
      {
        format: CONFIG_FILE_FORMAT,
        schemaVersion: SERVER_CONFIG_SCHEMA_VERSION,
        serverId: guild.id,
        serverName: guild.name,
        version: saved.version,
        exportedAt,
        names,
        config: saved.config as unknown as Record<string, unknown>,
      },
      this.keys[0]!,
    );
    return { file, filename: `${fileNamePart(guild.name) || 'server'}-config-v${saved.version}-${exportedAt.slice(0, 10)}.json` };
  }

  /**
   * The file, checked: size (1016), then format, key, signature and schema version (1015, each with
   * its own message). Does not look at the configuration inside.
   */
  verify(raw: unknown): ConfigFile {
    // Before anything walks it recursively (JSON.stringify, the signature): a deep one would overflow the stack.
    if (nestsDeeperThan(raw, CONFIG_FILE_MAX_DEPTH)) throw fileTooDeep();
    const bytes = Buffer.byteLength(JSON.stringify(raw) ?? '', 'utf8');
    if (bytes > CONFIG_FILE_MAX_BYTES) {
      throw new ApiHttpError('PAYLOAD_TOO_LARGE', {
        message: `This configuration file is too large (${kb(bytes)}): files of at most ${kb(CONFIG_FILE_MAX_BYTES)} can be imported.`,
      });
    }
    if (!isPlainObject(raw) || raw.format === undefined) {
      throw reject(`This is not a Tickety configuration file: it should be a JSON object with "format": "${CONFIG_FILE_FORMAT}" (files of other bots cannot be imported).`);
    }
    if (raw.format !== CONFIG_FILE_FORMAT) {
      const format = typeof raw.format === 'string' ? `"${raw.format.slice(0, 60)}"` : 'not a text';
      throw reject(`This is not a Tickety configuration file: its format is ${format}, not "${CONFIG_FILE_FORMAT}" (files of other bots cannot be imported).`);
    }
    const parsed = ConfigFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') || 'file';
      throw reject(`This configuration file is incomplete or damaged (${where}: ${issue?.message ?? 'not valid'}). Export the configuration again.`);
    }
    const file = parsed.data;
    const key = this.#keys.get(file.keyId);
    if (!key) {
      throw reject(
        `This file was signed with the key "${file.keyId}", which this Tickety does not know: it comes from another Tickety installation, or that key has been retired. Export the configuration again.`,
      );
    }
    // Over the file as sent (every field but the signature, unknown ones too: nothing may be added).
    const { signature, ...fields } = raw;
    const expected = Buffer.from(signatureOf(fields, key.secret));
    const given = Buffer.from(typeof signature === 'string' ? signature : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw reject("This file's signature does not match its content: it was changed after it was exported, or damaged. Export the configuration again (and do not edit the file).");
    }
    if (file.schemaVersion !== SERVER_CONFIG_SCHEMA_VERSION) {
      const made = file.schemaVersion > SERVER_CONFIG_SCHEMA_VERSION ? 'a newer' : 'an older';
      throw reject(
        `This file holds a configuration of schema version ${file.schemaVersion}, made by ${made} Tickety; this one imports schema version ${SERVER_CONFIG_SCHEMA_VERSION} only. Export it again from this Tickety.`,
      );
    }
    return file;
  }

  /**
   * What importing `raw` on `guild` would do, without writing anything: the file checked, its
   * configuration validated, its channels and roles mapped, then validated again with the server's
   * limits (1001), and the changes against the live version. Blocklist entries new to the server are
   * shown added by `actorId` now, as the import will save them (the file's `addedBy` is not trusted).
   */
  async prepare(guild: Pick<Guild, 'id'>, raw: unknown, actorId: string): Promise<PreparedImport> {
    const file = this.verify(raw);
    const shape = serverConfigSchema({ panelLimit: Number.POSITIVE_INFINITY }).safeParse(file.config);
    if (!shape.success) throw invalid(shape.error);

    const [resources, live] = await Promise.all([this.resources.get(guild.id), this.configs.read(guild.id)]);
    const sameServer = file.serverId === guild.id;
    const unmapped = new Map<string, UnmappedReference>();
    const mapped = rewriteReferences(shape.data, (ref) => {
      const target = this.#resolve(ref, file, guild.id, resources, sameServer);
      if (target === null) {
        const key = `${ref.kind}:${ref.id}`;
        const entry = unmapped.get(key) ?? {
          kind: ref.kind,
          id: ref.id,
          name: (ref.kind === 'channel' ? file.names.channels : file.names.roles)[ref.id] ?? '',
          paths: [],
        };
        entry.paths.push(ref.path);
        unmapped.set(key, entry);
      }
      return target;
    });

    const checked = this.configs.schemaFor(live, live.config.panels.length).safeParse(mapped);
    if (!checked.success) throw invalid(checked.error);
    const config = { ...checked.data, blocklist: stampBlocklist(live.config.blocklist, checked.data.blocklist, actorId, new Date(this.clock()).toISOString()) };
    return {
      config,
      live,
      preview: {
        from: { serverId: file.serverId, serverName: file.serverName, version: file.version, exportedAt: file.exportedAt },
        sameServer,
        liveVersion: live.version,
        config: config as unknown as Record<string, unknown>,
        changes: diffConfig(live.config, config),
        unmapped: [...unmapped.values()],
      },
    };
  }

  /** The id `ref` becomes on this server, or null when it has no counterpart. */
  #resolve(ref: Reference, file: ConfigFile, guildId: string, resources: ServerResources, sameServer: boolean): string | null {
    if (ref.kind === 'channel') {
      if (sameServer) {
        const channel = resources.channels.find((c) => c.id === ref.id);
        return channel && fits(channel, ref.fit) ? channel.id : null;
      }
      const name = file.names.channels[ref.id];
      return name === undefined ? null : (byName(resources.channels, name, (c) => fits(c, ref.fit))?.id ?? null);
    }
    if (sameServer) return resources.roles.some((r) => r.id === ref.id) ? ref.id : null;
    // Dashboard access is never carried to another server by a role's name: anyone who may create
    // roles there could name one to match. The rule is listed as not mapped; the owner grants it again.
    if (ref.path.startsWith('access.')) return null;
    // @everyone has the server's id on every server.
    if (ref.id === file.serverId) return resources.roles.some((r) => r.id === guildId) ? guildId : null;
    const name = file.names.roles[ref.id];
    return name === undefined ? null : (byName(resources.roles, name, () => true)?.id ?? null);
  }
}

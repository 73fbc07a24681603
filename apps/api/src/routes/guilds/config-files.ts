import {
  ApiError,
  ApplyImportBody,
  allows,
  CONFIG_FILE_MAX_BYTES,
  ConfigExportQuery,
  ConfigFile,
  GuildParams,
  ImportConfigBody,
  ImportPreview,
  ServerConfigAnswer,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiHttpError } from '../../lib/errors';
import { CONFIG_FILE_MAX_DEPTH, ConfigFiles, fileTooDeep } from '../../services/config-files';
import { assertMayChangeAccessRules } from '../../services/server-access';
import { actorOf } from './config';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 422: ApiError, 502: ApiError, 503: ApiError };

/**
 * The largest import body: the file plus the little around it (`{"file":…,"expectedVersion":N}`).
 * The file itself is measured again against CONFIG_FILE_MAX_BYTES (1016 either way).
 */
export const IMPORT_BODY_LIMIT = CONFIG_FILE_MAX_BYTES + 1024;

/**
 * A member without full access (a role's `configs` write) must not import access rules other than
 * the live ones: decided on the live version the import is made against; when the caller's
 * `expectedVersion` is not the live one the import is refused as a conflict first (as PUT /config).
 */
async function checkAccessRules(app: FastifyInstance, req: FastifyRequest, next: unknown, expectedVersion?: number): Promise<void> {
  const access = req.serverAccess!;
  if (access.via === 'full') return;
  const guild = req.guild!;
  // An import replaces the panels and settings as well: with a role's grant it needs the Panel Menu's
  // write access too, not only Restore Configs' (restoring this server's own versions needs only that).
  if (!allows(access, 'panels', 'write')) {
    throw new ApiHttpError('AREA_ACCESS_REQUIRED', {
      message: `Importing a file replaces ${guild.name}'s panels and settings, so it needs write access to the Panel Menu as well as to Restore Configs; your roles (${access.grantedBy.join(', ') || 'none'}) do not give the Panel Menu's. The server's owner and members with the Administrator or Manage Server permission can give it under Panel Menu › Settings and access.`,
    });
  }
  const live = await app.serverConfigs.live(guild.id);
  if (expectedVersion !== undefined && live.version !== expectedVersion) {
    const who = live.savedBy ? `${live.savedBy.name} saved version ${live.version}` : 'Someone saved a newer version';
    throw new ApiHttpError('CONFIG_CONFLICT', { message: `${who} since you checked this file. Nothing was imported: check the file again, then import it.` });
  }
  assertMayChangeAccessRules(guild, access, live.config, next);
}

/**
 * Configuration files (`/api/guilds/:server/config/export` and `/config/import`), issue 8 §5:
 * - `GET /config/export[?version=N]`: the live configuration (or version N) as a signed file, a
 *   download; `configs` read access;
 * - `POST /config/import/preview {file}`: the file checked and mapped onto this server, with the
 *   changes and what could not be mapped; writes nothing; `configs` write access;
 * - `POST /config/import {file, expectedVersion}`: the same, saved as a new version (`config.import`
 *   in Web Logs) in one transaction; 1013 when the live version is newer than `expectedVersion`.
 * Refusals: 1015 (the file: format, key, signature, schema version, each said), 1001 (the
 * configuration inside), 1016 (over CONFIG_FILE_MAX_BYTES).
 */
export default async function configFileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const files = new ConfigFiles(app.config.configFiles.keys, app.serverConfigs, app.serverResources, app.clock);
  // Key ids only, never a secret.
  app.log.info(
    { signingKeyId: files.signingKeyId, verifyingKeyIds: app.config.configFiles.keys.map((k) => k.id), derived: app.config.configFiles.derived },
    'configuration file keys',
  );

  const read = { attachValidation: true, preHandler: app.requireArea('configs', 'read') } as const;
  const write = { attachValidation: true, preHandler: app.requireArea('configs', 'write') } as const;
  // Bodies over the limit are refused before the guard runs (Fastify reads the body first): 1016.
  const importRoute = {
    ...write,
    bodyLimit: IMPORT_BODY_LIMIT,
    config: {
      bodyTooLarge: `This configuration file is too large: files of at most ${CONFIG_FILE_MAX_BYTES / 1024} KB can be imported.`,
      // The file sits one level inside the body: a file nested deeper than any is refused while the
      // body is read (never parsed), in the same words as the file check (services/config-files.ts).
      bodyMaxDepth: CONFIG_FILE_MAX_DEPTH + 1,
      bodyTooDeep: fileTooDeep,
    },
  };

  app.get(
    '/:server/config/export',
    { ...read, schema: { params: GuildParams, querystring: ConfigExportQuery, response: { 200: ConfigFile, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      const { file, filename } = await files.export(req.guild!, req.query.version);
      // Compact JSON (the size an import measures), as a download.
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .type('application/json; charset=utf-8')
        // A string is sent as it is (the response schema documents its shape).
        .send(JSON.stringify(file) as unknown as ConfigFile);
    },
  );

  app.post(
    '/:server/config/import/preview',
    { ...importRoute, schema: { params: GuildParams, body: ImportConfigBody, response: { 200: ImportPreview, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const prepared = await files.prepare(req.guild!, req.body.file);
      await checkAccessRules(app, req, prepared.config);
      return prepared.preview;
    },
  );

  app.post(
    '/:server/config/import',
    { ...importRoute, schema: { params: GuildParams, body: ApplyImportBody, response: { 200: ServerConfigAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guild = req.guild!;
      const prepared = await files.prepare(guild, req.body.file);
      await checkAccessRules(app, req, prepared.config, req.body.expectedVersion);
      const saved = await app.serverConfigs.save({
        guildId: guild.id,
        expectedVersion: req.body.expectedVersion,
        config: prepared.config,
        actor: await actorOf(req),
        action: 'config.import',
      });
      return { ...saved, ...(await app.serverConfigs.limits(guild.id)) };
    },
  );
}

import {
  ApiError,
  ApplyImportBody,
  allows,
  CONFIG_FILE_MAX_BYTES,
  ConfigExportQuery,
  ConfigFile,
  ConfigVersionAnswer,
  ConfigVersionList,
  ConfigVersionListQuery,
  ConfigVersionParams,
  defaultServerConfig,
  GuildParams,
  ImportConfigBody,
  ImportPreview,
  ResetConfigAnswer,
  ResetConfigBody,
  RestoreConfigBody,
  ServerConfigAnswer,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor';
import { ApiHttpError } from '../../lib/errors';
import { CONFIG_FILE_MAX_DEPTH, fileTooDeep } from '../../services/config-files';
import { assertResetConfirmed } from '../../services/server-config';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 422: ApiError, 502: ApiError, 503: ApiError };

/**
 * The largest import body: the file plus the little around it (`{"file":…,"expectedVersion":N}`).
 * The file itself is measured again against CONFIG_FILE_MAX_BYTES (1016 either way).
 */
const IMPORT_BODY_LIMIT = CONFIG_FILE_MAX_BYTES + 1024;
const IMPORT_CONFLICT = 'since you checked this file. Nothing was imported: check the file again, then import it.';
const RESET_CONFLICT = 'since you opened this page. Nothing was reset: reload to see the new version, then reset again if you still want to.';
const RESTORE_CONFLICT = 'while you were editing. Your changes were not saved: reload to see theirs, then make yours again.';

/**
 * An import (or a reset) replaces the panels and settings as well: with a role's grant it needs the Panel Menu's
 * write access too, not only Restore Configs' (restoring this server's own versions needs only that).
 */
function assertMayReplace(req: FastifyRequest, what: 'import' | 'reset'): void {
  const access = req.serverAccess!;
  if (access.via === 'full' || allows(access, 'panels', 'write')) return;
  const doing = what === 'import' ? 'Importing a file replaces' : 'Resetting the configuration removes';
  throw new ApiHttpError('AREA_ACCESS_REQUIRED', {
    message: `${doing} ${req.guild!.name}'s panels and settings, so it needs write access to the Panel Menu as well as to Restore Configs; your roles (${access.grantedBy.join(', ') || 'none'}) do not give the Panel Menu's. The server's owner and members with the Administrator or Manage Server permission can give it under Panel Menu › Settings and access.`,
  });
}

/**
 * Restore Configs (`/dashboard/:server/server-configs`): the configuration's versions and a restore,
 * and the configuration file (signed export, checked import with a preview). Who may, and the
 * refusals, are in docs/api.md ("Server pages and their access", "Configuration files").
 */
export default async function serverConfigsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
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

  app.get('/:server/config/versions', { ...read, schema: { params: GuildParams, querystring: ConfigVersionListQuery, response: { 200: ConfigVersionList, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.serverConfigs.versions(req.guild!.id, { ...(req.query.cursor ? { cursor: req.query.cursor } : {}), limit: req.query.limit });
  });

  app.get('/:server/config/versions/:version', { ...read, schema: { params: ConfigVersionParams, response: { 200: ConfigVersionAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const found = await app.serverConfigs.version(req.guild!.id, req.params.version);
    if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${req.params.version}.` });
    return found;
  });

  app.post(
    '/:server/config/versions/:version/restore',
    { ...write, schema: { params: ConfigVersionParams, body: RestoreConfigBody, response: { 200: ServerConfigAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guildId = req.guild!.id;
      const { expectedVersion } = req.body;
      const found = await app.serverConfigs.version(guildId, req.params.version);
      if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${req.params.version}.` });
      await app.serverAccess.assertMayChangeRules(req.guild!, req.serverAccess!, found.config, expectedVersion, RESTORE_CONFLICT);
      const actor = await actorOf(req);
      const saved = await app.serverConfigs.save({ guildId, expectedVersion, config: found.config, actor, action: 'config.restore', restoredFrom: found.version, carriedBlocklist: found.config.blocklist });
      return { ...saved, ...(await app.serverConfigs.limits(guildId)) };
    },
  );

  app.get(
    '/:server/config/export',
    { ...read, schema: { params: GuildParams, querystring: ConfigExportQuery, response: { 200: ConfigFile, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      const { file, filename } = await app.configFiles.export(req.guild!, req.query.version);
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
      const prepared = await app.configFiles.prepare(req.guild!, req.body.file, (await actorOf(req)).id);
      assertMayReplace(req, 'import');
      await app.serverAccess.assertMayChangeRules(req.guild!, req.serverAccess!, prepared.config, undefined, IMPORT_CONFLICT);
      return prepared.preview;
    },
  );

  app.post(
    '/:server/config/import',
    { ...importRoute, schema: { params: GuildParams, body: ApplyImportBody, response: { 200: ServerConfigAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guild = req.guild!;
      const { expectedVersion } = req.body;
      const actor = await actorOf(req);
      const prepared = await app.configFiles.prepare(guild, req.body.file, actor.id);
      assertMayReplace(req, 'import');
      await app.serverAccess.assertMayChangeRules(guild, req.serverAccess!, prepared.config, expectedVersion, IMPORT_CONFLICT);
      const saved = await app.serverConfigs.save({ guildId: guild.id, expectedVersion, config: prepared.config, actor, action: 'config.import' });
      return { ...saved, ...(await app.serverConfigs.limits(guild.id)) };
    },
  );

  app.post(
    '/:server/config/reset',
    { ...write, schema: { params: GuildParams, body: ResetConfigBody, response: { 200: ResetConfigAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guild = req.guild!;
      const { expectedVersion, confirmName } = req.body;
      assertMayReplace(req, 'reset');
      const actor = await actorOf(req);
      const defaults = defaultServerConfig();
      assertResetConfirmed(guild.name, confirmName);
      await app.serverAccess.assertMayChangeRules(guild, req.serverAccess!, defaults, expectedVersion, RESET_CONFLICT);
      const saved = await app.serverConfigs.reset({ guildId: guild.id, guildName: guild.name, expectedVersion, confirmName, actor });
      return { ...saved, ...(await app.serverConfigs.limits(guild.id)), postedPanels: await app.panelPosts.notMatching(guild.id) };
    },
  );
}

import {
  ApiError,
  type ConfigActor,
  ConfigVersionAnswer,
  ConfigVersionList,
  ConfigVersionParams,
  GuildParams,
  RestoreConfigBody,
  SaveServerConfigBody,
  ServerConfigAnswer,
  WebLogPage,
  WebLogQuery,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';

const VersionListQuery = z.object({ cursor: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(100).default(25) });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/** The signed-in user as Web Logs and the version list name them. */
export async function actorOf(req: FastifyRequest): Promise<ConfigActor> {
  const session = await req.getSession();
  const me = session ? await req.server.accounts.me(session.userId) : null;
  if (!me) throw new ApiHttpError('UNAUTHENTICATED');
  return { id: me.user.id, name: me.user.globalName ?? me.user.username, avatarUrl: me.user.avatarUrl };
}

/**
 * A server's configuration (`/api/guilds/:server/config`): the live version, a save against the
 * version the editor started from, the versions and a restore, and the server's Web Logs. Reads need
 * access to the server; changes need it on a fresh guild list (requireGuildWriteAccess).
 */
export default async function serverConfigRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { attachValidation: true, preHandler: app.requireGuildAccess } as const;
  const write = { attachValidation: true, preHandler: app.requireGuildWriteAccess } as const;

  app.get('/:server/config', { ...read, schema: { params: GuildParams, response: { 200: ServerConfigAnswer, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return app.serverConfigs.read(req.guild!.id);
  });

  app.put('/:server/config', { ...write, schema: { params: GuildParams, body: SaveServerConfigBody, response: { 200: ServerConfigAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const guildId = req.guild!.id;
    const saved = await app.serverConfigs.save({ guildId, expectedVersion: req.body.expectedVersion, config: req.body.config, actor: await actorOf(req) });
    return { ...saved, ...(await app.serverConfigs.limits(guildId)) };
  });

  app.get('/:server/config/versions', { ...read, schema: { params: GuildParams, querystring: VersionListQuery, response: { 200: ConfigVersionList, ...errors } } }, async (req, reply) => {
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
      const found = await app.serverConfigs.version(guildId, req.params.version);
      if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${req.params.version}.` });
      const saved = await app.serverConfigs.save({
        guildId,
        expectedVersion: req.body.expectedVersion,
        config: found.config,
        actor: await actorOf(req),
        action: 'config.restore',
        restoredFrom: found.version,
      });
      return { ...saved, ...(await app.serverConfigs.limits(guildId)) };
    },
  );

  app.get('/:server/logs', { ...read, schema: { params: GuildParams, querystring: WebLogQuery, response: { 200: WebLogPage, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { cursor, actor, action, from, to, limit } = req.query;
    return app.serverConfigs.logs(req.guild!.id, { cursor, actor, action, from, to, limit });
  });
}

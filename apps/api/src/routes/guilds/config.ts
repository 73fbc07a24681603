import {
  CONFIG_FILE_MAX_BYTES,
  ApiError,
  type ConfigActor,
  ConfigVersionAnswer,
  ConfigVersionList,
  ConfigVersionParams,
  GuildParams,
  RestoreConfigBody,
  SaveServerConfigBody,
  ServerConfigAnswer,
  VERSION_MAX,
  WebLogActors,
  WebLogPage,
  WebLogQuery,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';
import { assertMayChangeAccessRules } from '../../services/server-access';

const VersionListQuery = z.object({ cursor: z.coerce.number().int().positive().max(VERSION_MAX).optional(), limit: z.coerce.number().int().min(1).max(100).default(25) });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 503: ApiError };
/** A configuration saved from the Panel Menu may weigh what a configuration file may (plus the request's envelope). */
const CONFIG_BODY_LIMIT = CONFIG_FILE_MAX_BYTES + 1024;

/** The signed-in user as Web Logs and the version list name them. */
export async function actorOf(req: FastifyRequest): Promise<ConfigActor> {
  const session = await req.getSession();
  const me = session ? await req.server.accounts.me(session.userId) : null;
  if (!me) throw new ApiHttpError('UNAUTHENTICATED');
  return { id: me.user.id, name: me.user.globalName ?? me.user.username, avatarUrl: me.user.avatarUrl };
}

/**
 * A change by a member without full access must not touch the access rules (a role cannot give
 * itself more). Decided against the live version the change is made on: when the caller's
 * `expectedVersion` is not the live one the save would be refused anyway, and it is refused here,
 * before comparing with a version the change was not made on.
 */
async function checkAccessRules(app: FastifyInstance, req: FastifyRequest, expectedVersion: number, next: unknown): Promise<void> {
  const access = req.serverAccess!;
  if (access.via === 'full') return;
  const guild = req.guild!;
  const live = await app.serverConfigs.live(guild.id);
  if (live.version !== expectedVersion) {
    const who = live.savedBy ? `${live.savedBy.name} saved version ${live.version}` : 'Someone saved a newer version';
    throw new ApiHttpError('CONFIG_CONFLICT', { message: `${who} while you were editing. Your changes were not saved: reload to see theirs, then make yours again.` });
  }
  assertMayChangeAccessRules(guild, access, live.config, next);
}

/**
 * A server's configuration (`/api/guilds/:server/config`): the live version, a save against the
 * version the editor started from, the versions and a restore, and the server's Web Logs. Who may:
 * - `GET /config`: read access to the Panel Menu or Restore Configs (`panels` or `configs`);
 * - `PUT /config`: write access to the Panel Menu (`panels`: panels, multi-panels, general
 *   settings); changing the access rules needs full access (owner, Administrator, Manage Server);
 * - versions: `configs` read; a restore: `configs` write (full access when it changes the rules);
 * - Web Logs: `logs` read.
 * Changes decide on a fresh guild list and the member's roles read again (requireArea 'write').
 */
export default async function serverConfigRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guarded = (area: Parameters<typeof app.requireArea>[0], level: Parameters<typeof app.requireArea>[1]) =>
    ({ attachValidation: true, preHandler: app.requireArea(area, level) }) as const;

  app.get('/:server/config', { ...guarded(['panels', 'configs'], 'read'), schema: { params: GuildParams, response: { 200: ServerConfigAnswer, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return app.serverConfigs.read(req.guild!.id);
  });

  app.put('/:server/config', { ...guarded('panels', 'write'), bodyLimit: CONFIG_BODY_LIMIT, schema: { params: GuildParams, body: SaveServerConfigBody, response: { 200: ServerConfigAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const guildId = req.guild!.id;
    await checkAccessRules(app, req, req.body.expectedVersion, req.body.config);
    const saved = await app.serverConfigs.save({ guildId, expectedVersion: req.body.expectedVersion, config: req.body.config, actor: await actorOf(req) });
    return { ...saved, ...(await app.serverConfigs.limits(guildId)) };
  });

  app.get('/:server/config/versions', { ...guarded('configs', 'read'), schema: { params: GuildParams, querystring: VersionListQuery, response: { 200: ConfigVersionList, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.serverConfigs.versions(req.guild!.id, { ...(req.query.cursor ? { cursor: req.query.cursor } : {}), limit: req.query.limit });
  });

  app.get('/:server/config/versions/:version', { ...guarded('configs', 'read'), schema: { params: ConfigVersionParams, response: { 200: ConfigVersionAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const found = await app.serverConfigs.version(req.guild!.id, req.params.version);
    if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${req.params.version}.` });
    return found;
  });

  app.post(
    '/:server/config/versions/:version/restore',
    { ...guarded('configs', 'write'), schema: { params: ConfigVersionParams, body: RestoreConfigBody, response: { 200: ServerConfigAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guildId = req.guild!.id;
      const found = await app.serverConfigs.version(guildId, req.params.version);
      if (!found) throw new ApiHttpError('NOT_FOUND', { message: `This server has no configuration version ${req.params.version}.` });
      await checkAccessRules(app, req, req.body.expectedVersion, found.config);
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

  app.get('/:server/logs/actors', { ...guarded('logs', 'read'), schema: { params: GuildParams, response: { 200: WebLogActors, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return { actors: await app.serverConfigs.logActors(req.guild!.id) };
  });

  app.get('/:server/logs', { ...guarded('logs', 'read'), schema: { params: GuildParams, querystring: WebLogQuery, response: { 200: WebLogPage, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { cursor, actor, action, from, to, limit } = req.query;
    // As UTC: PostgreSQL refuses some offsets an ISO time may carry (beyond ±15:59).
    const utc = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
    return app.serverConfigs.logs(req.guild!.id, { cursor, actor, action, from: utc(from), to: utc(to), limit });
  });
}

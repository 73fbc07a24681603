import {
  ApiError,
  CONFIG_FILE_MAX_BYTES,
  ConfigHealth,
  GuildParams,
  PanelPost,
  PanelPostList,
  PanelPostParams,
  SaveServerConfigBody,
  SendPanelBody,
  ServerConfigAnswer,
  ServerResources,
  ServerResourcesQuery,
} from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor';
import { sendEncoded } from '../../lib/encoded-answer';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 422: ApiError, 503: ApiError };
/** A configuration saved from the Panel Menu may weigh what a configuration file may (plus the request's envelope). */
const CONFIG_BODY_LIMIT = CONFIG_FILE_MAX_BYTES + 1024;

/**
 * The Panel Menu (`/dashboard/:server/configs`): the live configuration and its save, the panels the
 * bot has posted (send, update in place) and the server's channels, roles and emojis for the pickers.
 * Who may is in docs/api.md ("Server pages and their access").
 */
export default async function configsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guarded = (area: Parameters<typeof app.requireArea>[0], level: Parameters<typeof app.requireArea>[1]) =>
    ({ attachValidation: true, preHandler: app.requireArea(area, level) }) as const;

  // Restore Configs shows the live configuration too.
  app.get('/:server/config', { ...guarded(['panels', 'configs'], 'read'), compress: false, schema: { params: GuildParams, response: { 200: ServerConfigAnswer, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    // Cached per server (services/server-config.ts): serialised and compressed once per version.
    return sendEncoded(req, reply, await app.serverConfigs.read(req.guild!.id));
  });

  app.put('/:server/config', { ...guarded('panels', 'write'), bodyLimit: CONFIG_BODY_LIMIT, schema: { params: GuildParams, body: SaveServerConfigBody, response: { 200: ServerConfigAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const guildId = req.guild!.id;
    const { expectedVersion, config } = req.body;
    await app.serverAccess.assertMayChangeRules(req.guild!, req.serverAccess!, config, expectedVersion, 'while you were editing. Your changes were not saved: reload to see theirs, then make yours again.');
    const saved = await app.serverConfigs.save({ guildId, expectedVersion, config, actor: await actorOf(req) });
    return { ...saved, ...(await app.serverConfigs.limits(guildId)) };
  });

  // The health check (services/config-health.ts): the configuration against what the bot sees in
  // Discord now (its reads at most a minute old); the sidebar's count and the Panel Menu's list.
  app.get('/:server/config/health', { ...guarded('panels', 'read'), schema: { params: GuildParams, response: { 200: ConfigHealth, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.configHealth.check(req.guild!.id);
  });

  app.get('/:server/posts', { ...guarded('panels', 'read'), schema: { params: GuildParams, response: { 200: PanelPostList, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { posts: await app.panelPosts.list(req.guild!.id) };
  });

  app.post('/:server/posts', { ...guarded('panels', 'write'), schema: { params: GuildParams, body: SendPanelBody, response: { 200: PanelPost, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { kind, id, channelId } = req.body;
    return app.panelPosts.send({ guildId: req.guild!.id, kind, id, channelId, actor: await actorOf(req) });
  });

  app.post('/:server/posts/:kind/:id/update', { ...guarded('panels', 'write'), schema: { params: PanelPostParams, response: { 200: PanelPost, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.panelPosts.update({ guildId: req.guild!.id, kind: req.params.kind, id: req.params.id, actor: await actorOf(req) });
  });

  // The pickers of the Panel Menu, and the channel and role names Restore Configs and Web Logs show;
  // kept a minute in memory (`?refresh=1` reads Discord again).
  app.get(
    '/:server/resources',
    { ...guarded(['panels', 'configs', 'logs'], 'read'), schema: { params: GuildParams, querystring: ServerResourcesQuery, response: { 200: ServerResources, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      return app.serverResources.get(req.guild!.id, { refresh: req.query.refresh === '1' });
    },
  );
}

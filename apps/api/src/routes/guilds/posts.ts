import { ApiError, GuildParams, PanelPost, PanelPostList, PanelPostParams, SendPanelBody } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from './config';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 422: ApiError, 503: ApiError };

/**
 * The panels the bot has posted (`/api/guilds/:server/posts`): the list with each post's state, a send
 * (the bot posts the item's message, built from the live configuration, in a channel) and an update
 * (the bot edits the posted message in place). Changes need write access to the Panel Menu and the
 * dashboard's CSRF headers, and are written to Web Logs.
 */
export default async function panelPostRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The Panel Menu's: reading posts needs `panels` read; sending and updating `panels` write.
  const read = { attachValidation: true, preHandler: app.requireArea('panels', 'read') } as const;
  const write = { attachValidation: true, preHandler: app.requireArea('panels', 'write') } as const;

  app.get('/:server/posts', { ...read, schema: { params: GuildParams, response: { 200: PanelPostList, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { posts: await app.panelPosts.list(req.guild!.id) };
  });

  app.post('/:server/posts', { ...write, schema: { params: GuildParams, body: SendPanelBody, response: { 200: PanelPost, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { kind, id, channelId } = req.body;
    return app.panelPosts.send({ guildId: req.guild!.id, kind, id, channelId, actor: await actorOf(req) });
  });

  app.post('/:server/posts/:kind/:id/update', { ...write, schema: { params: PanelPostParams, response: { 200: PanelPost, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.panelPosts.update({ guildId: req.guild!.id, kind: req.params.kind, id: req.params.id, actor: await actorOf(req) });
  });
}

import {
  ApiError,
  GuildParams,
  REPLY_ATTACHMENTS_MAX_BYTES,
  ReplyAttachment,
  StreamCursor,
  TicketCommandRequest,
  TicketCommandView,
  TicketDetail,
  TicketLabels,
  TicketLabelsUpdate,
  TicketParams,
  TicketQueue,
  TicketQueueQuery,
  TicketStreamQuery,
  TicketTags,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import { ApiHttpError } from '../../lib/errors';
import { perUserLimit } from '../../lib/rate-limits';
import { RAW_UPLOAD } from '../../plugins/app/security';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 415: ApiError, 429: ApiError, 503: ApiError };
/** Actions one user may ask of tickets a minute (replies included), across their servers (docs/api.md#rate-limits). */
const COMMANDS_PER_MINUTE = 30;
/** Queue reads (searches included) one user may make a minute, across their servers. */
const QUEUE_READS_PER_MINUTE = 120;
/** Files one user may upload a minute. */
const UPLOADS_PER_MINUTE = 20;

async function userOf(req: FastifyRequest): Promise<string> {
  const session = await req.getSession();
  if (!session) throw new ApiHttpError('UNAUTHENTICATED');
  return session.userId;
}

/** `Last-Event-ID` when it is a cursor (a reconnection), else null: one that is not (any other value, or above the largest seq) counts as absent. */
function lastEventId(req: FastifyRequest): string | null {
  const value = req.headers['last-event-id'];
  if (typeof value !== 'string') return null;
  const parsed = StreamCursor.safeParse(value.trim());
  return parsed.success ? parsed.data : null;
}

/**
 * The Tickets page (`/dashboard/:server/tickets`, access area `tickets`; docs/api.md, "Tickets"): the
 * queue, one ticket, its live stream (SSE), the actions staff take (commands for the bot), reply
 * files and the server's labels. Reads need `tickets: read`, changes `tickets: write`; the logic is in
 * services/ticket-queue.ts, ticket-actions.ts and ticket-stream.ts.
 */
export default async function ticketsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = app.requireArea('tickets', 'read');
  const guarded = (level: 'read' | 'write') => ({ attachValidation: true, preHandler: level === 'read' ? read : app.requireArea('tickets', 'write') }) as const;

  app.get('/:server/tickets', { ...guarded('read'), config: perUserLimit('ticket-queue', QUEUE_READS_PER_MINUTE), schema: { params: GuildParams, querystring: TicketQueueQuery, response: { 200: TicketQueue, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { config } = await app.serverConfigs.read(req.guild!.id);
    return app.ticketQueue.queue(req.guild!, config, await userOf(req), req.query);
  });

  // Live changes (Server-Sent Events), on the raw answer: not compressed, not buffered, held open.
  app.get(
    '/:server/tickets/stream',
    { ...guarded('read'), compress: false, schema: { params: GuildParams, querystring: TicketStreamQuery, response: { 200: z.string().describe('text/event-stream: TicketStreamEvent frames'), ...errors } } },
    async (req, reply) => {
      const userId = await userOf(req);
      const guild = req.guild!;
      const ticketId = req.query.ticket ?? null;
      if (ticketId !== null) {
        const { config } = await app.serverConfigs.read(guild.id);
        if (!(await app.ticketQueue.summary(guild, config, ticketId))) throw new ApiHttpError('NOT_FOUND', { message: 'This server has no ticket with this id.' });
      }
      const botId = await app.ticketQueue.botOf(guild.id);
      const release = app.ticketStreams.reserve(userId);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // What the security plugin's onSend adds to every answer (a hijacked answer skips onSend).
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        ...(app.config.secureCookies ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
        // Proxies (nginx) pass the frames on as they come.
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.flushHeaders();
      const stillAllowed = async () => {
        req.sessionPromise = null;
        // Not staff activity: an open tab must not keep a staff session's idle limit from lapsing (a lapsed one still ends it).
        req.accessRecheck = true;
        await read.call(app, req, reply as FastifyReply);
        return req.guild?.id === guild.id;
      };
      try {
        await app.ticketStreams.open(
          { res, userId, guild, botId, ticketId, cursor: lastEventId(req) ?? req.query.cursor ?? null, config: async () => (await app.serverConfigs.read(guild.id)).config, stillAllowed, log: req.log },
          release,
        );
      } catch (error) {
        req.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'ticket stream: could not start');
        release();
        res.end();
      }
    },
  );

  // The server's tags (canned replies) for the reply box's `/` list: `tickets: read`, as the page's
  // members may not read the configuration itself.
  app.get('/:server/tickets/tags', { ...guarded('read'), schema: { params: GuildParams, response: { 200: TicketTags, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { config } = await app.serverConfigs.read(req.guild!.id);
    return { tags: config.tags };
  });

  app.get('/:server/tickets/:ticket', { ...guarded('read'), schema: { params: TicketParams, response: { 200: TicketDetail, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { config } = await app.serverConfigs.read(req.guild!.id);
    const detail = await app.ticketQueue.detail(req.guild!, config, req.params.ticket);
    if (!detail) throw new ApiHttpError('NOT_FOUND', { message: 'This server has no ticket with this id.' });
    return detail;
  });

  app.post(
    '/:server/tickets/:ticket/commands',
    { ...guarded('write'), config: perUserLimit('ticket-commands', COMMANDS_PER_MINUTE), schema: { params: TicketParams, body: TicketCommandRequest, response: { 202: TicketCommandView, ...errors } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const guildId = req.guild!.id;
      const [{ config }, botId, actor] = await Promise.all([app.serverConfigs.read(guildId), app.ticketQueue.botOf(guildId), actorOf(req)]);
      const view = await app.ticketActions.command({ botId, guildId, ticketId: req.params.ticket, config, actor, request: req.body });
      req.log.info({ server: guildId, ticket: req.params.ticket, command: view.id, kind: view.kind }, 'ticket command queued');
      return reply.code(202).send(view);
    },
  );

  app.put('/:server/tickets/labels', { ...guarded('write'), schema: { params: GuildParams, body: TicketLabelsUpdate, response: { 200: TicketLabels, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return app.ticketActions.saveLabels({ guildId: req.guild!.id, labels: req.body.labels, version: req.body.version, actor: await actorOf(req) });
  });

  // Reply files: the raw bytes as the body (any content type; `x-filename` names the file), read only
  // after the session, the server's `tickets: write` and the ticket have been checked (preParsing).
  await app.register(async (scope) => {
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    const write = app.requireArea('tickets', 'write');
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPLY_ATTACHMENTS_MAX_BYTES }, (_req, body, done) => done(null, body));
    uploads.post(
      '/:server/tickets/:ticket/attachments',
      {
        attachValidation: true,
        bodyLimit: REPLY_ATTACHMENTS_MAX_BYTES,
        decompress: false,
        // Access, then the address (a ticket id, an open ticket of this server), before the body is read.
        preParsing: async (req: FastifyRequest, reply: FastifyReply, payload) => {
          await write.call(app, req, reply);
          const params = TicketParams.safeParse(req.params);
          if (!params.success) throw new ApiHttpError('VALIDATION_FAILED', { message: `The request is not valid: ${params.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}.` });
          const guildId = req.guild!.id;
          await app.ticketActions.assertOpen(await app.ticketQueue.botOf(guildId), guildId, params.data.ticket);
          return payload;
        },
        config: {
          ...RAW_UPLOAD,
          ...perUserLimit('ticket-uploads', UPLOADS_PER_MINUTE),
          bodyTooLarge: `A file for a reply may be at most ${REPLY_ATTACHMENTS_MAX_BYTES / 1024 / 1024} MB (Discord's limit for a message's files).`,
        },
        schema: { params: TicketParams, response: { 200: ReplyAttachment, ...errors } },
      },
      async (req, reply) => {
        if (req.validationError) throw new ApiHttpError('VALIDATION_FAILED', { message: `The request is not valid: ${req.validationError.message}.` });
        reply.header('cache-control', 'no-store');
        const body = req.body;
        if (!Buffer.isBuffer(body)) throw new ApiHttpError('VALIDATION_FAILED', { message: 'Send the file as the body.' });
        const guildId = req.guild!.id;
        const header = req.headers['x-filename'];
        return app.ticketActions.upload({
          botId: await app.ticketQueue.botOf(guildId),
          guildId,
          ticketId: req.params.ticket,
          userId: await userOf(req),
          filename: typeof header === 'string' ? header : undefined,
          contentType: req.headers['content-type'],
          bytes: body,
        });
      },
    );
  });
}

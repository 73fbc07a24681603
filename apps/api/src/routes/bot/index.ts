import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCb } from 'node:zlib';
import { normalizeIP } from '@fastify/rate-limit';
import {
  ApiError,
  BotCommandBatch,
  BotCommandParams,
  BotCommandResult,
  BotCommandResultAnswer,
  BotCommandsQuery,
  BotIdentity,
  BotKeyRotateRequest,
  BotKeyRotateResponse,
  canonicalJson,
  GuildParams,
  ServerConfigAnswer,
  ServerConfigDocument,
  ShardHeartbeatBatch,
  Snowflake,
  TicketEventBatch,
  TicketEventBatchResult,
  TicketMessageBatch,
  TicketMessageBatchResult,
  TRANSCRIPT_JSON_MAX_BYTES,
  TRANSCRIPT_UPLOAD_MAX_BYTES,
  TranscriptFileId,
  TranscriptStored,
  TranscriptV2,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TranscriptDraft } from '../../lib/body-worker';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';
import { parseUntrustedJson } from '../../lib/json-body';
import { CSRF_EXEMPT } from '../../plugins/app/security';
import { type BotCaller, bearerKey } from '../../services/bot-keys';

const gunzip = promisify(gunzipCb);

/**
 * The body part's validator of routes whose body the body worker validated (route config
 * `bodyInWorker`); params and query are validated by the app's own compiler as everywhere.
 */
const validatedInWorker: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : (validatorCompiler(route as never) as (data: unknown) => { value: unknown });

/** Raw (possibly gzipped) body limits: a batch of events, a transcript. */
const EVENTS_BODY_MAX = 1024 * 1024;
/**
 * A batch of events inflates to at most 1 MiB of JSON (thousands of ordinary events; a bot with long
 * form answers splits its batches): storing one costs the event loop its parameters' serialisation,
 * ~20 ms per MiB, which this keeps under the 50 ms any one request may take (docs/api.md).
 */
const EVENTS_JSON_MAX = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The bot whose key the request carries (bot API routes). */
    bot: BotCaller | null;
  }
}

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 415: ApiError, 429: ApiError, 503: ApiError };
const TranscriptParams = z.object({ server: Snowflake, fileid: TranscriptFileId });

/** A weak ETag of a configuration as a bot reads it: its version and a hash of its canonical JSON. */
function configEtag(version: number, config: unknown): string {
  return `W/"${version}-${createHash('sha256').update(canonicalJson(config)).digest('base64url').slice(0, 22)}"`;
}

/**
 * The bot API (`/api/bot/v1`): a bot process reads configurations and writes ticket events,
 * transcripts and shard heartbeats, with its key (`Authorization: Bearer tk_bot_...`; no cookies, no
 * CSRF rules). The key is checked before the body is read. Bodies may be gzipped
 * (`content-encoding: gzip`). Its data is its own: events, tickets and transcripts carry its bot id.
 */
export default async function botRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('bot', null);

  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
    if (route.schema) route.schema = { ...route.schema, tags: ['bot'], security: [{ botKey: [] }] };
  });
  // Bodies are inflated by the parser below, within each route's own limits (not by @fastify/compress).
  const raw = { decompress: false } as const;

  // Refused keys count per IP (BOT_KEY_FAILURES_MAX a window); past the limit, a refused key is
  // answered 429 instead of 401 until the window ends. A valid key is never held back by it (the key is
  // looked up first, one primary-key read): a stale shard or a neighbour on the same address cannot
  // lock the bot out.
  const failures = app.hasDecorator('createRateLimit')
    ? app.createRateLimit({ max: app.config.rateLimit.botKeyFailuresMax, keyGenerator: (req) => `botkey-failed:${normalizeIP(req.ip, 64)}` })
    : null;
  app.addHook('onRequest', async (req) => {
    const key = bearerKey(req);
    const caller = key ? await app.botKeys.authenticate(key) : null;
    if (!caller) {
      const recent = failures ? await failures(req) : null;
      if (recent && !recent.isAllowed && recent.isExceeded) {
        throw new ApiHttpError('RATE_LIMITED', { retryAfter: Math.max(1, recent.ttlInSeconds), message: 'Too many refused bot keys from this address: wait and try again with a valid key.' });
      }
      throw new ApiHttpError('BOT_KEY_INVALID');
    }
    req.bot = caller;
  });

  // JSON, plain or gzipped, inflated up to the route's limit (config.inflatedMax).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (req: FastifyRequest, body: Buffer) => {
    const encoding = String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const config = req.routeOptions.config as { inflatedMax?: number; bodyInWorker?: 'events' | 'messages' | 'transcript' };
    const max = config.inflatedMax ?? EVENTS_JSON_MAX;
    if (encoding !== 'gzip' && encoding !== 'identity') {
      throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE', { message: `content-encoding ${encoding} is not accepted: send gzip or nothing.` });
    }
    // The large bodies (a batch of events, a transcript): inflated, parsed and validated off the event loop.
    if (config.bodyInWorker === 'events') return app.bodyWorker.events(body, encoding, max);
    if (config.bodyInWorker === 'messages') return app.bodyWorker.messages(body, encoding, max);
    if (config.bodyInWorker === 'transcript') return app.bodyWorker.transcript(body, encoding, max);
    let raw = body;
    if (encoding === 'gzip') {
      try {
        raw = await gunzip(body, { maxOutputLength: max });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
          throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: `The body inflates to more than ${max / 1024 / 1024} MiB: nothing was stored.` });
        }
        throw new ApiHttpError('VALIDATION_FAILED', { message: 'The body is not valid gzip.' });
      }
    } else if (encoding !== 'identity') {
      throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE', { message: `content-encoding ${encoding} is not accepted: send gzip or nothing.` });
    }
    if (raw.length > max) throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: `The body is larger than ${max / 1024 / 1024} MiB: nothing was stored.` });
    return parseUntrustedJson(raw.toString('utf8'));
  });

  // A transcript read but not stored (refused by its params or its server): forgotten by the worker now.
  app.addHook('onResponse', async (req) => {
    const draft = req.body as Partial<TranscriptDraft> | undefined;
    if (draft && typeof draft.discard === 'function') draft.discard();
  });

  app.get('/me', { schema: { response: { 200: BotIdentity, ...errors } } }, async (req) => {
    const bot = req.bot!;
    return { botId: bot.botId, keyId: bot.keyId, keyName: bot.keyName, expiresAt: bot.expiresAt };
  });

  app.post('/keys/rotate', { ...raw, schema: { body: BotKeyRotateRequest.optional(), response: { 200: BotKeyRotateResponse, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const overlap = req.body?.overlapSeconds ?? app.config.bot.keyOverlapSeconds;
    const rotated = await app.botKeys.rotate(req.bot!, overlap);
    req.log.info({ botId: req.bot!.botId, keyId: req.bot!.keyId, newKeyId: rotated.keyId }, 'bot key rotated');
    return rotated;
  });

  // The answer's schema is the configuration's, field by field: the OpenAPI document tells a bot what it reads.
  const configAnswer = ServerConfigAnswer.pick({ version: true }).extend({ config: ServerConfigDocument });
  app.get('/servers/:server/config', { schema: { params: GuildParams, response: { 200: configAnswer, 304: z.null(), ...errors } } }, async (req, reply) => {
    await app.botKeys.assertServes(req.bot!.botId, [req.params.server]);
    const live = await app.serverConfigs.live(req.params.server);
    const etag = configEtag(live.version, live.config);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    const match = req.headers['if-none-match'];
    if (typeof match === 'string' && match.split(',').some((m) => m.trim() === etag)) return reply.code(304).send(null);
    return { version: live.version, config: live.config };
  });

  /**
   * A batch route's options: its body (up to 1 MB as sent and as JSON) inflated, parsed and validated
   * by the body worker (the schema stays for the docs and types).
   */
  const batchRoute = (kind: 'events' | 'messages') => ({
    ...raw,
    bodyLimit: EVENTS_BODY_MAX,
    config: { inflatedMax: EVENTS_JSON_MAX, bodyInWorker: kind, bodyTooLarge: `A batch of ${kind} may be at most ${EVENTS_BODY_MAX / 1024 / 1024} MB as sent (and as JSON): split it.` },
    validatorCompiler: validatedInWorker,
  });

  app.post(
    '/events',
    { ...batchRoute('events'), schema: { body: TicketEventBatch, response: { 200: TicketEventBatchResult, ...errors } } },
    async (req) => {
      // A batch naming a server this bot does not serve is refused whole.
      await app.botKeys.assertServes(req.bot!.botId, req.body.events.map((e) => e.serverId));
      const result = await app.tickets.ingest(req.bot!.botId, req.body.events);
      req.log.debug({ botId: req.bot!.botId, ...result }, 'ticket events stored');
      return result;
    },
  );

  app.post(
    '/messages',
    { ...batchRoute('messages'), schema: { body: TicketMessageBatch, response: { 200: TicketMessageBatchResult, ...errors } } },
    async (req) => {
      await app.botKeys.assertServes(req.bot!.botId, req.body.messages.map((m) => m.serverId));
      const result = await app.ticketMessages.ingest(req.bot!.botId, req.body.messages);
      req.log.debug({ botId: req.bot!.botId, ...result }, 'ticket messages stored');
      return result;
    },
  );

  // Commands (docs/api.md, "Bot commands"): a long poll. A bot that hangs up mid-wait takes nothing;
  // one that hangs up as its commands are handed out gets them again once their lease runs out.
  app.get('/commands', { schema: { querystring: BotCommandsQuery, response: { 200: BotCommandBatch, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const hangUp = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) hangUp.abort();
    };
    reply.raw.once('close', onClose);
    // Gone already (while its key was checked): its close event has passed.
    if (reply.raw.destroyed || req.raw.socket?.destroyed) hangUp.abort();
    try {
      const commands = await app.botCommands.poll(req.bot!.botId, req.query.max, req.query.wait * 1000, hangUp.signal);
      if (commands.length > 0) req.log.debug({ botId: req.bot!.botId, commands: commands.map((c) => c.id) }, 'bot commands handed out');
      return { commands };
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  app.post(
    '/commands/:id/result',
    { ...raw, schema: { params: BotCommandParams, body: BotCommandResult, response: { 200: BotCommandResultAnswer, ...errors } } },
    async (req) => {
      const answer = await app.botCommands.report(req.bot!.botId, req.params.id, req.body);
      req.log.info({ botId: req.bot!.botId, commandId: answer.id, state: answer.state }, 'bot command reported');
      return answer;
    },
  );

  // A reply's files (services/ticket-actions.ts): the bot a sent reply was queued for downloads them to
  // post it, while it serves the file's server (checked before the bytes are read). Always served as
  // bytes to save, never as something a browser would show or run.
  const AttachmentParams = z.object({ id: z.string().regex(/^att_[a-z2-7]{26}$/, 'Must be a reply file id (att_ and 26 letters or digits).') });
  app.get('/attachments/:id', { schema: { params: AttachmentParams, response: { 200: z.any(), ...errors } } }, async (req, reply) => {
    const gone = () => new ApiHttpError('NOT_FOUND', { message: 'There is no reply file with this id sent by your bot (files not sent within a day are deleted, sent ones after 30 days).' });
    const file = await app.ticketActions.sentFile(req.params.id, req.bot!.botId);
    if (!file) throw gone();
    await app.botKeys.assertServes(req.bot!.botId, [file.guildId]);
    const bytes = await app.ticketActions.bytes(req.params.id);
    if (!bytes) throw gone();
    return reply
      .header('cache-control', 'private, no-store')
      .header('content-disposition', contentDisposition(file.filename))
      .header('content-security-policy', 'sandbox')
      .header('x-content-type-options', 'nosniff')
      .type('application/octet-stream')
      .send(bytes);
  });

  app.put('/shards', { ...raw, schema: { body: ShardHeartbeatBatch, response: { 204: z.null(), ...errors } } }, async (req, reply) => {
    await app.systemHealth.recordShards(req.bot!.botId, req.body.shards);
    return reply.code(204).send(null);
  });

  app.put(
    '/servers/:server/transcripts/:fileid',
    {
      ...raw,
      bodyLimit: TRANSCRIPT_UPLOAD_MAX_BYTES,
      // The body was validated against TranscriptV2 by the body worker, which keeps it (req.body is its draft).
      validatorCompiler: validatedInWorker,
      config: {
        inflatedMax: TRANSCRIPT_JSON_MAX_BYTES,
        bodyInWorker: 'transcript',
        bodyTooLarge: `A transcript may be at most ${TRANSCRIPT_UPLOAD_MAX_BYTES / 1024 / 1024} MB as sent (send it gzipped) and ${TRANSCRIPT_JSON_MAX_BYTES / 1024 / 1024} MB as JSON.`,
      },
      schema: { params: TranscriptParams, body: TranscriptV2, response: { 200: TranscriptStored, ...errors } },
    },
    async (req) => {
      await app.botKeys.assertServes(req.bot!.botId, [req.params.server]);
      const stored = await app.transcripts.store(req.bot!.botId, req.params.server, req.params.fileid, req.body as unknown as TranscriptDraft);
      req.log.info({ botId: req.bot!.botId, server: req.params.server, fileId: stored.fileId, messages: stored.messages, storedBytes: stored.storedBytes }, 'transcript stored');
      return stored;
    },
  );
}

/** `attachment` with an ASCII `filename` (others as `_`) and the UTF-8 `filename*` (RFC 8187: `'()*` percent-encoded too). */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

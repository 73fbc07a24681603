import { promisify } from 'node:util';
import { gunzip as gunzipCb } from 'node:zlib';
import {
  ApiError,
  allows,
  type ServerConfig,
  Snowflake,
  type TranscriptAccessReason,
  TranscriptFileId,
  TranscriptList,
  TranscriptListQuery,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';
import { notDashboardFetch } from '../../plugins/app/security';
import type { TranscriptRow } from '../../services/transcripts';
import { actorOf } from '../../lib/actor';

const gunzip = promisify(gunzipCb);

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 405: ApiError, 503: ApiError };
const TranscriptParams = z.object({ server: Snowflake, fileid: TranscriptFileId });
const AttachmentParams = TranscriptParams.extend({ attachment: Snowflake });
const MineQuery = TranscriptListQuery.pick({ cursor: true });
/** `part=head`: the first messages and `totalMessages` (what the viewer paints first); absent, the whole transcript. */
const TranscriptReadQuery = z.object({ part: z.literal('head').optional() }).strict();

/** Content types shown in the page (images, video, audio, plain text); everything else is a download. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm)|audio\/(mpeg|ogg|wav|webm)|text\/plain)$/;

function notFound(): ApiHttpError {
  return new ApiHttpError('NOT_FOUND', { message: 'There is no such transcript: the link may be wrong, or the transcript was deleted.' });
}

/**
 * Who may read a transcript, decided on fresh data: the ticket's opener; the server's dashboard
 * managers (full access, or a role with read access to the Web Logs); members holding one of the
 * panel's support roles (the live configuration's panel, the member's roles as Discord says, read
 * within the minute); staff holding DASHBOARD_SUPPORT_SEARCH_READ (read only, audited). Anyone else: 403 (code 403) saying who may.
 */
async function decideAccess(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, row: TranscriptRow): Promise<TranscriptAccessReason> {
  const session = await req.getSession();
  if (!session) throw new ApiHttpError('UNAUTHENTICATED');
  if (session.userId === row.openerId) return 'opener';
  let refusal: ApiHttpError | null = null;
  try {
    await app.requireGuildAccess(req, reply);
    // Staff read (plugins/app/auth.ts: DASHBOARD_SUPPORT_SEARCH_READ, audited): said as such in Web Logs.
    if (req.serverAccess!.via === 'staff') return 'staff';
    if (allows(req.serverAccess!, 'logs', 'read')) return 'manager';
  } catch (error) {
    // A staff read that did not open (past the staff lifetimes, or not the dashboard's request) is
    // no refusal of the user's own right: the support roles below may still let them read.
    if (!(error instanceof ApiHttpError) || !['NO_SERVER_ACCESS', 'SERVER_NOT_FOUND', 'STAFF_SIGN_IN_AGAIN', 'CSRF_REJECTED'].includes(error.errorName)) throw error;
    refusal = error;
  }
  const live = await app.serverConfigs.live(row.guildId);
  const panel = (live.config as ServerConfig).panels.find((p) => p.id === row.panelId);
  const support = panel?.supportRoleIds ?? [];
  if (refusal?.errorName !== 'SERVER_NOT_FOUND' && support.length > 0) {
    const roles = await app.serverAccess.memberRoles(row.guildId, session.userId);
    if (roles?.some((r) => support.includes(r))) return 'support';
  }
  // Not support either: the staff read's own answer stands (sign in again, or open it from the dashboard).
  if (refusal && (refusal.errorName === 'STAFF_SIGN_IN_AGAIN' || refusal.errorName === 'CSRF_REJECTED')) throw refusal;
  const panelText = panel ? `the support team of the panel “${panel.name}”` : 'the support team of its panel (the panel no longer exists, so nobody is)';
  throw new ApiHttpError('NO_SERVER_ACCESS', {
    message: `Only the ticket’s opener, the server’s dashboard managers and ${panelText} can read this transcript, and you are none of them. If your roles changed in the last minute, try again shortly.`,
  });
}

/**
 * Reading transcripts (v2): `GET /api/transcripts/v2/:server/:fileid` (the JSON, gzipped when the
 * client takes it; `x-transcript-access` says why the user may; `?part=head` its first messages), its copied attachments, and "Your
 * tickets" (`GET /api/transcripts/mine`). Every transcript read is written to the server's Web Logs.
 */
export default async function transcriptV2Routes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dashboardOrigins = new Set(app.config.dashboardOrigins);

  app.get('/mine', { preHandler: app.requireSession, schema: { querystring: MineQuery, response: { 200: TranscriptList, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const session = (await req.getSession())!;
    return app.transcripts.mine(session.userId, req.query.cursor);
  });

  app.get('/v2/:server/:fileid', { preHandler: app.requireSession, schema: { params: TranscriptParams, querystring: TranscriptReadQuery, response: { 401: ApiError, 400: ApiError, 403: ApiError, 404: ApiError, 405: ApiError, 503: ApiError } } }, async (req, reply) => {
    // Reading writes the view to Web Logs: only the dashboard's own fetch may do that, never a link,
    // frame or image on another page.
    const refusal = notDashboardFetch(req, dashboardOrigins);
    if (refusal) {
      req.log.info({ reason: refusal }, 'transcript read refused: not the dashboard');
      throw new ApiHttpError('CSRF_REJECTED', { message: 'Open the transcript in the Tickety dashboard (this request did not come from it).' });
    }
    const row = await app.transcripts.find(req.params.server, req.params.fileid);
    if (!row) throw notFound();
    const reason = await decideAccess(app, req, reply, row);
    const content = req.query.part === 'head' ? await app.transcripts.head(row.guildId, row.fileId) : await app.transcripts.content(row.guildId, row.fileId);
    if (!content) throw notFound();
    await app.transcripts.logView(row, await actorOf(req), reason);
    reply.header('cache-control', 'private, no-store').header('x-transcript-access', reason).header('vary', 'accept, accept-encoding');
    // The dashboard asks for the stored gzip as it is (`accept: application/gzip`) and inflates it in
    // the page: 15 MB of JSON then never cross from the browser's network process (half a second
    // for the longest tickets; bench/transcript-viewer.mjs).
    if (/\bapplication\/gzip\b/i.test(String(req.headers.accept ?? ''))) return reply.type('application/gzip').send(content as never);
    reply.type('application/json; charset=utf-8');
    const accepts = String(req.headers['accept-encoding'] ?? '');
    if (/\bgzip\b/i.test(accepts)) return reply.header('content-encoding', 'gzip').send(content as never);
    return reply.send((await gunzip(content)) as never);
  });

  app.get(
    '/v2/:server/:fileid/attachments/:attachment',
    { preHandler: app.requireSession, schema: { params: AttachmentParams, response: { 401: ApiError, 400: ApiError, 403: ApiError, 404: ApiError, 405: ApiError, 503: ApiError } } },
    async (req, reply) => {
      const row = await app.transcripts.find(req.params.server, req.params.fileid);
      if (!row) throw notFound();
      await decideAccess(app, req, reply, row);
      const file = await app.transcripts.attachment(row.guildId, row.fileId, req.params.attachment);
      if (!file) throw new ApiHttpError('NOT_FOUND', { message: 'This transcript has no such attachment.' });
      const inline = INLINE_TYPES.test(file.contentType);
      const name = encodeURIComponent(file.filename);
      return reply
        .header('cache-control', 'private, no-cache')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'same-site')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`)
        .type(inline ? file.contentType : 'application/octet-stream')
        .send(file.content as never);
    },
  );
}

/** A server's transcripts for its managers (`GET /api/guilds/:server/transcripts`: Web Logs read access). */
export async function serverTranscriptRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:server/transcripts',
    {
      attachValidation: true,
      preHandler: app.requireArea('logs', 'read'),
      schema: { params: z.object({ server: Snowflake }), querystring: TranscriptListQuery, response: { 200: TranscriptList, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      return app.transcripts.list(req.guild!.id, req.query);
    },
  );
}

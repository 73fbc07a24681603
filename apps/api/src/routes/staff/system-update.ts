import { createHash } from 'node:crypto';
import {
  Announcement,
  AnnouncementParams,
  AnnouncementsAnswer,
  AnnouncementsQuery,
  ApiError,
  CreateAnnouncementBody,
  EditAnnouncementBody,
  PublicAnnouncementsAnswer,
  WithdrawAnnouncementBody,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audiencesFor } from '../../services/announcements';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

/**
 * How long a browser (or, for a caller without cookies, a shared cache) may reuse the public answer.
 * The banner reads again every 30 s, so a withdrawn notice is gone from every page within a minute.
 */
const ANNOUNCEMENTS_MAX_AGE_SECONDS = 30;

/** Adds `value` to the answer's Vary (CORS has put Origin there). */
function vary(reply: FastifyReply, value: string): void {
  const current = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!current.some((v) => v.toLowerCase() === value.toLowerCase() || v === '*')) current.push(value);
  reply.header('vary', current.join(', '));
}

/** A weak validator of the answer's content (weak: compression may change its bytes, not its meaning). */
function etagOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === bare;
  });
}

/**
 * Announcements and maintenance notices (registered under `/api`):
 * - `GET /staff/announcements` (DASHBOARD_SUPPORT_SYSTEM_READ): every notice, newest first, a page at a time;
 * - `POST /staff/announcements`, `PATCH /staff/announcements/:id`, `POST /staff/announcements/:id/withdraw`
 *   (DASHBOARD_SUPPORT_SYSTEM_WRITE): create (a draft or published), edit / publish, withdraw; each
 *   change written to the staff audit in its transaction;
 * - `GET /announcements` (anyone): the notices active now for the caller (a visitor: `everyone`; a
 *   signed-in user: also `signedIn`; staff, read from the database on this request: also `staff`),
 *   cacheable for 30 s (`Vary: Cookie`, an ETag answered with 304).
 */
export default async function systemUpdateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const announcements = app.announcements;
  const read = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_READ') } as const;
  const write = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_WRITE') } as const;
  const userOf = async (req: FastifyRequest) => (await req.getSession())!.userId;

  app.get('/staff/announcements', { ...read, schema: { querystring: AnnouncementsQuery, response: { 200: AnnouncementsAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return announcements.list(req.query);
  });

  app.post('/staff/announcements', { ...write, schema: { body: CreateAnnouncementBody, response: { 200: Announcement, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    return announcements.create(await userOf(req), req.body);
  });

  app.patch(
    '/staff/announcements/:id',
    { ...write, schema: { params: AnnouncementParams, body: EditAnnouncementBody, response: { 200: Announcement, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      return announcements.edit(await userOf(req), req.params.id, req.body);
    },
  );

  app.post(
    '/staff/announcements/:id/withdraw',
    { ...write, schema: { params: AnnouncementParams, body: WithdrawAnnouncementBody, response: { 200: Announcement, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      return announcements.withdraw(await userOf(req), req.params.id, req.body?.version);
    },
  );

  app.get('/announcements', { schema: { response: { 200: PublicAnnouncementsAnswer, 304: z.undefined(), 400: ApiError } } }, async (req, reply) => {
    const session = await req.getSession();
    // Staff on this request's data: a revoked flag stops showing staff notices at the next read, and
    // so does a session past the staff lifetimes (this read does not count as staff activity).
    const viewer = !session ? 'visitor' : (await app.accounts.team(session.userId)) && app.isStaffSessionRecent(session) ? 'staff' : 'user';
    const body = { announcements: await announcements.active(audiencesFor(viewer)) };
    const etag = etagOf(body);
    // A caller without cookies gets what every visitor gets: a shared cache may keep it.
    const scope = req.headers.cookie ? 'private' : 'public';
    reply.header('cache-control', `${scope}, max-age=${ANNOUNCEMENTS_MAX_AGE_SECONDS}`);
    vary(reply, 'Cookie');
    reply.header('etag', etag);
    if (matches(req.headers['if-none-match'], etag)) return reply.code(304).send(undefined);
    return body;
  });
}

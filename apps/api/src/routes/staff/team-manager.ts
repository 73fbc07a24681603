import {
  ApiError,
  StaffAuditAnswer,
  StaffAuditQuery,
  StaffLookupAnswer,
  StaffTeamAnswer,
  StaffTeamDeleteAnswer,
  StaffTeamPutAnswer,
  StaffTeamPutBody,
  StaffTeamUserParams,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { perUserLimit } from '../../lib/rate-limits';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 429: ApiError, 503: ApiError };

/**
 * The team manager's API (under `/api/staff`): the staff members and the staff audit for
 * SPECIAL_TEAM_MANAGER_READ; looking a Discord user up, adding, editing and removing a member for
 * SPECIAL_TEAM_MANAGER_WRITE (services/staff-team.ts has the rules). Each change and its audit row
 * are one transaction; `requireStaff` reads the flags fresh on every request, so the member's very
 * next request, in any session, sees the change.
 */
export default async function teamManagerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const team = app.staffTeam;
  const read = { attachValidation: true, preHandler: app.requireStaff('SPECIAL_TEAM_MANAGER_READ') } as const;
  const write = { attachValidation: true, preHandler: app.requireStaff('SPECIAL_TEAM_MANAGER_WRITE') } as const;
  const userOf = async (req: FastifyRequest) => (await req.getSession())!.userId;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get('/team', { ...read, schema: { response: { 200: StaffTeamAnswer, ...errors } } }, async (_req, reply) => {
    noStore(reply);
    return { members: await team.list() };
  });

  app.get('/team/lookup/:user', { ...write, schema: { params: StaffTeamUserParams, response: { 200: StaffLookupAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    return team.lookup(req.params.user);
  });

  app.put('/team/:user', { ...write, schema: { params: StaffTeamUserParams, body: StaffTeamPutBody, response: { 200: StaffTeamPutAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    return team.set(await userOf(req), req.params.user, req.body.permissions);
  });

  app.delete('/team/:user', { ...write, schema: { params: StaffTeamUserParams, response: { 200: StaffTeamDeleteAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    await team.remove(await userOf(req), req.params.user);
    return { removed: true as const };
  });

  // The audit's filters search text: limited per staff member (STAFF_RATE_LIMIT_MAX a minute).
  app.get('/audit', { ...read, config: perUserLimit('staff-audit', app.config.rateLimit.staffMax), schema: { querystring: StaffAuditQuery, response: { 200: StaffAuditAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    return team.audit(req.query);
  });
}

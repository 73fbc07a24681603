import { ApiError, StaffSystemAnswer, StaffWebhookReplayAnswer, StaffWebhookReplayParams, StaffWebhooksAnswer, StaffWebhooksQuery } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiHttpError } from '../../lib/errors';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

/**
 * The staff System page (`/api/staff/system`, `/api/staff/webhooks`): the service's health and the
 * payment providers' webhook queues for DASHBOARD_SUPPORT_SYSTEM_READ; replaying a dead letter (queued
 * again, applied by the worker, audited) for DASHBOARD_SUPPORT_SYSTEM_WRITE.
 */
export default async function staffSystemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_READ') } as const;
  const write = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_WRITE') } as const;

  app.get('/system', { ...read, schema: { response: { 200: StaffSystemAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.systemHealth.system(req.log);
  });

  app.get('/webhooks', { ...read, schema: { querystring: StaffWebhooksQuery, response: { 200: StaffWebhooksAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.webhookQueue.view(req.query);
  });

  app.post('/webhooks/:id/replay', { ...write, schema: { params: StaffWebhookReplayParams, response: { 200: StaffWebhookReplayAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const staffId = (await req.getSession())!.userId;
    if (!(await app.webhookQueue.replay(req.params.id, staffId))) {
      throw new ApiHttpError('NOT_FOUND', { message: 'There is no dead webhook event with this id (replayed already?).' });
    }
    app.inboxWorker.nudge();
    return { replayed: true as const };
  });
}

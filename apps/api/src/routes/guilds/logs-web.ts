import { ApiError, GuildParams, WebLogActors, WebLogPage, WebLogQuery } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 503: ApiError };

/** Web Logs (`/dashboard/:server/logs-web`): the server's log, filtered and paged, and everyone in it. `logs` read access. */
export default async function logsWebRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { attachValidation: true, preHandler: app.requireArea('logs', 'read') } as const;

  app.get('/:server/logs/actors', { ...read, schema: { params: GuildParams, response: { 200: WebLogActors, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return { actors: await app.serverConfigs.logActors(req.guild!.id) };
  });

  app.get('/:server/logs', { ...read, schema: { params: GuildParams, querystring: WebLogQuery, response: { 200: WebLogPage, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { cursor, actor, action, from, to, limit } = req.query;
    // As UTC: PostgreSQL refuses some offsets an ISO time may carry (beyond ±15:59).
    const utc = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
    return app.serverConfigs.logs(req.guild!.id, { cursor, actor, action, from: utc(from), to: utc(to), limit });
  });
}

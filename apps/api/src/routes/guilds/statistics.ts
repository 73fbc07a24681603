import { ApiError, FeedbackComments, FeedbackCommentsQuery, GuildParams, StatisticsAnswer, StatisticsQuery } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 503: ApiError };

/**
 * A server's Statistics (`GET /api/guilds/:server/statistics`): read access to Statistics. The range
 * the server's plan allows (the plan catalogue's `statisticsDays`, `statisticsExport`) is checked by the service.
 * Without `tz`, the days are the server's (services/statistics.ts, serverTimeZone).
 */
export default async function statisticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:server/statistics',
    {
      attachValidation: true,
      preHandler: app.requireArea('statistics', 'read'),
      schema: { params: GuildParams, querystring: StatisticsQuery, response: { 200: StatisticsAnswer, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const timings: string[] = [];
      const answer = await app.statistics.page(req.guild!, req.query, (name, ms) => timings.push(`${name};dur=${ms.toFixed(1)}`));
      // Each query's time (Server-Timing: the browser's devtools show it; bench/statistics.mjs reads it).
      reply.header('server-timing', timings.join(', '));
      return answer;
    },
  );
  // The comments given with ratings (the Statistics page's Feedback list), a page at a time.
  app.get(
    '/:server/statistics/feedback',
    {
      attachValidation: true,
      preHandler: app.requireArea('statistics', 'read'),
      schema: { params: GuildParams, querystring: FeedbackCommentsQuery, response: { 200: FeedbackComments, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      return app.statistics.comments(req.guild!, req.query);
    },
  );
}

import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  ApiError,
  type ErrorCodeName,
  PLAYGROUND_ERROR_RESPONSES,
  PLAYGROUND_LIMITS,
  PlaygroundErrorParams,
  PlaygroundErrorQuery,
  PlaygroundHeldAnswer,
  PlaygroundIndex,
  PlaygroundRecovered,
  PlaygroundSlowAnswer,
  PlaygroundSlowQuery,
  PlaygroundTimeoutQuery,
  playgroundCodes,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { iso } from '../../lib/clock';
import { ApiHttpError } from '../../lib/errors';
import type { WaitEnd } from '../../services/playground-holds';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 429: ApiError, 503: ApiError };

/** A route's own limit: requests per minute and address (on top of nothing else: it replaces the /api limit for the route). */
const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/**
 * The staff Test page's playground (`/api/staff/playground`, SPECIAL_TEAM_MANAGER_READ): each route
 * makes the API answer one state of the request overlay and the error catalogue for real (a slow
 * success, a catalogue error, a held answer, a dropped connection), reading and changing nothing.
 * The routes and their caps: docs/api.md#the-staff-test-playground.
 */
export default async function staffTestRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guard = app.requireStaff('SPECIAL_TEAM_MANAGER_READ');
  const holds = app.playgroundHolds;
  const userOf = async (req: FastifyRequest) => (await req.getSession())!.userId;
  const codes = playgroundCodes();
  const byCode = new Map(codes.map((c) => [c.code, c]));

  app.get(
    '/playground',
    { attachValidation: true, preHandler: guard, config: perMinute(PLAYGROUND_LIMITS.rate.index), schema: { response: { 200: PlaygroundIndex, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      return {
        codes,
        slowMaxMs: PLAYGROUND_LIMITS.slowMaxMs,
        holdMaxMs: PLAYGROUND_LIMITS.holdMaxMs,
        keepAliveEveryMs: PLAYGROUND_LIMITS.keepAliveEveryMs,
        holdsPerUser: PLAYGROUND_LIMITS.holdsPerUser,
        recoverMaxMs: PLAYGROUND_LIMITS.recoverMaxMs,
      };
    },
  );

  app.get(
    '/playground/slow',
    {
      attachValidation: true,
      preHandler: guard,
      config: perMinute(PLAYGROUND_LIMITS.rate.slow),
      schema: { querystring: PlaygroundSlowQuery, response: { 200: PlaygroundSlowAnswer, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const release = holds.take(await userOf(req));
      let end: WaitEnd;
      try {
        end = await holds.wait(req.query.ms, reply);
      } finally {
        release();
      }
      if (end === 'gone') {
        // The client went away (its end of the connection is closed): close ours too, nothing to answer.
        reply.hijack();
        (req.raw.socket as Socket | undefined)?.destroy();
        return reply;
      }
      return { ok: true as const, waitedMs: req.query.ms, answeredAt: iso(app.clock()) };
    },
  );

  app.get(
    '/playground/error/:code',
    {
      attachValidation: true,
      preHandler: guard,
      config: perMinute(PLAYGROUND_LIMITS.rate.error),
      schema: { params: PlaygroundErrorParams, querystring: PlaygroundErrorQuery, response: { 200: PlaygroundRecovered, ...PLAYGROUND_ERROR_RESPONSES } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const now = app.clock();
      const { until, selector } = req.query;
      if (until !== undefined && until > now + PLAYGROUND_LIMITS.recoverMaxMs) {
        throw new ApiHttpError('VALIDATION_FAILED', { message: `until: at most ${PLAYGROUND_LIMITS.recoverMaxMs / 60_000} minutes ahead.` });
      }
      const entry = byCode.get(req.params.code)!;
      if (until !== undefined && until <= now) return { ok: true as const, recovered: true as const, code: entry.code, answeredAt: iso(now) };
      throw new ApiHttpError(entry.name as ErrorCodeName, {
        retryAfter: entry.retryAfter ?? undefined,
        selector: selector ?? (entry.selector ? true : undefined),
      });
    },
  );

  app.get(
    '/playground/timeout',
    {
      attachValidation: true,
      preHandler: guard,
      // Blanks must leave at once (a compressor would keep them back).
      compress: false,
      config: perMinute(PLAYGROUND_LIMITS.rate.timeout),
      schema: { querystring: PlaygroundTimeoutQuery, response: { 200: PlaygroundHeldAnswer, ...errors } },
    },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      const release = holds.take(await userOf(req));
      const ms = req.query.ms;
      const body = new PassThrough();
      const socket = req.raw.socket as Socket | undefined;
      const started = Date.now();
      // Leading whitespace is valid JSON: the headers and a blank leave now, a blank every 10 s keeps
      // the server's and any proxy's idle timeouts from ending the hold, the JSON comes at the end.
      const blanks = setInterval(() => body.write(' '), PLAYGROUND_LIMITS.keepAliveEveryMs);
      let done = false;
      const finish = (answer: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(blanks);
        unregister();
        release();
        if (answer) body.end(JSON.stringify(PlaygroundHeldAnswer.parse({ ok: true, heldMs: Date.now() - started, answeredAt: iso(app.clock()) })));
        else {
          // The client went away (its end of the connection is closed): close ours too, at once.
          body.destroy();
          socket?.destroy();
        }
      };
      const timer = setTimeout(() => finish(true), ms);
      const unregister = holds.onShutdown(() => finish(true));
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) finish(false);
      });
      body.write(' ');
      req.log.info({ ms }, 'playground: holding an answer');
      // A stream is sent as it is (the 200 schema documents its JSON; nothing is serialised).
      return (reply as FastifyReply).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
    },
  );

  app.get(
    '/playground/network',
    { attachValidation: true, preHandler: guard, config: perMinute(PLAYGROUND_LIMITS.rate.network), schema: { response: { ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      req.log.info('playground: closing the connection without an answer');
      // No answer at all: the connection is destroyed (the client sees a network failure).
      reply.hijack();
      reply.raw.destroy();
      return reply;
    },
  );
}

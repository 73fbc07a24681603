import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../../config';
import { ApiHttpError } from '../../lib/errors';

/** Seconds a client should wait after a 503 for load. */
export const OVERLOAD_RETRY_AFTER = 5;

/** A route that answers under pressure too (liveness: the process is alive, only busy). */
export const ANSWERS_UNDER_PRESSURE = { pressureHandler: () => undefined } as const;

/**
 * Load shedding (@fastify/under-pressure): while the event loop lags, or heap, RSS or event-loop
 * utilisation pass their limits (0 turns a check off), requests are answered at once with 503 and
 * the catalogue's 1011 body (Retry-After), through the one error handler, instead of queueing.
 * `app.isUnderPressure()` is what the readiness check reads.
 */
export default fp(
  async function underPressurePlugin(app: FastifyInstance, opts: AppConfig['pressure']) {
    await app.register(underPressure, {
      maxEventLoopDelay: opts.maxEventLoopDelayMs,
      maxHeapUsedBytes: opts.maxHeapUsedBytes,
      maxRssBytes: opts.maxRssBytes,
      maxEventLoopUtilization: opts.maxEventLoopUtilization,
      exposeStatusRoute: false,
      pressureHandler: async (req: FastifyRequest, _reply, type: string, value: number | undefined) => {
        const fields = { type, value: typeof value === 'number' ? Math.round(value * 1000) / 1000 : null };
        if (req.server.hasDecorator('logThrottle')) req.server.logThrottle.warn(req.log, fields, 'under pressure: request shed', String(type));
        else req.log.warn(fields, 'under pressure: request shed');
        throw new ApiHttpError('OVERLOADED', { retryAfter: OVERLOAD_RETRY_AFTER });
      },
    });
  },
  { name: 'tickety-under-pressure' },
);

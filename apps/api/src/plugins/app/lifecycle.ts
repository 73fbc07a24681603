import type { Socket } from 'node:net';
import { ERROR_CODES } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';
import { writeRawError } from './errors';

/** Seconds a client should wait when this instance is shutting down. */
const CLOSING_RETRY_AFTER = 5;

/**
 * Answers outside the routes, in the catalogue's shape too:
 * - while the server shuts down, a request that still arrives gets 503 (code 1011) with Retry-After
 *   and `Connection: close` (Fastify's own `return503OnClosing` body is not the catalogue's);
 * - an HTTP `CONNECT` (a proxy request: this is no proxy) gets 400 (code 1001) on the raw socket
 *   instead of a silently closed connection.
 */
export default fp(
  async function lifecycle(app: FastifyInstance) {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onRequest', (_req, reply, done) => {
      if (!closing) return done();
      reply.header('connection', 'close');
      throw new ApiHttpError('OVERLOADED', { message: 'This server is restarting: try again in a moment.', retryAfter: CLOSING_RETRY_AFTER });
    });
    app.server.on('connect', (_req: unknown, socket: Socket) => {
      writeRawError(socket, 400, {
        code: ERROR_CODES.VALIDATION_FAILED.code,
        message: 'This server is not a proxy: CONNECT is not supported.',
        isAuthenticated: false,
      });
    });
  },
  { name: 'tickety-lifecycle' },
);

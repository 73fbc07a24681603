import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ApiError, ERROR_CODES } from '@tickety/api-contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { DatabaseUnavailableError, isUnavailable } from '../../db/driver';
import { DiscordError } from '../../lib/discord';
import { DiscordBotError } from '../../lib/discord-bot';
import { ApiHttpError, isApiHttpError } from '../../lib/errors';
import { LogThrottle } from '../../lib/log';
import { popupErrorPage } from '../../lib/pages';
import { RecentErrors } from '../../lib/recent-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a body over this route's `bodyLimit` is told (1016), instead of the generic sentence with the limit. */
    bodyTooLarge?: string;
    /** How deep this route's JSON body may nest (default JSON_MAX_DEPTH, lib/json-body.ts). */
    bodyMaxDepth?: number;
    /** What a body nested deeper than that is told, instead of the generic 1001. */
    bodyTooDeep?: () => ApiHttpError;
    /** The body is a file's raw bytes, of any content type (plugins/app/security.ts, RAW_UPLOAD). */
    rawUpload?: boolean;
  }
}

/** Seconds a client should wait after a 503 for the database. */
export const DB_RETRY_AFTER = 5;

/**
 * Whether the request failed because its own client hung up while its body was being read (Node's
 * `aborted`, code ECONNRESET, on a request stream that is gone). That is the client's doing, not an
 * outage: never a 503 "database unavailable", never a warning, never on the System page.
 */
function isClientAbort(error: unknown, req: FastifyRequest): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ECONNRESET' && code !== 'ERR_STREAM_PREMATURE_CLOSE') return false;
  // The request stream itself was cut before its end (not, say, a database connection reset while
  // the request was handled: that one stays an outage).
  return req.raw.readableAborted || (code === 'ECONNRESET' && (error as Error).message === 'aborted' && !req.raw.complete);
}

/** Turns anything thrown into an ApiHttpError (unknown errors become 1500, logged, never shown). */
function toApiError(error: unknown, req: FastifyRequest): ApiHttpError {
  if (isClientAbort(error, req)) {
    req.log.debug({ route: req.routeOptions?.url ?? null }, 'client hung up before its request arrived');
    return new ApiHttpError('VALIDATION_FAILED', { message: 'The request did not arrive whole: the client hung up.' });
  }
  if (isApiHttpError(error)) {
    // A provider that did not answer: the answer says so (502 code 1024), the log says why (never the request's secrets).
    if (error.errorName === 'PROVIDER_UNAVAILABLE' && error.cause !== undefined) {
      const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : String(error.cause);
      // One cause per route, provider and reason: each provider that is down is said once a second.
      const provider = (req.params as { provider?: unknown } | undefined)?.provider;
      const key = `${req.routeOptions.url} ${typeof provider === 'string' ? provider : ''} ${cause.slice(0, 200)}`;
      req.server.logThrottle.warn(req.log, { route: req.routeOptions.url, cause: cause.slice(0, 500) }, 'payment provider unavailable', key);
    }
    return error;
  }
  if (error instanceof DatabaseUnavailableError || isUnavailable(error)) {
    const err = describe(error);
    req.server.logThrottle.warn(req.log, { err }, 'database unavailable', err);
    return new ApiHttpError('DATABASE_UNAVAILABLE', { retryAfter: DB_RETRY_AFTER });
  }
  if ((error instanceof DiscordError || error instanceof DiscordBotError) && error.kind === 'unavailable') {
    req.server.logThrottle.warn(req.log, { err: error.message }, 'discord unavailable', error.message);
    return new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: error.retryAfter ?? 5 });
  }
  const fe = error as Partial<FastifyError> & { statusCode?: number };
  if (isResponseSerializationError(error)) {
    // An answer that does not match its own response schema: a bug here, never sent as it is.
    req.log.error({ err: error, route: req.routeOptions.url }, 'answer does not match its response schema');
    return new ApiHttpError('INTERNAL');
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // The route's schema (packages/api-contract) refused the params, query or body.
    const issue = error.validation[0];
    const field = issue?.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const where = `${error.validationContext ?? 'request'}${field ? ` "${field}"` : ''}`;
    return new ApiHttpError('VALIDATION_FAILED', { message: `The request's ${where} is not valid: ${issue?.message ?? 'it does not match'}.` });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiHttpError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiHttpError('PAYLOAD_TOO_LARGE', { message: bodyTooLargeMessage(req) });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiHttpError('VALIDATION_FAILED', { message: 'The request body is not valid JSON.' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiHttpError('VALIDATION_FAILED', { message: 'The request body does not match its Content-Length.' });
    default:
      break;
  }
  if (fe.statusCode === 429) return new ApiHttpError('RATE_LIMITED');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiHttpError('VALIDATION_FAILED', { httpStatus: fe.statusCode === 404 ? 400 : fe.statusCode });
  }
  req.log.error({ err: error }, 'unhandled error');
  return new ApiHttpError('INTERNAL');
}

/** "512 KB", "1 MB": a byte limit as people read it. */
export function formatBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb && bytes % mb === 0) return `${bytes / mb} MB`;
  if (bytes >= 1024) return `${Math.floor(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * A body over the route's `bodyLimit` (Fastify refuses it before any handler): what was too large and
 * the limit. A route may say it in its own words (route config `bodyTooLarge`, e.g. the configuration
 * file import).
 */
function bodyTooLargeMessage(req: FastifyRequest): string {
  const own = req.routeOptions?.config?.bodyTooLarge;
  if (typeof own === 'string') return own;
  const limit = req.routeOptions?.bodyLimit;
  return typeof limit === 'number' && limit > 0 ? `The request body is too large: at most ${formatBytes(limit)} is accepted here.` : 'The request body is too large.';
}

function describe(error: unknown): string {
  const cause = error instanceof DatabaseUnavailableError ? error.cause : error;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

/**
 * Whether the caller is signed in, for an error body, without new work: the session this request
 * already looked up, else whether it sent a session cookie. An error answer never queries the
 * database (a rate-limited, shed or unknown-address request must cost nothing, and one that failed
 * because the database did must not wait for it again).
 */
async function knownAuthState(req: FastifyRequest, sessionCookie: string): Promise<boolean> {
  if (req.sessionPromise) {
    try {
      return (await req.sessionPromise) !== null;
    } catch {
      // the lookup itself failed (database down): fall back to the cookie
    }
  }
  return Boolean(req.cookies?.[sessionCookie]);
}

interface ErrorsOptions {
  sessionCookie: string;
  productName: string;
  /** Where a failed sign-in popup reports (the first dashboard origin). */
  popupOrigin: string;
}

/** Routes that run in the sign-in popup (route config `popup: true`): a JSON body would strand it. */
function isPopupRoute(req: FastifyRequest): boolean {
  return (req.routeOptions?.config as { popup?: unknown } | undefined)?.popup === true;
}

export async function sendApiError(req: FastifyRequest, reply: FastifyReply, error: ApiHttpError, opts: ErrorsOptions): Promise<void> {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  reply.header('cache-control', 'no-store');
  if (isPopupRoute(req)) {
    const page = popupErrorPage({
      productName: opts.productName,
      targetOrigin: opts.popupOrigin,
      code: error.code,
      httpStatus: error.statusCode,
      message: error.message,
    });
    await reply.code(error.statusCode).header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
    return;
  }
  const sessionCookie = opts.sessionCookie;
  const body: ApiError = {
    code: error.code,
    message: error.message,
    isAuthenticated: error.code === 401 ? false : await knownAuthState(req, sessionCookie),
  };
  if (error.selector !== undefined) body.selector = error.selector;
  await reply.code(error.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Whether a raw request carries the session cookie (before @fastify/cookie has parsed anything). */
function hasCookie(header: string | undefined, name: string): boolean {
  return Boolean(header?.split(';').some((part) => part.trim().startsWith(`${name}=`) && part.trim().length > name.length + 1));
}

/**
 * Fastify's `frameworkErrors`: URLs the router refuses before any hook runs (a malformed
 * percent-encoding, a path parameter over maxParamLength) get the API's error body too, instead of
 * Fastify's own `{error, code: 'FST_...'}`. No hook ran, so cookies are unparsed: a session cookie
 * counts as signed in, as when the database is down.
 */
export function frameworkErrors(sessionCookie: string) {
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    const body: ApiError = {
      code: ERROR_CODES.VALIDATION_FAILED.code,
      message: tooLong ? 'A part of the address is too long.' : 'The address is not valid.',
      isAuthenticated: hasCookie(req.headers.cookie, sessionCookie),
    };
    req.log.info({ code: error.code }, 'refused a malformed URL');
    return reply
      .code(tooLong ? 414 : 400)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .type('application/json; charset=utf-8')
      .send(body);
  };
}

/** The one error handler: every error becomes an `ApiError` body, never a stack or a secret. */
export default fp(
  async function errors(app: FastifyInstance, opts: ErrorsOptions) {
    const recent = new RecentErrors();
    app.decorate('recentErrors', recent);
    // Warnings that repeat with every request while a dependency is down: one line a second per cause.
    const throttle = new LogThrottle();
    app.decorate('logThrottle', throttle);
    app.addHook('onClose', async () => throttle.close());
    app.setErrorHandler(async (error, req, reply) => {
      const apiError = toApiError(error, req);
      // The staff playground's errors are asked for (they test the overlay): not the service's.
      if (apiError.statusCode >= 500 && !(req.routeOptions?.url ?? '').startsWith('/api/staff/playground')) {
        recent.add({
          at: new Date(app.clock()).toISOString(),
          requestId: String(req.id),
          method: req.method,
          route: req.routeOptions?.url ?? null,
          status: apiError.statusCode,
          code: apiError.code,
          message: apiError.message.slice(0, 300),
        });
      }
      await sendApiError(req, reply, apiError, opts);
      return reply;
    });
  },
  { name: 'tickety-errors' },
);

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them (an
 * unknown method such as `FOO`, headers over the 16 KB limit, e.g. a huge cookie, a malformed
 * request line) and requests that did not arrive in time (REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS)
 * are answered with the catalogue's body on the raw socket, then the connection is closed.
 */
export function clientErrorHandler(sessionCookie: string) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    let status = 400;
    let body: ApiError;
    const signedIn = Buffer.isBuffer(error.rawPacket) && error.rawPacket.includes(`${sessionCookie}=`);
    switch (error.code) {
      case 'HPE_HEADER_OVERFLOW':
        status = 431;
        body = {
          code: ERROR_CODES.VALIDATION_FAILED.code,
          message: "The request's headers are too large (often too many cookies): clear this site's cookies and try again.",
          isAuthenticated: signedIn,
        };
        break;
      case 'ERR_HTTP_REQUEST_TIMEOUT':
      case 'ERR_HTTP_HEADERS_TIMEOUT':
        status = 408;
        body = { code: ERROR_CODES.REQUEST_TIMEOUT.code, message: ERROR_CODES.REQUEST_TIMEOUT.message, isAuthenticated: signedIn };
        break;
      case 'HPE_INVALID_METHOD':
        body = { code: ERROR_CODES.VALIDATION_FAILED.code, message: 'The request method is not supported.', isAuthenticated: signedIn };
        break;
      default:
        body = { code: ERROR_CODES.VALIDATION_FAILED.code, message: 'The request could not be read (malformed HTTP).', isAuthenticated: signedIn };
    }
    writeRawError(socket, status, body);
  };
}

/** Answers on a raw socket (no request object: the parser refused it) with a catalogue body, then closes it. */
export function writeRawError(socket: Socket, status: number, body: ApiError): void {
  const json = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      json,
    ].join('\r\n'),
  );
}

/**
 * The longest path segment the router takes as a parameter (Fastify's `maxParamLength`). In the
 * all-in-one shape the static site's wildcard route catches what a too-long parameter kept from
 * matching, so the not-found handler answers those /api addresses with the same 414 as
 * `frameworkErrors` does in the API-only shape.
 */
export const MAX_PARAM_LENGTH = 100;

export function hasOverlongSegment(path: string): boolean {
  return path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH);
}

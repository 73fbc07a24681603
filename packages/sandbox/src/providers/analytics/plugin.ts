import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../../kit/crypto';
import { type AnalyticsSandboxControl, type AnalyticsStart, controlInternals, createAnalyticsSandboxControl } from './control';
import { PAGE_CSP, startsPage } from './page';
import { profitwellJs } from './profitwell-js';

export interface AnalyticsSandboxOptions {
  /** The public token (`data-pw-auth`, `?auth=`): profitwell.js and POST /starts refuse any other. */
  token: string;
  /** Reads and clears the starts. Default: a private one. */
  control?: AnalyticsSandboxControl;
  /** How many starts are kept (the oldest dropped). Default 200. */
  maxStarts?: number;
  /** The stand-in's time (epoch ms) for `at`. Default Date.now. */
  clock?: () => number;
}

const BODY_LIMIT = 4 * 1024;
/** The longest user_id, user_email and page kept. */
const MAX_ID = 200;
const MAX_EMAIL = 254;
const MAX_PAGE = 500;
/** How many starts the page lists. */
const SHOWN = 50;

class StartError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

function field(body: Record<string, unknown>, name: string, max: number): string | null {
  const value = body[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new StartError(400, `${name} must be a string.`);
  if (value.length > max) throw new StartError(400, `${name} must be at most ${max} characters.`);
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new StartError(400, `${name} must not contain control characters.`);
  return value;
}

/** A POST /starts body as a start, or a StartError saying what is wrong. */
function parseStart(body: unknown, token: string, at: string): AnalyticsStart {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new StartError(400, 'The body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  const given = fields.token;
  if (typeof given !== 'string' || !safeEqual(given, token)) throw new StartError(403, 'Unknown token.');
  const userId = field(fields, 'user_id', MAX_ID);
  const userEmail = field(fields, 'user_email', MAX_EMAIL);
  if (userId === null && userEmail === null) throw new StartError(400, 'A start needs user_id or user_email.');
  if (userEmail !== null && !/^[^\s@]+@[^\s@]+$/.test(userEmail)) throw new StartError(400, 'user_email must be an email address.');
  const page = field(fields, 'page', MAX_PAGE);
  if (page !== null && !page.startsWith('/')) throw new StartError(400, 'page must be a path starting with "/".');
  return { token, user_id: userId, user_email: userEmail, at, page };
}

/**
 * Whether the client hung up before its request was read (a tab closed, a page left while the
 * script's start was on its way): the body stream failed with Node's `aborted` (ECONNRESET) on a
 * connection that is gone. Nobody is left to answer, and nothing went wrong here.
 */
function clientHungUp(error: { code?: unknown; message?: unknown }, req: FastifyRequest): boolean {
  const raw = req.raw;
  if (!(raw.destroyed || raw.readableAborted || raw.socket?.destroyed === true)) return false;
  return error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send({ error: message });
}

/**
 * ProfitWell's browser snippet on loopback, for the offline demo and tests (production never mounts
 * it): `GET /profitwell.js?auth=<token>` (403 for another token), `POST /starts` (what the script
 * reports; JSON or text/plain, validated, the last `maxStarts` kept; a client that hangs up
 * mid-request is neither answered nor logged as an error), `GET /` (an accessible page of the recent
 * starts). Register it with a prefix: `app.register(analyticsSandbox, { prefix: '/sandbox/analytics', token })`.
 * Its body parsers and error handler stay inside. State is per control.
 */
export const analyticsSandbox: FastifyPluginAsync<AnalyticsSandboxOptions> = async function analyticsSandbox(app: FastifyInstance, opts: AnalyticsSandboxOptions) {
  if (typeof opts.token !== 'string' || opts.token.trim() === '') throw new RangeError('analyticsSandbox: token is required (a non-empty string)');
  const token = opts.token;
  const maxStarts = opts.maxStarts ?? 200;
  if (!(Number.isInteger(maxStarts) && maxStarts > 0)) throw new RangeError(`analyticsSandbox: maxStarts must be a whole number > 0, not ${maxStarts}`);
  const clock = opts.clock ?? Date.now;
  const control = opts.control ?? createAnalyticsSandboxControl();
  const record = controlInternals(control);

  // The script posts text/plain (a simple request: no preflight); JSON is taken too. Either is JSON.
  app.removeAllContentTypeParsers();
  const json = app.getDefaultJsonParser('error', 'error');
  for (const type of ['application/json', 'text/plain']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => json(req, body as string, done));
  }

  app.setErrorHandler(async (error: FastifyError | StartError, req, reply) => {
    if (error instanceof StartError) return sendError(reply, error.statusCode, error.message);
    // A client that hung up is not an outage: no answer to write (the socket is gone), no error logged.
    if (clientHungUp(error, req)) {
      req.log.debug({ code: (error as FastifyError).code }, 'analytics sandbox: the client hung up before its request was read');
      reply.hijack();
      return;
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'analytics sandbox: unexpected error');
    return sendError(reply, status, status >= 500 ? 'The sandbox failed to answer.' : error.message);
  });

  app.get('/profitwell.js', async (req, reply) => {
    const auth = (req.query as Record<string, unknown>).auth;
    if (typeof auth !== 'string' || !safeEqual(auth, token)) {
      return reply.code(403).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('profitwell.js: unknown or missing ?auth= token.');
    }
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(profitwellJs(token));
  });

  app.post('/starts', async (req, reply) => {
    const start = parseStart(req.body, token, new Date(clock()).toISOString());
    record.record(start, maxStarts);
    // No body: the script's no-cors request gets an opaque answer it never reads (a body left unread
    // keeps the request open in the browser, e.g. a page never reaching network idle).
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  app.get('/', async (_req, reply) =>
    reply
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(startsPage(control.starts(), SHOWN)),
  );
};

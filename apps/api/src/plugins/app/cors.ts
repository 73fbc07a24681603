import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';
import { addVary } from '../../lib/vary';

/** Static files anyone may fetch cross-origin (remote manifests and bundles): `*`, no credentials. */
function isPublicAsset(path: string): boolean {
  return path.startsWith('/remotes/') || path.endsWith('/mf-manifest.json');
}

const CREDENTIALED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const CREDENTIALED_HEADERS = 'content-type, x-requested-with';
/** What the dashboard may read of an answer: when to retry, and an export's file name. */
const EXPOSED_HEADERS = 'retry-after, content-disposition';

/**
 * CORS, two fixed policies (our own hook: @fastify/cors's option delegator rebuilt its options on
 * every request, 20 % of a warm @me):
 * - the API: credentialed, only for the exact DASHBOARD_ORIGINS; their preflights answered 204 with
 *   the methods and headers the dashboard sends, cached 10 minutes;
 * - remote manifests and bundles: public (`*`, no credentials); a preflight must name its origin and
 *   method (else the catalogue's 400).
 * Every answer varies by Origin. A preflight the policy does not allow goes on to the OPTIONS route
 * below: the catalogue's 404.
 */
export default fp(
  async function corsPlugin(app: FastifyInstance, opts: { origins: string[] }) {
    const allowed = new Set(opts.origins);
    // A callback hook (no promise, no microtask per request); an answered preflight does not call done.
    app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      addVary(reply, 'Origin');
      const origin = req.headers.origin;
      const preflight = req.method === 'OPTIONS';
      const queryAt = req.url.indexOf('?');
      const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
      if (isPublicAsset(path)) {
        if (preflight && (!origin || !req.headers['access-control-request-method'])) {
          throw new ApiHttpError('VALIDATION_FAILED', { message: 'Not a valid CORS preflight: it needs Origin and Access-Control-Request-Method.' });
        }
        reply.header('access-control-allow-origin', '*');
        if (!preflight) return done();
        reply.header('access-control-allow-methods', 'GET, HEAD');
        addVary(reply, 'Access-Control-Request-Headers');
        const requested = req.headers['access-control-request-headers'];
        if (requested !== undefined) reply.header('access-control-allow-headers', requested);
        reply.code(204).header('content-length', '0').send();
        return;
      }
      if (origin === undefined || !allowed.has(origin)) return done();
      reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true').header('access-control-expose-headers', EXPOSED_HEADERS);
      if (!preflight) return done();
      reply.header('access-control-allow-methods', CREDENTIALED_METHODS).header('access-control-allow-headers', CREDENTIALED_HEADERS).header('access-control-max-age', '600');
      reply.code(204).header('content-length', '0').send();
    });
    // Any other OPTIONS request is read like every request (its body's type and syntax checked: the
    // catalogue's 415 and 400), then answered the catalogue's 404.
    app.options('*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
  },
  { name: 'tickety-cors' },
);

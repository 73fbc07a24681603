import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';

/** Static files anyone may fetch cross-origin (remote manifests and bundles): `*`, no credentials. */
function isPublicAsset(path: string): boolean {
  return path.startsWith('/remotes/') || path.endsWith('/mf-manifest.json');
}

/**
 * Credentialed CORS only for the exact dashboard origins; a foreign origin gets no
 * Access-Control-Allow-Origin. Remote manifests and bundles are public (`*`).
 */
export default fp(
  async function corsPlugin(app: FastifyInstance, opts: { origins: string[] }) {
    const allowed = new Set(opts.origins);
    const credentialed: FastifyCorsOptions = {
      origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'x-requested-with'],
      // content-disposition: an export's file name, read by a dashboard on another origin.
      exposedHeaders: ['retry-after', 'content-disposition'],
      maxAge: 600,
      strictPreflight: false,
    };
    const open: FastifyCorsOptions = { origin: '*', credentials: false, methods: ['GET', 'HEAD'], strictPreflight: false };
    await app.register(cors, {
      hook: 'onRequest',
      delegator: (req: FastifyRequest, cb: (error: Error | null, options: FastifyCorsOptions) => void) => {
        const queryAt = req.url.indexOf('?');
        const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
        // A preflight must say where it comes from and what it will send (else the plugin's own
        // plain-text 400): refused with the catalogue's body instead.
        if (req.method === 'OPTIONS' && isPublicAsset(path) && (!req.headers.origin || !req.headers['access-control-request-method'])) {
          cb(new ApiHttpError('VALIDATION_FAILED', { message: 'Not a valid CORS preflight: it needs Origin and Access-Control-Request-Method.' }), open);
          return;
        }
        cb(null, isPublicAsset(path) ? open : credentialed);
      },
    });
  },
  { name: 'tickety-cors' },
);

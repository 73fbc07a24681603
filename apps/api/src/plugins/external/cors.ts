import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Static files anyone may fetch cross-origin (remote manifests and bundles): `*`, no credentials. */
export function isPublicAsset(path: string): boolean {
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
    const open: FastifyCorsOptions = { origin: '*', credentials: false, methods: ['GET', 'HEAD'] };
    await app.register(cors, {
      hook: 'onRequest',
      delegator: (req: FastifyRequest, cb: (error: Error | null, options: FastifyCorsOptions) => void) => {
        const q = req.url.indexOf('?');
        const path = q === -1 ? req.url : req.url.slice(0, q);
        cb(null, isPublicAsset(path) ? open : credentialed);
      },
    });
  },
  { name: 'tickety-cors' },
);

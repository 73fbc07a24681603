import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes authenticated otherwise (signatures, bearer keys) and without cookies; the sandbox is Discord's stand-in. */
const CSRF_EXEMPT = ['/api/webhooks/', '/api/bot/', '/sandbox/'];
/** The only pages that may be framed (spec: embeddable display layout). */
export const DISPLAY_PAGES = new Set(['/home-display', '/premium-display', '/clipboard']);

export function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
}

export function isDisplayPage(path: string): boolean {
  return DISPLAY_PAGES.has(path.length > 1 ? path.replace(/\/+$/, '') : path);
}

export interface SecurityOptions {
  allowedOrigins: string[];
  secure: boolean;
  /** Content-Security-Policy of HTML pages (frame-ancestors is added per page). */
  htmlCsp: string;
}

/**
 * CSRF for a cookie-authenticated JSON API, JSON body parsing, and the headers on every answer.
 * - Mutations (not GET/HEAD/OPTIONS) outside the exempt prefixes need `content-type: application/json`
 *   (else 415 1010), an allowed Origin (or `Sec-Fetch-Site: same-origin`) and `x-requested-with: tickety`
 *   (else 403 1005). Checked before the body is read.
 * - nosniff and Referrer-Policy everywhere, HSTS when Secure; HTML gets a CSP with frame-ancestors
 *   'none' (display pages: *), unless the route set its own (the OAuth callback page).
 */
export default fp(
  async function security(app: FastifyInstance, opts: SecurityOptions) {
    const allowed = new Set(opts.allowedOrigins);

    app.addHook('onRequest', async (req) => {
      if (SAFE_METHODS.has(req.method)) return;
      const path = pathOf(req);
      if (CSRF_EXEMPT.some((p) => path.startsWith(p))) return;
      const type = req.headers['content-type'];
      if (!type || !/^application\/json\s*(;|$)/i.test(type)) throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE');
      const origin = req.headers.origin;
      const sameOrigin = req.headers['sec-fetch-site'] === 'same-origin';
      const originOk = origin ? allowed.has(origin) || sameOrigin : sameOrigin;
      if (!originOk || req.headers['x-requested-with'] !== 'tickety') {
        req.log.info({ origin: origin ?? null, secFetchSite: req.headers['sec-fetch-site'] ?? null }, 'csrf check refused a request');
        throw new ApiHttpError('CSRF_REJECTED');
      }
    });

    // JSON bodies: an empty body is allowed (no payload), anything else must parse (prototype
    // poisoning refused). Errors become 400 1001 with a clear message.
    const defaultJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      if (typeof body === 'string' && body.trim() === '') {
        done(null, undefined);
        return;
      }
      defaultJson(req, body as string, (error, value) => {
        if (error) done(new ApiHttpError('VALIDATION_FAILED', { message: 'The request body is not valid JSON.' }), undefined);
        else done(null, value);
      });
    });

    app.addHook('onSend', async (req, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin');
      if (opts.secure) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      const path = pathOf(req);
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && !reply.hasHeader('content-security-policy') && !path.startsWith('/sandbox/')) {
        if (isDisplayPage(path)) {
          reply.header('content-security-policy', `${opts.htmlCsp}; frame-ancestors *`);
          reply.removeHeader('x-frame-options');
        } else {
          reply.header('content-security-policy', `${opts.htmlCsp}; frame-ancestors 'none'`);
          reply.header('x-frame-options', 'DENY');
        }
      }
      return payload;
    });
  },
  { name: 'tickety-security' },
);

/** The CSP of the front end's HTML (without frame-ancestors). */
export function htmlCsp(extra: { imgOrigins: string[]; connectOrigins: string[] }): string {
  const unique = (xs: string[]) => [...new Set(xs)].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' https://cdn.paddle.com",
    'frame-src https://*.paddle.com',
    `img-src ${unique(["'self'", 'data:', 'https://cdn.discordapp.com', ...extra.imgOrigins])}`,
    "style-src 'self' 'unsafe-inline'",
    `connect-src ${unique(["'self'", ...extra.connectOrigins])}`,
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

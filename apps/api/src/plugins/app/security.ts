import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';
import { badShape, JSON_MAX_CONTAINERS, JSON_MAX_DEPTH, jsonShapeProblem } from '../../lib/json-body';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The route option that exempts a route from the CSRF rules: `{ config: { csrf: false } }`, for
 * routes authenticated otherwise (signatures, bearer keys) that read no cookie, and the sandbox
 * (Discord's stand-in). Decided per matched route, never by address prefix, so a cookie route
 * added later under the same prefix is checked like any other.
 */
export const CSRF_EXEMPT = { csrf: false } as const;

/**
 * The route option of an upload whose body is a file's raw bytes (any content type, not JSON): the
 * Origin and `x-requested-with` rules still hold.
 */
export const RAW_UPLOAD = { rawUpload: true } as const;

function isRawUpload(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { rawUpload?: unknown } | undefined)?.rawUpload === true;
}

function isCsrfExempt(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { csrf?: unknown } | undefined)?.csrf === false;
}
/** The only pages that may be framed (spec: embeddable display layout). */
export const DISPLAY_PAGES = new Set(['/home-display', '/premium-display', '/clipboard']);

export function pathOf(req: FastifyRequest): string {
  const queryAt = req.url.indexOf('?');
  return queryAt === -1 ? req.url : req.url.slice(0, queryAt);
}

/** The path as the router sees it (percent-decoded); the raw path when it does not decode. */
export function decodedPathOf(req: FastifyRequest): string {
  const raw = pathOf(req);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function isDisplayPage(path: string): boolean {
  return DISPLAY_PAGES.has(path.length > 1 ? path.replace(/\/+$/, '') : path);
}

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Why a request is not the dashboard's own `fetch` (null when it is), for the one state-changing GET
 * (`/api/auth/logout`), which a cookie would otherwise let any page trigger:
 * - prefetches (`Sec-Purpose`/`Purpose: prefetch`) never act;
 * - with Fetch Metadata: `Sec-Fetch-Site` must be `same-origin`, or `same-site` with an `Origin`
 *   (or `Referer`) among the dashboard origins, and the request a fetch (`Sec-Fetch-Mode` not a
 *   navigation, `Sec-Fetch-Dest: empty`), so links, `window.open`, GET forms, images and frames fail;
 * - without it (older browsers, other clients): `Origin` or `Referer` among the dashboard origins,
 *   or the dashboard client's own `x-requested-with: tickety`.
 */
export function notDashboardFetch(req: FastifyRequest, dashboardOrigins: ReadonlySet<string>): string | null {
  const headers = req.headers;
  const purpose = [headers['sec-purpose'], headers.purpose, headers['x-purpose']].map((v) => String(v ?? '').toLowerCase()).join(' ');
  if (purpose.includes('prefetch') || purpose.includes('prerender')) return 'prefetch';
  // The dashboard's request client sends x-requested-with: tickety. Another site's page cannot:
  // links, forms, frames and images set no headers, and a cross-origin fetch with it needs a CORS
  // preflight that only dashboard origins pass. So it proves the caller even without Origin,
  // Referer or Fetch Metadata (older browsers, stripped referrers).
  if (headers['x-requested-with'] === 'tickety' && headers['sec-fetch-mode'] !== 'navigate') return null;
  const from = originOf(headers.origin) ?? originOf(headers.referer);
  const fromDashboard = from !== null && dashboardOrigins.has(from);
  const site = headers['sec-fetch-site'];
  if (site === undefined) return fromDashboard ? null : 'no dashboard Origin or Referer';
  if (site !== 'same-origin' && site !== 'same-site') return `Sec-Fetch-Site: ${String(site).slice(0, 20)}`;
  const mode = headers['sec-fetch-mode'];
  if (mode === 'navigate' || mode === 'nested-navigate') return 'a navigation';
  const dest = headers['sec-fetch-dest'];
  if (dest !== undefined && dest !== 'empty') return `Sec-Fetch-Dest: ${String(dest).slice(0, 20)}`;
  if (site === 'same-site' && !fromDashboard) return 'same-site, not from a dashboard origin';
  return null;
}

/**
 * Why a request for a file the dashboard shows (a transcript attachment, loaded as an image, video or
 * download) is not the dashboard's own (null when it is). Such requests carry no dashboard header, so
 * this is looser than notDashboardFetch, but another site's page must not cause them (a staff
 * member's view is audited): prefetches never; with Fetch Metadata, `same-origin`, `none` (typed or
 * bookmarked by the user), or `same-site` with an `Origin`/`Referer` among the dashboard origins
 * (the pages send the origin: strict-origin-when-cross-origin); `cross-site` never; without it
 * (older browsers), an `Origin` or `Referer` among the dashboard origins.
 */
export function notDashboardMedia(req: FastifyRequest, dashboardOrigins: ReadonlySet<string>): string | null {
  const headers = req.headers;
  const purpose = [headers['sec-purpose'], headers.purpose, headers['x-purpose']].map((v) => String(v ?? '').toLowerCase()).join(' ');
  if (purpose.includes('prefetch') || purpose.includes('prerender')) return 'prefetch';
  const from = originOf(headers.origin) ?? originOf(headers.referer);
  const fromDashboard = from !== null && dashboardOrigins.has(from);
  const site = headers['sec-fetch-site'];
  if (site === undefined) return fromDashboard ? null : 'no dashboard Origin or Referer';
  if (site === 'same-origin' || site === 'none') return null;
  if (site === 'same-site') return fromDashboard ? null : 'same-site, not from a dashboard origin';
  return `Sec-Fetch-Site: ${String(site).slice(0, 20)}`;
}

interface SecurityOptions {
  allowedOrigins: string[];
  secure: boolean;
  /** Content-Security-Policy of HTML pages (frame-ancestors is added per page). */
  htmlCsp: string;
}

/**
 * CSRF for a cookie-authenticated JSON API, JSON body parsing, and the headers on every answer.
 * - Mutations (not GET/HEAD/OPTIONS) of routes without the CSRF_EXEMPT option need `content-type: application/json`
 *   (else 415 1010), an allowed Origin (or `Sec-Fetch-Site: same-origin`) and `x-requested-with: tickety`
 *   (else 403 1005). Checked before the body is read.
 * - nosniff and Referrer-Policy everywhere, HSTS when Secure; HTML gets a CSP with frame-ancestors
 *   'none' (display pages: *), unless the route set its own (the OAuth callback page).
 */
export default fp(
  async function security(app: FastifyInstance, opts: SecurityOptions) {
    const allowed = new Set(opts.allowedOrigins);

    app.addHook('onRequest', (req, _reply, done) => {
      // A request no route matched changes nothing: it gets its 404, not a CSRF refusal.
      if (SAFE_METHODS.has(req.method) || isCsrfExempt(req) || req.is404) return done();
      const type = req.headers['content-type'];
      if (!isRawUpload(req) && (!type || !/^application\/json\s*(;|$)/i.test(type))) throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE');
      const origin = req.headers.origin;
      const sameOrigin = req.headers['sec-fetch-site'] === 'same-origin';
      const originOk = origin ? allowed.has(origin) || sameOrigin : sameOrigin;
      if (!originOk || req.headers['x-requested-with'] !== 'tickety') {
        req.log.info({ origin: origin ?? null, secFetchSite: req.headers['sec-fetch-site'] ?? null }, 'csrf check refused a request');
        throw new ApiHttpError('CSRF_REJECTED');
      }
      done();
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
      // The shape is checked before parsing: deep nesting and many small containers are what make
      // JSON.parse slow (lib/json-body.ts).
      const routeConfig = req.routeOptions?.config;
      const maxDepth = routeConfig?.bodyMaxDepth ?? JSON_MAX_DEPTH;
      const problem = jsonShapeProblem(body as string, maxDepth, JSON_MAX_CONTAINERS);
      if (problem) {
        done((problem === 'depth' ? routeConfig?.bodyTooDeep?.() : undefined) ?? badShape(problem, maxDepth), undefined);
        return;
      }
      defaultJson(req, body as string, (error, value) => {
        if (error) done(new ApiHttpError('VALIDATION_FAILED', { message: 'The request body is not valid JSON.' }), undefined);
        else done(null, value);
      });
    });

    app.addHook('onSend', (req, reply, payload, done) => {
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
      done(null, payload);
    });
  },
  { name: 'tickety-security' },
);

/**
 * What the page loads besides itself: the configured checkouts' sources (`providerCheckoutSources`:
 * Paddle's, FastSpring's) and the subscription-analytics script's (`analyticsScriptSources`). Only
 * what the configuration uses, and nothing this origin serves (the demo's stand-ins).
 */
export function checkoutSources(
  config: Parameters<typeof providerCheckoutSources>[0] & Parameters<typeof analyticsScriptSources>[0],
): { scripts: string[]; frames: string[] } {
  const checkout = providerCheckoutSources(config);
  return { scripts: [...checkout.scripts, ...analyticsScriptSources(config)], frames: checkout.frames };
}

/**
 * The subscription-analytics script's origin (ProfitWell's `public.profitwell.com`), when it is
 * configured and not served by this origin (the demo's stand-in is).
 */
function analyticsScriptSources(config: { publicUrl: string; analyticsScriptUrl: string | null }): string[] {
  if (!config.analyticsScriptUrl) return [];
  const script = new URL(config.analyticsScriptUrl).origin;
  return script === new URL(config.publicUrl).origin ? [] : [script];
}

/**
 * What the configured checkouts load: Paddle.js's origin and Paddle's checkout frames
 * (`https://*.paddle.com`) when Paddle is configured (`paddleScriptUrl`), FastSpring's Store Builder
 * Library and its popup storefront when FastSpring is; none of either when this origin serves it (the
 * demo's stand-ins, whose checkouts are on this origin too).
 */
function providerCheckoutSources(config: {
  publicUrl: string;
  paddleScriptUrl: string | null;
  billing: { fastspring: { storefront: string | null; scriptUrl: string } };
}): { scripts: string[]; frames: string[] } {
  const self = new URL(config.publicUrl).origin;
  const scripts: string[] = [];
  const frames: string[] = [];
  if (config.paddleScriptUrl) {
    const paddle = new URL(config.paddleScriptUrl).origin;
    if (paddle !== self) {
      scripts.push(paddle);
      frames.push('https://*.paddle.com');
    }
  }
  const { storefront, scriptUrl } = config.billing.fastspring;
  const fastspring = storefront ? new URL(scriptUrl).origin : self;
  if (storefront && fastspring !== self) {
    scripts.push(fastspring);
    frames.push(`https://${storefront.split('/')[0]}`);
  }
  return { scripts, frames };
}

/** The CSP of the front end's HTML (without frame-ancestors). */
export function htmlCsp(extra: { imgOrigins: string[]; connectOrigins: string[]; scriptSources?: string[]; checkout?: { scripts: string[]; frames: string[] } }): string {
  const unique = (xs: string[]) => [...new Set(xs)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${unique(["'self'", ...(extra.scriptSources ?? []), ...(extra.checkout?.scripts ?? [])])}`,
    // The configured providers' checkouts, and the API's own documents (legacy transcripts in a sandboxed frame).
    `frame-src ${unique(["'self'", ...extra.connectOrigins, ...(extra.checkout?.frames ?? [])])}`,
    `img-src ${unique(["'self'", 'data:', 'https://cdn.discordapp.com', ...extra.imgOrigins])}`,
    "style-src 'self' 'unsafe-inline'",
    `connect-src ${unique(["'self'", ...extra.connectOrigins])}`,
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

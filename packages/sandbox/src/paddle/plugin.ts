import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { FormBody, RawBody } from '../body';
import { pathOf } from '../util';
import { apiRoutes, sendApiError } from './api-routes';
import { checkoutRoutes } from './checkout-routes';
import { controlInternals, createPaddleSandboxControl, type PaddleSandboxControl } from './control';
import { WebhookQueue } from './delivery';
import { PaddleApiError, PaddleEngine, type PaddlePriceOption } from './engine';
import { httpUrl } from './http';
import { IdSequence } from './ids';
import { InvoiceLinks } from './invoice-links';
import { invoiceRoutes } from './invoice-routes';
import { paddleJs } from './paddle-js';
import { portalRoutes } from './portal-routes';
import { type PaddleSnapshot, PaddleSnapshotError } from './snapshot';

export interface PaddleSandboxOptions {
  /** API key the API routes require as `Authorization: Bearer <apiKey>` (else 403, Paddle's error shape). */
  apiKey: string;
  /** The Paddle.js client-side token (`test_…`): the served paddle.js and the checkout refuse any other. */
  clientToken: string;
  /** Absolute http(s) URL every notification is POSTed to. */
  webhookUrl: string;
  /** The notification destination's secret (`pdl_ntfset_…`): signs every notification (Paddle-Signature). */
  webhookSecret: string;
  /** What the stand-in sells. */
  prices: PaddlePriceOption[];
  /** The stand-in's time (epoch ms): subscription dates, scheduled changes, renewals, signatures' ts. Default Date.now. */
  clock?: () => number;
  /** Used to deliver notifications. Default the global fetch. */
  fetch?: typeof fetch;
  /** First retry delay in real ms, doubling at each attempt (10 attempts at most). Default 1000. */
  retryBaseMs?: number;
  /** An attempt with no answer after this many real ms fails (and is retried). Default 5000, Paddle's limit. */
  timeoutMs?: number;
  /** Drives this registration (chaos, delivery, time, state). Default: a private one. */
  control?: PaddleSandboxControl;
  /**
   * The stand-in's public URL (e.g. `http://localhost:3000/sandbox/paddle`) for the absolute links the
   * API hands out (checkout.url, portal and management URLs). Default: the request's protocol and host
   * plus the prefix. Its pages and paddle.js use relative links and work behind any host anyway.
   */
  baseUrl?: string;
  /** How long portal links work (clock ms). Default 1 hour. */
  portalSessionTtlMs?: number;
  /** How long an opened checkout page can be paid (clock ms). Default 24 hours. */
  checkoutTtlMs?: number;
  /**
   * How long a link from GET /transactions/{id}/invoice works (clock ms). Default 1 hour, like Paddle's.
   * Links are signed with a key derived from apiKey and webhookSecret, so they survive a restart.
   */
  invoiceLinkTtlMs?: number;
  /**
   * Called with a snapshot of the state (see `PaddleSandboxControl.snapshot()`) after it changed: a
   * purchase, a cancel (now or scheduled) or resume, a plan change, a card update, a renewal, a
   * scheduled cancel taking effect, a past-due payment, a portal or checkout session opened, a
   * `control.restore()` or `reset()`. Debounced: one call 200 ms after the last of a burst of changes
   * (at most 1 s after the first), on an unref'd timer; the plugin's close hook makes a pending call at
   * once (and awaits it when it returns a promise). Its errors are logged, never thrown back. Persist
   * the snapshot and pass it as `initialState` at the next start.
   */
  onChange?: (snapshot: PaddleSnapshot) => void;
  /**
   * A snapshot (as given to `onChange`, typically after a JSON round trip) to start from instead of an
   * empty state. Checked like `control.restore()`: a malformed one fails the registration with an error
   * naming the first bad field. Events and notifications start empty.
   */
  initialState?: unknown;
}

const BODY_LIMIT = 64 * 1024;
/** onChange: the quiet time after a change, and the longest a change waits under a stream of them. */
const CHANGE_DEBOUNCE_MS = 200;
const CHANGE_MAX_WAIT_MS = 1000;

function required(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new RangeError(`paddleSandbox: ${name} is required (a non-empty string)`);
  return value;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`paddleSandbox: ${name} must be a number > 0, not ${value}`);
  return value;
}

/**
 * Paddle Billing on loopback: paddle.js and an overlay checkout with test cards, the subscription API
 * subset, a customer portal, and signed notifications delivered in the background with retries.
 *
 * Register it encapsulated with a prefix: `app.register(paddleSandbox, { prefix: '/sandbox/paddle', ... })`.
 * Its body parsers (form, JSON), error and 404 handlers stay inside. State is per registration.
 */
export const paddleSandbox: FastifyPluginAsync<PaddleSandboxOptions> = async function paddleSandbox(app: FastifyInstance, opts: PaddleSandboxOptions) {
  const apiKey = required('apiKey', opts.apiKey);
  const clientToken = required('clientToken', opts.clientToken);
  const webhookSecret = required('webhookSecret', opts.webhookSecret);
  const webhookUrl = httpUrl(required('webhookUrl', opts.webhookUrl));
  if (!webhookUrl) throw new RangeError(`paddleSandbox: webhookUrl must be an absolute http(s) URL, not "${opts.webhookUrl}"`);
  let baseUrl: string | null = null;
  if (opts.baseUrl !== undefined) {
    if (!httpUrl(opts.baseUrl)) throw new RangeError(`paddleSandbox: baseUrl must be an absolute http(s) URL, not "${opts.baseUrl}"`);
    baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }
  const clock = opts.clock ?? Date.now;
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('paddleSandbox: no fetch available: pass the fetch option');
  const control = opts.control ?? createPaddleSandboxControl();
  const internals = controlInternals(control);
  const onChange = opts.onChange;
  if (onChange !== undefined && typeof onChange !== 'function') throw new TypeError('paddleSandbox: onChange must be a function');
  const ids = new IdSequence();

  const queue = new WebhookQueue({
    url: webhookUrl,
    secret: webhookSecret,
    clock,
    fetch: fetchImpl,
    retryBaseMs: positive('retryBaseMs', opts.retryBaseMs, 1000),
    timeoutMs: positive('timeoutMs', opts.timeoutMs, 5000),
    chaos: internals.chaos,
    takeFailure: internals.takeFailure,
    random: Math.random,
    ids,
  });
  const engine = new PaddleEngine(
    {
      prices: opts.prices,
      clock,
      portalTtlMs: positive('portalSessionTtlMs', opts.portalSessionTtlMs, 60 * 60 * 1000),
      checkoutTtlMs: positive('checkoutTtlMs', opts.checkoutTtlMs, 24 * 60 * 60 * 1000),
    },
    queue,
    ids,
  );
  const invoiceLinks = new InvoiceLinks(apiKey, webhookSecret, positive('invoiceLinkTtlMs', opts.invoiceLinkTtlMs, 60 * 60 * 1000), clock);
  if (opts.initialState !== undefined) {
    try {
      engine.restore(opts.initialState);
    } catch (err) {
      if (err instanceof PaddleSnapshotError) throw new PaddleSnapshotError(`paddleSandbox: initialState is not a snapshot it can restore: ${err.message}`);
      throw err;
    }
  }

  // onChange, debounced; the close hook makes a pending call at once.
  let changeTimer: NodeJS.Timeout | null = null;
  let firstChangeAt = 0;
  let closed = false;
  const report = (): unknown => {
    if (changeTimer) clearTimeout(changeTimer);
    changeTimer = null;
    try {
      const result: unknown = onChange!(engine.snapshot());
      if (result instanceof Promise) return result.catch((err: unknown) => app.log.error({ err }, 'paddle sandbox: onChange failed'));
    } catch (err) {
      app.log.error({ err }, 'paddle sandbox: onChange failed');
    }
    return undefined;
  };
  if (onChange) {
    engine.onChange = () => {
      if (closed) return;
      const now = Date.now();
      if (changeTimer) clearTimeout(changeTimer);
      else firstChangeAt = now;
      const wait = Math.max(0, Math.min(CHANGE_DEBOUNCE_MS, firstChangeAt + CHANGE_MAX_WAIT_MS - now));
      changeTimer = setTimeout(report, wait);
      changeTimer.unref();
    };
  }

  const bound = { engine, queue };
  internals.bind(bound);
  app.addHook('onClose', async () => {
    closed = true;
    if (changeTimer) await report();
    queue.stop();
    internals.unbind(bound);
  });

  const prefix = app.prefix;
  const relative = (url: string) => {
    const path = pathOf(url);
    return prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path;
  };
  const isPage = (url: string) => {
    const path = relative(url);
    return path === '/checkout' || path.startsWith('/portal/') || path.startsWith('/invoices/');
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, new FormBody(new URLSearchParams(body as string)));
  });
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    if ((body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    json(req, body as string, done);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    done(null, new RawBody(String(req.headers['content-type'] ?? ''), body as Buffer));
  });

  // Scheduled changes (and renewals) due by the clock apply before any request sees the state.
  app.addHook('onRequest', async () => {
    engine.tick();
  });

  app.setErrorHandler(async (error: FastifyError | PaddleApiError, req, reply) => {
    if (error instanceof PaddleApiError) return sendApiError(reply, error);
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'paddle sandbox: unexpected error');
    const detail = status >= 500 ? 'The sandbox failed to answer.' : error.message;
    if (isPage(req.url)) return reply.code(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(detail);
    const code = status === 404 ? 'not_found' : status >= 500 ? 'internal_error' : 'bad_request';
    return sendApiError(reply, new PaddleApiError(status, code, detail));
  });

  app.setNotFoundHandler(async (req, reply) => sendApiError(reply, new PaddleApiError(404, 'not_found', `No route ${req.method} ${relative(req.url)}.`)));

  app.get('/paddle.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(paddleJs(clientToken)),
  );
  checkoutRoutes(app, { engine, clientToken });
  portalRoutes(app, { engine, prefix, baseUrl });
  invoiceRoutes(app, { engine, links: invoiceLinks });
  // Its own context, for its auth hook. (`prefix` is a register option: the mount path is passed as `mount`.)
  await app.register(apiRoutes, { engine, apiKey, mount: prefix, baseUrl, invoiceLinks });
};

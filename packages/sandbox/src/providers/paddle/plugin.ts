import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { addBodyParsers } from '../../kit/body';
import { pathBelow } from '../../kit/http';
import { attachStandIn, optionChecks, outboxOptions, restoreInitialState, sendText, tickOnRequest, unexpectedError } from '../../kit/webhooks/plugin';

import { apiRoutes, sendApiError } from './api-routes';
import { checkoutRoutes } from './checkout-routes';
import { controlInternals, createPaddleSandboxControl, type PaddleSandboxControl } from './control';
import { WebhookQueue } from './delivery';
import { PaddleApiError, PaddleEngine, type PaddlePriceOption } from './engine';
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

const { required, positive, url: absoluteUrl, baseUrl: baseUrlOption, onChange: onChangeOption } = optionChecks('paddleSandbox: ');

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
  const webhookUrl = absoluteUrl('webhookUrl', required('webhookUrl', opts.webhookUrl));
  const baseUrl = baseUrlOption(opts.baseUrl);
  const clock = opts.clock ?? Date.now;
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('paddleSandbox: no fetch available: pass the fetch option');
  const control = opts.control ?? createPaddleSandboxControl();
  const internals = controlInternals(control);
  const onChange = onChangeOption(opts.onChange);
  const ids = new IdSequence();

  const queue = new WebhookQueue({
    ...outboxOptions(internals, { url: webhookUrl, fetch: fetchImpl, retryBaseMs: positive('retryBaseMs', opts.retryBaseMs, 1000), timeoutMs: positive('timeoutMs', opts.timeoutMs, 5000) }),
    secret: webhookSecret,
    clock,
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
  restoreInitialState(opts.initialState, (snapshot) => engine.restore(snapshot), PaddleSnapshotError, 'paddleSandbox: initialState');

  // onChange, debounced; the close hook makes a pending call at once.
  attachStandIn(app, { bound: { engine, queue }, internals, onChange, snapshot: () => engine.snapshot(), failure: 'paddle sandbox: onChange failed' });

  const prefix = app.prefix;
  const relative = pathBelow(prefix);
  const isPage = (url: string) => {
    const path = relative(url);
    return path === '/checkout' || path.startsWith('/portal/') || path.startsWith('/invoices/');
  };

  addBodyParsers(app, { json: true });

  // Scheduled changes (and renewals) due by the clock apply before any request sees the state.
  tickOnRequest(app, engine);

  app.setErrorHandler(async (error: FastifyError | PaddleApiError, req, reply) => {
    if (error instanceof PaddleApiError) return sendApiError(reply, error);
    const { status, detail } = unexpectedError(error, req, 'paddle sandbox', 'The sandbox failed to answer.');
    if (isPage(req.url)) return sendText(reply, status, detail);
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

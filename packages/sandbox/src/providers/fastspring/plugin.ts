import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { addBodyParsers } from '../../kit/body';
import { baseOf, pathBelow } from '../../kit/http';
import { attachStandIn, optionChecks, outboxOptions, restoreInitialState, sendText, unexpectedError } from '../../kit/webhooks/plugin';

import { accountRoutes } from './account-routes';
import { apiRoutes } from './api-routes';
import { checkoutRoutes, normalizeStorefront } from './checkout-routes';
import { controlInternals, createFastspringSandboxControl, type FastspringSandboxControl } from './control';
import { WebhookQueue } from './delivery';
import { FastspringApiError, FastspringEngine } from './engine';
import { builderJs } from './sbl';
import { securePayloadPublicKey } from './secure';
import { type FastspringSnapshot, FastspringSnapshotError, restoreSnapshot, takeSnapshot } from './snapshot';
import type { FastspringProductOption } from './types';

export interface FastspringSandboxOptions {
  /** API username: the API routes require HTTP Basic `apiUsername:apiPassword` (else 401). */
  apiUsername: string;
  apiPassword: string;
  /** The webhook's "HMAC SHA256 Secret": signs every POST (X-FS-Signature). */
  webhookSecret: string;
  /** Absolute http(s) URL every webhook POST goes to. */
  webhookUrl: string;
  /** The storefront the builder script must be given as data-storefront, e.g. `tickety.test.onfastspring.com/popup-tickety`. */
  storefront: string;
  /** What the stand-in sells (each a subscription product). */
  products: FastspringProductOption[];
  /** The stand-in's time (epoch ms): dates, renewals, `changed`, events' `created`. Default Date.now. */
  clock?: () => number;
  /** Used to deliver webhooks. Default the global fetch. */
  fetch?: typeof fetch;
  /** First retry delay in real ms, doubling at each attempt (10 attempts at most). Default 1000. */
  retryBaseMs?: number;
  /** A POST with no answer after this many real ms fails (and is retried). Default 5000. */
  timeoutMs?: number;
  /** Drives this registration (chaos, delivery, time, state). Default: a private one. */
  control?: FastspringSandboxControl;
  /**
   * The stand-in's public URL (e.g. `http://localhost:3000/sandbox/fastspring`) for absolute links
   * (invoiceUrl, account URLs). Default: the last request's protocol and host plus the prefix.
   */
  baseUrl?: string;
  /** How long account links (GET /accounts/{id}/authenticate) work (clock ms). Default 24 hours. */
  accountLinkTtlMs?: number;
  /** How long an opened popup checkout can be paid (clock ms). Default 24 hours. */
  checkoutTtlMs?: number;
  /**
   * Called with a snapshot of the state after it changed (purchase, cancel, uncancel, plan change,
   * renewal, deactivation, overdue, recovery, checkout or account link opened, restore, reset).
   * Debounced: 200 ms after the last change of a burst (at most 1 s after the first), on an unref'd
   * timer; the close hook makes a pending call at once (awaited when it returns a promise). Errors
   * are logged, never thrown back. Persist it and pass it as `initialState` at the next start.
   */
  onChange?: (snapshot: FastspringSnapshot) => void;
  /** A snapshot (as given to `onChange`) to start from. Checked like `control.restore()`. Events start empty. */
  initialState?: unknown;
  /**
   * The public key (PEM) the store uploaded to FastSpring for secure payloads: the popup decrypts
   * `fastspring.builder.secure(securePayload, secureKey)` with it (AES-128-ECB payload, its key
   * RSA-encrypted with the store's private key) and refuses one it cannot. Unset: secure payloads are refused.
   */
  securePayloadPublicKey?: string;
}

const PATH = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const { required, positive, url: absoluteUrl, baseUrl: baseUrlOption, onChange: onChangeOption } = optionChecks('fastspringSandbox: ');

function checkProducts(products: unknown): FastspringProductOption[] {
  if (!Array.isArray(products) || products.length === 0) throw new RangeError('fastspringSandbox: products must be a non-empty array');
  return products.map((productOption: FastspringProductOption, count) => {
    const at = `fastspringSandbox: products[${count}]`;
    if (productOption === null || typeof productOption !== 'object') throw new RangeError(`${at} must be an object`);
    if (typeof productOption.path !== 'string' || !PATH.test(productOption.path)) throw new RangeError(`${at}.path must be a product path (letters, digits, . _ -), not ${JSON.stringify(productOption.path)}`);
    if (typeof productOption.display !== 'string' || productOption.display.trim() === '') throw new RangeError(`${at}.display must be a non-empty string`);
    if (typeof productOption.currency !== 'string' || !/^[A-Z]{3}$/.test(productOption.currency)) throw new RangeError(`${at}.currency must be an ISO 4217 code such as USD, not ${JSON.stringify(productOption.currency)}`);
    if (!(typeof productOption.price === 'number' && Number.isFinite(productOption.price) && productOption.price > 0 && productOption.price < 1_000_000)) throw new RangeError(`${at}.price must be a number > 0, not ${productOption.price}`);
    if (productOption.intervalUnit !== 'month' && productOption.intervalUnit !== 'year') throw new RangeError(`${at}.intervalUnit must be "month" or "year", not ${JSON.stringify(productOption.intervalUnit)}`);
    if (!(Number.isInteger(productOption.intervalLength) && productOption.intervalLength >= 1 && productOption.intervalLength <= 100)) throw new RangeError(`${at}.intervalLength must be a whole number from 1 to 100`);
    return { ...productOption };
  });
}

/**
 * FastSpring on loopback: the Store Builder Library and its popup checkout with test cards, the API
 * subset, an account page with invoices, and signed, batched webhooks delivered in the background with
 * retries. Register it encapsulated with a prefix:
 * `app.register(fastspringSandbox, { prefix: '/sandbox/fastspring', ... })`. State is per registration.
 */
export const fastspringSandbox: FastifyPluginAsync<FastspringSandboxOptions> = async function fastspringSandbox(app: FastifyInstance, opts: FastspringSandboxOptions) {
  const apiUsername = required('apiUsername', opts.apiUsername);
  const apiPassword = required('apiPassword', opts.apiPassword);
  const webhookSecret = required('webhookSecret', opts.webhookSecret);
  const storefront = normalizeStorefront(required('storefront', opts.storefront));
  if (!/^[^\s/]+(\/[^\s/]+)*$/.test(storefront)) throw new RangeError(`fastspringSandbox: storefront must look like "store.test.onfastspring.com/popup-store", not "${opts.storefront}"`);
  const webhookUrl = absoluteUrl('webhookUrl', required('webhookUrl', opts.webhookUrl));
  const baseUrl = baseUrlOption(opts.baseUrl);
  const products = checkProducts(opts.products);
  const clock = opts.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('fastspringSandbox: clock must be a function');
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('fastspringSandbox: no fetch available: pass the fetch option');
  const control = opts.control ?? createFastspringSandboxControl();
  const internals = controlInternals(control);
  const onChange = onChangeOption(opts.onChange);
  const securePublicKey = opts.securePayloadPublicKey === undefined ? null : securePayloadPublicKey(opts.securePayloadPublicKey);

  const queue = new WebhookQueue({
    ...outboxOptions(internals, { url: webhookUrl, fetch: fetchImpl, retryBaseMs: positive('retryBaseMs', opts.retryBaseMs, 1000), timeoutMs: positive('timeoutMs', opts.timeoutMs, 5000) }),
    secret: webhookSecret,
    clock,
  });
  const engine = new FastspringEngine(
    {
      products,
      clock,
      sessionTtlMs: positive('accountLinkTtlMs', opts.accountLinkTtlMs, 24 * 60 * 60 * 1000),
      checkoutTtlMs: positive('checkoutTtlMs', opts.checkoutTtlMs, 24 * 60 * 60 * 1000),
    },
    queue,
  );
  const prefix = app.prefix;
  engine.base = baseUrl ?? `http://localhost${prefix}`;
  restoreInitialState(opts.initialState, (snapshot) => restoreSnapshot(engine, snapshot), FastspringSnapshotError, 'fastspringSandbox: initialState');

  // onChange, debounced; the close hook makes a pending call at once.
  attachStandIn(app, { bound: { engine, queue }, internals, onChange, snapshot: () => takeSnapshot(engine), failure: 'fastspring sandbox: onChange failed' });

  const relative = pathBelow(prefix);
  const isPage = (url: string) => {
    const path = relative(url);
    return path === '/popup' || path.startsWith('/account');
  };

  addBodyParsers(app, { json: true });

  // What is due by the clock (renewals, deactivations) applies before any request sees the state.
  app.addHook('onRequest', async (req) => {
    if (!baseUrl) engine.base = baseOf(req, prefix, null);
    engine.tick();
  });

  app.setErrorHandler(async (error: FastifyError | FastspringApiError, req, reply) => {
    if (error instanceof FastspringApiError) return reply.code(error.status).header('cache-control', 'no-store').send(error.body);
    const { status, detail } = unexpectedError(error, req, 'fastspring sandbox', 'The sandbox failed to answer.');
    if (isPage(req.url)) return sendText(reply, status, detail);
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .send({ action: 'request', result: 'error', error: { message: status === 400 ? 'Request must contain a single root object. Please consult API documentation.' : detail } });
  });

  app.setNotFoundHandler(async (req, reply) =>
    reply
      .code(404)
      .header('cache-control', 'no-store')
      .send({ action: 'route', result: 'error', error: { route: `No route ${req.method} ${relative(req.url)} in the FastSpring sandbox.` } }),
  );

  const sendBuilder = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(builderJs(storefront));
  app.get('/sbl/fastspring-builder.js', sendBuilder);
  app.get('/sbl/fastspring-builder.min.js', sendBuilder);
  checkoutRoutes(app, { engine, storefront, securePublicKey });
  accountRoutes(app, { engine, prefix });
  await app.register(apiRoutes, { engine, queue, apiUsername, apiPassword });
};

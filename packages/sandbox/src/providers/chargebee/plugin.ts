import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { addBodyParsers } from '../../kit/body';
import { pathBelow } from '../../kit/http';
import { attachStandIn, optionChecks, outboxOptions, restoreInitialState, sendText, tickOnRequest, unexpectedError } from '../../kit/webhooks/plugin';

import { apiRoutes, sendApiError } from './api-routes';
import { type ChargebeeSandboxControl, controlInternals, createChargebeeSandboxControl } from './control';
import { WebhookQueue, webhookAuthorization } from './delivery';
import { ChargebeeEngine, type ChargebeeItemPriceOption } from './engine';
import { ChargebeeApiError } from './errors';
import { pageRoutes } from './page-routes';
import { type ChargebeeSnapshot, ChargebeeSnapshotError } from './snapshot';

export interface ChargebeeSandboxOptions {
  /** The Chargebee site name (e.g. `tickety-test`): shown on the pages. */
  site: string;
  /** The API key: the API wants `Authorization: Basic base64(apiKey:)` (else 401 api_authentication_failed). */
  apiKey: string;
  /** Webhook basic auth: every event is POSTed with `Authorization: Basic base64(webhookUsername:webhookPassword)`. */
  webhookUsername: string;
  webhookPassword: string;
  /** Absolute http(s) URL every event is POSTed to. */
  webhookUrl: string;
  /** What the stand-in sells (plan item prices). */
  itemPrices: ChargebeeItemPriceOption[];
  /** The stand-in's time (epoch ms). Default Date.now. */
  clock?: () => number;
  /** Used to deliver webhooks. Default the global fetch. */
  fetch?: typeof fetch;
  /**
   * The first retry's delay in real ms; later retries keep Chargebee's ratios (2 min, 6 min, 30 min,
   * 1 h, 5 h, 1 d, 2 d → ×1, ×3, ×15, ×30, ×150, ×720, ×1440). Default 120000 (Chargebee's 2 minutes).
   */
  retryBaseMs?: number;
  /** An attempt with no answer after this many real ms fails (and is retried). Default 20000. */
  timeoutMs?: number;
  control?: ChargebeeSandboxControl;
  /** The stand-in's public URL (e.g. `http://localhost:3000/sandbox/chargebee`) for hosted page, portal and download links. Default: the request's protocol and host plus the prefix. */
  baseUrl?: string;
  /** How long a hosted page can be paid (clock ms). Default 3 hours. */
  hostedPageTtlMs?: number;
  /** How long a portal access URL works, and a portal login lasts (clock ms). Default 1 hour. */
  portalSessionTtlMs?: number;
  /** How long an invoice download URL works (clock ms). Default 1 hour. */
  downloadTtlMs?: number;
  /** Called (debounced, like the Paddle stand-in's) with a snapshot after the state changed; flushed on close. */
  onChange?: (snapshot: ChargebeeSnapshot) => void | Promise<void>;
  /** A snapshot to start from (checked like control.restore()). */
  initialState?: unknown;
}

const { required, positive, url: absoluteUrl, baseUrl: baseUrlOption, onChange: onChangeOption } = optionChecks('chargebeeSandbox: ');

/**
 * Chargebee (API v2, Product Catalog 2.0) on loopback: the API subset the API's `chargebee` SDK calls,
 * hosted checkout pages with test cards, a customer portal, invoice documents, and events POSTed to a
 * webhook URL with Basic auth, retried on Chargebee's schedule. Register it with a prefix:
 * `app.register(chargebeeSandbox, { prefix: '/sandbox/chargebee', ... })`; the SDK's requests go to
 * `<prefix>/api/v2/...`. State is per registration.
 */
export const chargebeeSandbox: FastifyPluginAsync<ChargebeeSandboxOptions> = async function chargebeeSandbox(app: FastifyInstance, opts: ChargebeeSandboxOptions) {
  const site = required('site', opts.site);
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(site)) throw new RangeError(`chargebeeSandbox: site must be a Chargebee site name (lowercase letters, digits, -), not "${site}"`);
  const apiKey = required('apiKey', opts.apiKey);
  const webhookUsername = required('webhookUsername', opts.webhookUsername);
  if (webhookUsername.includes(':')) throw new RangeError('chargebeeSandbox: webhookUsername cannot contain ":" (HTTP Basic auth)');
  const webhookPassword = required('webhookPassword', opts.webhookPassword);
  const webhookUrl = absoluteUrl('webhookUrl', required('webhookUrl', opts.webhookUrl));
  const baseUrl = baseUrlOption(opts.baseUrl);
  const clock = opts.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('chargebeeSandbox: clock must be a function');
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('chargebeeSandbox: no fetch available: pass the fetch option');
  const onChange = onChangeOption(opts.onChange);
  const control = opts.control ?? createChargebeeSandboxControl();
  const internals = controlInternals(control);

  const queue = new WebhookQueue({
    ...outboxOptions(internals, { url: webhookUrl, fetch: fetchImpl, retryBaseMs: positive('retryBaseMs', opts.retryBaseMs, 120_000), timeoutMs: positive('timeoutMs', opts.timeoutMs, 20_000) }),
    authorization: webhookAuthorization(webhookUsername, webhookPassword),
  });
  const engine = new ChargebeeEngine(
    {
      itemPrices: opts.itemPrices,
      clock,
      hostedPageTtlMs: positive('hostedPageTtlMs', opts.hostedPageTtlMs, 3 * 60 * 60 * 1000),
      portalTtlMs: positive('portalSessionTtlMs', opts.portalSessionTtlMs, 60 * 60 * 1000),
      downloadTtlMs: positive('downloadTtlMs', opts.downloadTtlMs, 60 * 60 * 1000),
    },
    queue,
  );
  restoreInitialState(opts.initialState, (snapshot) => engine.restore(snapshot), ChargebeeSnapshotError, 'chargebeeSandbox: initialState');

  attachStandIn(app, { bound: { engine, queue }, internals, onChange, snapshot: () => engine.snapshot(), failure: 'chargebee sandbox: onChange failed' });

  const prefix = app.prefix;
  const relative = pathBelow(prefix);
  const isApi = (url: string) => relative(url).startsWith('/api/');

  addBodyParsers(app, { json: false });

  // Renewals and scheduled cancellations due by the clock apply before any request sees the state.
  tickOnRequest(app, engine);

  app.setErrorHandler(async (error: FastifyError | ChargebeeApiError, req, reply) => {
    if (error instanceof ChargebeeApiError) return sendApiError(reply, error);
    const { status, detail } = unexpectedError(error, req, 'chargebee sandbox', 'Sorry, something went wrong when trying to process the request.');
    if (!isApi(req.url)) return sendText(reply, status, detail);
    return sendApiError(reply, new ChargebeeApiError(status, status >= 500 ? 'internal_error' : 'invalid_request', detail, undefined, status >= 500 ? null : 'invalid_request'));
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (!isApi(req.url)) return sendText(reply, 404, 'Not found.');
    return sendApiError(reply, new ChargebeeApiError(404, 'resource_not_found', "Sorry, we couldn't find that resource"));
  });

  pageRoutes(app, { engine, site, prefix });
  await app.register(apiRoutes, { prefix: '/api/v2', engine, queue, apiKey, mount: prefix, baseUrl });
};

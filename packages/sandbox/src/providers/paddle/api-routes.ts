import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../../kit/crypto';
import { baseOf } from '../../kit/http';
import { type ItemChange, invalidField, PaddleApiError, type PaddleEngine, type SubscriptionPatch } from './engine';
import type { InvoiceLinks } from './invoice-links';
import { transactionRoutes } from './transaction-routes';
import type { PaddleSubscription } from './types';

export interface ApiContext {
  engine: PaddleEngine;
  apiKey: string;
  /** The plugin's prefix (not named `prefix`: Fastify would mount this context under it again). */
  mount: string;
  baseUrl: string | null;
  /** Mints the short-lived invoice document links of GET /transactions/{id}/invoice. */
  invoiceLinks: InvoiceLinks;
}

const STATUSES = ['active', 'canceled', 'past_due', 'paused', 'trialing'];
const OTHER_PRORATION_MODES = ['prorated_next_billing_period', 'full_immediately', 'full_next_billing_period'];

/** Paddle's error body: `{ error: { type, code, detail, documentation_url, errors? }, meta: { request_id } }`. */
export function sendApiError(reply: FastifyReply, err: PaddleApiError): FastifyReply {
  return reply
    .code(err.status)
    .header('cache-control', 'no-store')
    .send({
      error: {
        type: 'request_error',
        code: err.code,
        detail: err.detail,
        documentation_url: `https://developer.paddle.com/errors/${err.docGroup}/${err.code}`,
        ...(err.errors ? { errors: err.errors } : {}),
      },
      meta: { request_id: randomUUID() },
    });
}

function ok(reply: FastifyReply, data: unknown, meta: Record<string, unknown> = {}) {
  return reply.header('cache-control', 'no-store').send({ data, meta: { request_id: randomUUID(), ...meta } });
}

function bodyObject(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) throw new PaddleApiError(400, 'bad_request', 'Invalid request: the body must be a JSON object.');
  if (!('constructor' in body) || (body as object).constructor !== Object) throw new PaddleApiError(400, 'bad_request', 'Invalid request: the body must be JSON (content-type: application/json).');
  return body as Record<string, unknown>;
}

function list(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : String(value);
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw invalidField(field, 'must not be empty');
  return parts;
}

function customDataOf(value: unknown, field: string): Record<string, unknown> | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidField(field, 'must be an object or null');
  if (JSON.stringify(value).length > 10_000) throw invalidField(field, 'is too large');
  return value as Record<string, unknown>;
}

/** The body of PATCH /subscriptions/{id} and its preview. */
function parsePatch(body: Record<string, unknown>): SubscriptionPatch {
  const allowed = new Set(['scheduled_change', 'items', 'proration_billing_mode', 'custom_data']);
  for (const key of Object.keys(body)) if (!allowed.has(key)) throw invalidField(key, 'is not supported by this sandbox (scheduled_change, items, proration_billing_mode, custom_data)');
  const patch: SubscriptionPatch = { removeScheduledChange: false, change: null };
  if ('scheduled_change' in body) {
    if (body.scheduled_change !== null) throw invalidField('scheduled_change', 'only null is accepted (removes the scheduled change)');
    patch.removeScheduledChange = true;
  }
  if ('custom_data' in body) patch.customData = customDataOf(body.custom_data, 'custom_data');
  if ('items' in body) {
    const items = body.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > 10) throw invalidField('items', 'must be an array of 1 to 10 { price_id, quantity }');
    const parsed: ItemChange['items'] = items.map((item, count) => {
      const fields = item as { price_id?: unknown; quantity?: unknown } | null;
      if (!fields || typeof fields !== 'object') throw invalidField(`items[${count}]`, 'must be an object { price_id, quantity }');
      if (typeof fields.price_id !== 'string' || fields.price_id === '') throw invalidField(`items[${count}].price_id`, 'must be provided as part of the request');
      if (!(typeof fields.quantity === 'number' && Number.isInteger(fields.quantity) && fields.quantity >= 1 && fields.quantity <= 100)) throw invalidField(`items[${count}].quantity`, 'must be a whole number from 1 to 100');
      return { price_id: fields.price_id, quantity: fields.quantity };
    });
    const mode = body.proration_billing_mode;
    if (mode === undefined) throw invalidField('proration_billing_mode', 'must be provided when items change');
    if (typeof mode === 'string' && OTHER_PRORATION_MODES.includes(mode)) throw invalidField('proration_billing_mode', `${mode} is not supported by this sandbox: use prorated_immediately or do_not_bill`);
    if (mode !== 'prorated_immediately' && mode !== 'do_not_bill') throw invalidField('proration_billing_mode', 'must be one of prorated_immediately, prorated_next_billing_period, full_immediately, full_next_billing_period, do_not_bill');
    patch.change = { items: parsed, mode };
  } else if ('proration_billing_mode' in body) {
    throw invalidField('proration_billing_mode', 'is only accepted with items');
  }
  return patch;
}

/** The API subset, behind `Authorization: Bearer <apiKey>`. Registered in its own encapsulated context. */
export async function apiRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const { engine } = ctx;

  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization;
    if (!header) return sendApiError(reply, new PaddleApiError(403, 'authentication_missing', 'Authentication header missing.'));
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return sendApiError(reply, new PaddleApiError(403, 'authentication_malformed', 'Authentication header included, but incorrectly formatted.'));
    if (!safeEqual(match[1]!, ctx.apiKey)) return sendApiError(reply, new PaddleApiError(403, 'forbidden', "You aren't permitted to perform this request."));
  });

  const withUrls = (req: FastifyRequest, sub: PaddleSubscription): PaddleSubscription => ({
    ...sub,
    management_urls: engine.managementUrls(sub.id, baseOf(req, ctx.mount, ctx.baseUrl)),
  });

  app.get('/subscriptions/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    return ok(reply, withUrls(req, engine.subscription(id)));
  });

  app.get('/subscriptions', async (req, reply) => {
    const query = req.query as Record<string, string | string[] | undefined>;
    const statuses = list(query.status, 'status');
    for (const text of statuses ?? []) if (!STATUSES.includes(text)) throw invalidField('status', `must be one of ${STATUSES.join(', ')}`);
    const perPageRaw = Array.isArray(query.per_page) ? query.per_page[0] : query.per_page;
    const perPage = perPageRaw === undefined ? 50 : Number(perPageRaw);
    if (!(Number.isInteger(perPage) && perPage >= 1 && perPage <= 200)) throw invalidField('per_page', 'must be a whole number from 1 to 200');
    const after = Array.isArray(query.after) ? query.after[0] : query.after;
    const all = engine.subscriptions({ customerIds: list(query.customer_id, 'customer_id'), statuses, ids: list(query.id, 'id'), priceIds: list(query.price_id, 'price_id') });
    const rest = after ? all.filter((s) => s.id > after) : all;
    const page = rest.slice(0, perPage);
    const hasMore = rest.length > page.length;
    const next = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (key !== 'after' && value !== undefined) next.set(key, Array.isArray(value) ? value.join(',') : value);
    const last = page.at(-1);
    if (last) next.set('after', last.id);
    else if (after) next.set('after', after);
    return ok(
      reply,
      page.map((s) => withUrls(req, s)),
      { pagination: { per_page: perPage, next: `${baseOf(req, ctx.mount, ctx.baseUrl)}/subscriptions?${next}`, has_more: hasMore, estimated_total: all.length } },
    );
  });

  app.post('/subscriptions/:id/cancel', async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = bodyObject(req);
    const from = body.effective_from ?? 'next_billing_period';
    if (from !== 'next_billing_period' && from !== 'immediately') throw invalidField('effective_from', 'must be next_billing_period or immediately');
    return ok(reply, withUrls(req, engine.cancel(id, from)));
  });

  app.patch('/subscriptions/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const patch = parsePatch(bodyObject(req));
    return ok(reply, withUrls(req, engine.update(id, patch, false)));
  });

  const preview = async (req: FastifyRequest, reply: FastifyReply) => {
    const { id } = req.params as { id: string };
    const patch = parsePatch(bodyObject(req));
    const { update_summary, immediate_transaction, next_transaction, recurring_transaction_details, ...sub } = engine.update(id, patch, true);
    return ok(reply, { ...withUrls(req, sub), immediate_transaction, next_transaction, recurring_transaction_details, update_summary });
  };
  // Paddle's preview is PATCH; POST is accepted too.
  app.patch('/subscriptions/:id/preview', preview);
  app.post('/subscriptions/:id/preview', preview);

  app.get('/subscriptions/:id/update-payment-method-transaction', async (req, reply) => {
    const { id } = req.params as { id: string };
    const base = baseOf(req, ctx.mount, ctx.baseUrl);
    return ok(
      reply,
      engine.paymentMethodTransaction(id, (txnId) => `${base}/checkout?txn=${encodeURIComponent(txnId)}`),
    );
  });

  app.get('/transactions/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    return ok(reply, engine.transaction(id));
  });

  transactionRoutes(app, { engine, base: (req) => baseOf(req, ctx.mount, ctx.baseUrl), invoiceLinks: ctx.invoiceLinks, ok });

  app.get('/customers/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    return ok(reply, engine.customer(id));
  });

  app.post('/customers/:id/portal-sessions', async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = bodyObject(req);
    const ids = body.subscription_ids ?? [];
    if (!Array.isArray(ids) || ids.length > 25 || ids.some((s) => typeof s !== 'string')) throw invalidField('subscription_ids', 'must be an array of up to 25 subscription ids');
    return reply.code(201).header('cache-control', 'no-store').send({
      data: engine.portalSession(id, ids as string[], baseOf(req, ctx.mount, ctx.baseUrl)),
      meta: { request_id: randomUUID() },
    });
  });
}

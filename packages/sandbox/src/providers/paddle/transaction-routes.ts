import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queryOf } from '../../kit/http';
import { invalidField, PaddleApiError, type PaddleEngine, type TransactionQuery } from './engine';
import type { InvoiceLinks } from './invoice-links';
import type { PaddleTransaction } from './types';

export interface TransactionRoutesContext {
  engine: PaddleEngine;
  /** The stand-in's absolute URL for a request (links in answers). */
  base: (req: FastifyRequest) => string;
  invoiceLinks: InvoiceLinks;
  ok: (reply: FastifyReply, data: unknown, meta?: Record<string, unknown>) => FastifyReply;
}

/** Paddle's values (the stand-in itself only makes ready, paid, completed and past_due transactions). */
const STATUSES = ['draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due'];
const ORIGINS = ['api', 'subscription_charge', 'subscription_payment_method_change', 'subscription_recurring', 'subscription_update', 'web'];
const COLLECTION_MODES = ['automatic', 'manual'];
const INCLUDES = ['address', 'adjustments', 'adjustments_totals', 'available_payment_methods', 'business', 'customer', 'discount'];
const DISPOSITIONS = ['attachment', 'inline'];
/** Paddle's page size for transactions: default 30, and 30 at most (a larger per_page gets 30). */
const PER_PAGE = 30;
const DATE_FIELDS = ['billed_at', 'created_at', 'updated_at'] as const;
const OPERATORS = { '': 'eq', '[LT]': 'lt', '[LTE]': 'lte', '[GT]': 'gt', '[GTE]': 'gte' } as const;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/i;

type Direction = 'ASC' | 'DESC';
type OrderField = 'billed_at' | 'created_at' | 'id' | 'updated_at';

/** Every value of a comma-list parameter (repeated parameters add up), or undefined when absent. */
function values(params: URLSearchParams, name: string, allowed?: string[]): string[] | undefined {
  if (!params.has(name)) return undefined;
  const parts = params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (parts.length === 0) throw invalidField(name, 'must not be empty');
  for (const path of parts) if (allowed && !allowed.includes(path)) throw invalidField(name, `must be one of ${allowed.join(', ')}, not ${JSON.stringify(path.slice(0, 50))}`);
  return parts;
}

function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw invalidField(name, 'must be given once');
  return all[0];
}

/** Epoch microseconds of an RFC 3339 date-time (no offset: UTC, as Paddle's examples write it). */
function micros(value: string, field: string): number {
  const match = RFC3339.exec(value);
  const ms = match ? Date.parse(`${match[1]}${match[3] ?? 'Z'}`) : Number.NaN;
  if (!match || !Number.isFinite(ms)) throw invalidField(field, 'must be an RFC 3339 datetime string, e.g. 2026-01-15T12:00:00Z');
  return ms * 1000 + Number((match[2] ?? '').slice(0, 6).padEnd(6, '0'));
}

function parseQuery(params: URLSearchParams): { query: TransactionQuery; include: string[]; order: { field: OrderField; direction: Direction }; perPage: number; after: string | undefined } {
  const subscription = values(params, 'subscription_id');
  const query: TransactionQuery = {
    ids: values(params, 'id'),
    subscriptionIds: subscription?.length === 1 && subscription[0] === 'null' ? null : subscription,
    customerIds: values(params, 'customer_id'),
    statuses: values(params, 'status', STATUSES),
    origins: values(params, 'origin', ORIGINS),
    invoiceNumbers: values(params, 'invoice_number'),
    collectionModes: values(params, 'collection_mode', COLLECTION_MODES),
    dates: [],
  };
  for (const field of DATE_FIELDS) {
    for (const [suffix, op] of Object.entries(OPERATORS)) {
      const name = `${field}${suffix}`;
      const value = single(params, name);
      if (value !== undefined) query.dates!.push({ field, op, micros: micros(value, name) });
    }
  }
  const orderBy = single(params, 'order_by') ?? 'id[DESC]';
  const match = /^(billed_at|created_at|id|updated_at)\[(ASC|DESC)\]$/.exec(orderBy);
  if (!match) throw invalidField('order_by', 'must be a field (billed_at, created_at, id or updated_at) and a direction, e.g. id[DESC]');
  const perPageRaw = single(params, 'per_page');
  const perPage = perPageRaw === undefined ? PER_PAGE : Number(perPageRaw);
  if (!(Number.isInteger(perPage) && perPage >= 1)) throw invalidField('per_page', 'must be a whole number of at least 1');
  const after = single(params, 'after');
  if (after === '') throw invalidField('after', 'must not be empty');
  return {
    query,
    include: values(params, 'include', INCLUDES) ?? [],
    order: { field: match[1] as OrderField, direction: match[2] as Direction },
    perPage: Math.min(perPage, PER_PAGE),
    after,
  };
}

/** Sorted by the field in the direction (ties by id the same way); a null billed_at sorts last either way. */
function sortTransactions(list: PaddleTransaction[], field: OrderField, direction: Direction): PaddleTransaction[] {
  const sign = direction === 'ASC' ? 1 : -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return list.sort((left, right) => {
    const item = left[field];
    const other = right[field];
    if (item !== other) {
      if (item === null) return 1;
      if (other === null) return -1;
      return sign * cmp(item, other);
    }
    return sign * cmp(left.id, right.id);
  });
}

/** The body of POST /transactions the stand-in takes: items (catalogue prices), custom data, automatic collection. */
function parseCreate(body: unknown): { items: Array<{ priceId: unknown; quantity: unknown }>; customData: Record<string, unknown> | null } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) throw new PaddleApiError(400, 'bad_request', 'Invalid request: the body must be a JSON object.');
  const second = body as Record<string, unknown>;
  const allowed = new Set(['items', 'custom_data', 'collection_mode', 'currency_code']);
  for (const key of Object.keys(second)) if (!allowed.has(key)) throw invalidField(key, 'is not supported by this sandbox (items, custom_data, collection_mode, currency_code)');
  if (second.collection_mode !== undefined && second.collection_mode !== 'automatic') throw invalidField('collection_mode', 'only automatic is supported by this sandbox');
  if (!Array.isArray(second.items) || second.items.length === 0 || second.items.length > 10) throw invalidField('items', 'must be an array of 1 to 10 { price_id, quantity }');
  const items = second.items.map((item, count) => {
    const fields = item as { price_id?: unknown; quantity?: unknown } | null;
    if (!fields || typeof fields !== 'object') throw invalidField(`items[${count}]`, 'must be an object { price_id, quantity }');
    if (typeof fields.price_id !== 'string' || fields.price_id === '') throw invalidField(`items[${count}].price_id`, 'must be provided as part of the request');
    if (!(typeof fields.quantity === 'number' && Number.isInteger(fields.quantity) && fields.quantity >= 1 && fields.quantity <= 100)) throw invalidField(`items[${count}].quantity`, 'must be a whole number from 1 to 100');
    return { priceId: fields.price_id, quantity: fields.quantity };
  });
  let customData: Record<string, unknown> | null = null;
  if (second.custom_data !== undefined && second.custom_data !== null) {
    if (typeof second.custom_data !== 'object' || Array.isArray(second.custom_data)) throw invalidField('custom_data', 'must be an object or null');
    if (JSON.stringify(second.custom_data).length > 10_000) throw invalidField('custom_data', 'is too large');
    customData = second.custom_data as Record<string, unknown>;
  }
  return { items, customData };
}

/** POST /transactions, GET /transactions and GET /transactions/{id}/invoice (inside the API's authenticated context). */
export function transactionRoutes(app: FastifyInstance, ctx: TransactionRoutesContext): void {
  const { engine } = ctx;

  // A transaction for a checkout, made by the API (Paddle.Checkout.open({ transactionId }) pays it).
  app.post('/transactions', async (req, reply) => {
    const { items, customData } = parseCreate(req.body);
    let currency: string;
    try {
      currency = engine.lines(items)[0]!.price.currency;
    } catch (err) {
      // The items' own problems (an unknown price, mixed currencies or intervals), as Paddle words a field.
      if (err instanceof RangeError) throw invalidField('items', err.message);
      throw err;
    }
    const asked = (req.body as { currency_code?: unknown }).currency_code;
    if (asked !== undefined && asked !== currency) throw invalidField('currency_code', `must be ${currency}, the items' currency`);
    const txn = engine.createTransaction(items, customData, (id) => `${ctx.base(req)}/checkout?txn=${encodeURIComponent(id)}`);
    return ctx.ok(reply.code(201), txn);
  });

  app.get('/transactions', async (req, reply) => {
    const params = queryOf(req.url);
    const { query, include, order, perPage, after } = parseQuery(params);
    const all = sortTransactions(engine.findTransactions(query), order.field, order.direction);
    let rest = all;
    if (after !== undefined) {
      const at = all.findIndex((t) => t.id === after);
      // A cursor naming a transaction outside these results: the ones after it by id, in the direction asked.
      rest = at >= 0 ? all.slice(at + 1) : all.filter((t) => (order.direction === 'ASC' ? t.id > after : t.id < after));
    }
    const page = rest.slice(0, perPage);
    const next = new URLSearchParams(params);
    next.delete('after');
    const last = page.at(-1);
    if (last) next.set('after', last.id);
    else if (after !== undefined) next.set('after', after);
    const data = page.map((t) => (include.includes('customer') ? { ...t, customer: t.customer_id === null ? null : engine.customer(t.customer_id) } : t));
    return ctx.ok(reply, data, {
      pagination: { per_page: perPage, next: `${ctx.base(req)}/transactions?${next}`, has_more: rest.length > page.length, estimated_total: all.length },
    });
  });

  app.get('/transactions/:id/invoice', async (req, reply) => {
    const { id } = req.params as { id: string };
    const params = queryOf(req.url);
    const disposition = single(params, 'disposition');
    if (disposition !== undefined && !DISPOSITIONS.includes(disposition)) throw invalidField('disposition', 'must be attachment or inline');
    const txn = engine.invoiceable(id);
    const { token } = ctx.invoiceLinks.mint(txn.id);
    return ctx.ok(reply, { url: `${ctx.base(req)}/invoices/${token}` });
  });
}

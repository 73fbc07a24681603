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
function values(q: URLSearchParams, name: string, allowed?: string[]): string[] | undefined {
  if (!q.has(name)) return undefined;
  const parts = q
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (parts.length === 0) throw invalidField(name, 'must not be empty');
  for (const p of parts) if (allowed && !allowed.includes(p)) throw invalidField(name, `must be one of ${allowed.join(', ')}, not ${JSON.stringify(p.slice(0, 50))}`);
  return parts;
}

function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length > 1) throw invalidField(name, 'must be given once');
  return all[0];
}

/** Epoch microseconds of an RFC 3339 date-time (no offset: UTC, as Paddle's examples write it). */
function micros(value: string, field: string): number {
  const m = RFC3339.exec(value);
  const ms = m ? Date.parse(`${m[1]}${m[3] ?? 'Z'}`) : Number.NaN;
  if (!m || !Number.isFinite(ms)) throw invalidField(field, 'must be an RFC 3339 datetime string, e.g. 2026-01-15T12:00:00Z');
  return ms * 1000 + Number((m[2] ?? '').slice(0, 6).padEnd(6, '0'));
}

function parseQuery(q: URLSearchParams): { query: TransactionQuery; include: string[]; order: { field: OrderField; direction: Direction }; perPage: number; after: string | undefined } {
  const subscription = values(q, 'subscription_id');
  const query: TransactionQuery = {
    ids: values(q, 'id'),
    subscriptionIds: subscription?.length === 1 && subscription[0] === 'null' ? null : subscription,
    customerIds: values(q, 'customer_id'),
    statuses: values(q, 'status', STATUSES),
    origins: values(q, 'origin', ORIGINS),
    invoiceNumbers: values(q, 'invoice_number'),
    collectionModes: values(q, 'collection_mode', COLLECTION_MODES),
    dates: [],
  };
  for (const field of DATE_FIELDS) {
    for (const [suffix, op] of Object.entries(OPERATORS)) {
      const name = `${field}${suffix}`;
      const value = single(q, name);
      if (value !== undefined) query.dates!.push({ field, op, micros: micros(value, name) });
    }
  }
  const orderBy = single(q, 'order_by') ?? 'id[DESC]';
  const m = /^(billed_at|created_at|id|updated_at)\[(ASC|DESC)\]$/.exec(orderBy);
  if (!m) throw invalidField('order_by', 'must be a field (billed_at, created_at, id or updated_at) and a direction, e.g. id[DESC]');
  const perPageRaw = single(q, 'per_page');
  const perPage = perPageRaw === undefined ? PER_PAGE : Number(perPageRaw);
  if (!(Number.isInteger(perPage) && perPage >= 1)) throw invalidField('per_page', 'must be a whole number of at least 1');
  const after = single(q, 'after');
  if (after === '') throw invalidField('after', 'must not be empty');
  return {
    query,
    include: values(q, 'include', INCLUDES) ?? [],
    order: { field: m[1] as OrderField, direction: m[2] as Direction },
    perPage: Math.min(perPage, PER_PAGE),
    after,
  };
}

/** Sorted by the field in the direction (ties by id the same way); a null billed_at sorts last either way. */
function sortTransactions(list: PaddleTransaction[], field: OrderField, direction: Direction): PaddleTransaction[] {
  const sign = direction === 'ASC' ? 1 : -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return list.sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * cmp(x, y);
    }
    return sign * cmp(a.id, b.id);
  });
}

/** The body of POST /transactions the stand-in takes: items (catalogue prices), custom data, automatic collection. */
function parseCreate(body: unknown): { items: Array<{ priceId: unknown; quantity: unknown }>; customData: Record<string, unknown> | null } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) throw new PaddleApiError(400, 'bad_request', 'Invalid request: the body must be a JSON object.');
  const b = body as Record<string, unknown>;
  const allowed = new Set(['items', 'custom_data', 'collection_mode', 'currency_code']);
  for (const key of Object.keys(b)) if (!allowed.has(key)) throw invalidField(key, 'is not supported by this sandbox (items, custom_data, collection_mode, currency_code)');
  if (b.collection_mode !== undefined && b.collection_mode !== 'automatic') throw invalidField('collection_mode', 'only automatic is supported by this sandbox');
  if (!Array.isArray(b.items) || b.items.length === 0 || b.items.length > 10) throw invalidField('items', 'must be an array of 1 to 10 { price_id, quantity }');
  const items = b.items.map((item, n) => {
    const i = item as { price_id?: unknown; quantity?: unknown } | null;
    if (!i || typeof i !== 'object') throw invalidField(`items[${n}]`, 'must be an object { price_id, quantity }');
    if (typeof i.price_id !== 'string' || i.price_id === '') throw invalidField(`items[${n}].price_id`, 'must be provided as part of the request');
    if (!(typeof i.quantity === 'number' && Number.isInteger(i.quantity) && i.quantity >= 1 && i.quantity <= 100)) throw invalidField(`items[${n}].quantity`, 'must be a whole number from 1 to 100');
    return { priceId: i.price_id, quantity: i.quantity };
  });
  let customData: Record<string, unknown> | null = null;
  if (b.custom_data !== undefined && b.custom_data !== null) {
    if (typeof b.custom_data !== 'object' || Array.isArray(b.custom_data)) throw invalidField('custom_data', 'must be an object or null');
    if (JSON.stringify(b.custom_data).length > 10_000) throw invalidField('custom_data', 'is too large');
    customData = b.custom_data as Record<string, unknown>;
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
    const q = queryOf(req.url);
    const { query, include, order, perPage, after } = parseQuery(q);
    const all = sortTransactions(engine.findTransactions(query), order.field, order.direction);
    let rest = all;
    if (after !== undefined) {
      const at = all.findIndex((t) => t.id === after);
      // A cursor naming a transaction outside these results: the ones after it by id, in the direction asked.
      rest = at >= 0 ? all.slice(at + 1) : all.filter((t) => (order.direction === 'ASC' ? t.id > after : t.id < after));
    }
    const page = rest.slice(0, perPage);
    const next = new URLSearchParams(q);
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
    const q = queryOf(req.url);
    const disposition = single(q, 'disposition');
    if (disposition !== undefined && !DISPOSITIONS.includes(disposition)) throw invalidField('disposition', 'must be attachment or inline');
    const txn = engine.invoiceable(id);
    const { token } = ctx.invoiceLinks.mint(txn.id);
    return ctx.ok(reply, { url: `${ctx.base(req)}/invoices/${token}` });
  });
}

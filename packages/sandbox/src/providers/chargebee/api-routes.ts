import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormBody } from '../../kit/body';
import { safeEqual } from '../../kit/crypto';
import { EMAIL } from '../../kit/form';
import { baseOf, httpUrl, queryOf } from '../../kit/http';
import type { WebhookQueue } from './delivery';
import type { ChargebeeEngine, PlanChange } from './engine';
import { authFailed, ChargebeeApiError, invalidParam, notFound } from './errors';

export interface ApiContext {
  engine: ChargebeeEngine;
  queue: WebhookQueue;
  apiKey: string;
  /** The plugin's prefix (where the stand-in's pages are). */
  mount: string;
  baseUrl: string | null;
}

const ID = /^[\w.~@-]{1,50}$/;

export function sendApiError(reply: FastifyReply, err: ChargebeeApiError): FastifyReply {
  return reply.code(err.status).header('cache-control', 'no-store').type('application/json;charset=utf-8').send(err.body());
}

function ok(reply: FastifyReply, body: unknown) {
  return reply.header('cache-control', 'no-store').type('application/json;charset=utf-8').send(body);
}

/** The request's parameters: the form body of a POST, the query of a GET (bracket keys kept as sent). */
function params(req: FastifyRequest): URLSearchParams {
  if (req.method === 'GET') return queryOf(req.url);
  if (req.body === undefined || req.body === null) return new URLSearchParams();
  if (req.body instanceof FormBody) return req.body.params;
  throw new ChargebeeApiError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded (bracket keys such as customer[id]).');
}

function bool(p: URLSearchParams, name: string): boolean | undefined {
  const v = p.get(name);
  if (v === null) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalidParam(name, 'must be true or false');
}

function text(p: URLSearchParams, name: string, max: number): string | null {
  const v = p.get(name);
  if (v === null || v === '') return null;
  if (v.length > max) throw invalidParam(name, `cannot be longer than ${max} characters`);
  return v;
}

function id(p: URLSearchParams, name: string): string | null {
  const v = text(p, name, 50);
  if (v !== null && !ID.test(v)) throw invalidParam(name, 'must be up to 50 letters, digits, _ . ~ @ or -');
  return v;
}

function url(p: URLSearchParams, name: string): string | null {
  const v = text(p, name, 2000);
  if (v !== null && !httpUrl(v)) throw invalidParam(name, 'must be an absolute http(s) URL');
  return v;
}

function quantity(p: URLSearchParams, name: string): number | null {
  const v = p.get(name);
  if (v === null) return null;
  if (!/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > 100) throw invalidParam(name, 'must be a whole number from 1 to 100');
  return Number(v);
}

/** subscription_items[…][0] only: the stand-in's subscriptions have exactly one plan item. */
function planItem(p: URLSearchParams): { itemPriceId: string; quantity: number | null } {
  for (const key of p.keys()) {
    const m = /^subscription_items\[\w+\]\[(\d+)\]$/.exec(key);
    if (m && m[1] !== '0') throw invalidParam(key, 'this sandbox sells exactly one plan item price per subscription (index 0 only)');
  }
  const name = 'subscription_items[item_price_id][0]';
  const itemPriceId = p.get(name);
  if (itemPriceId === null || itemPriceId === '') throw invalidParam(name, 'cannot be blank');
  return { itemPriceId, quantity: quantity(p, 'subscription_items[quantity][0]') };
}

function change(p: URLSearchParams): PlanChange {
  const item = planItem(p);
  if (bool(p, 'end_of_term') === true) throw invalidParam('end_of_term', 'this sandbox applies item changes immediately only (end_of_term=false)');
  if (p.get('changes_scheduled_at') !== null || p.get('change_option') === 'specific_date') throw invalidParam('change_option', 'this sandbox applies item changes immediately only');
  bool(p, 'replace_items_list');
  return { itemPriceId: item.itemPriceId, quantity: item.quantity, prorate: bool(p, 'prorate') ?? true };
}

function page(p: URLSearchParams): { limit: number; offset: number } {
  const rawLimit = p.get('limit');
  const limit = rawLimit === null ? 10 : Number(rawLimit);
  if (!(/^\d{1,3}$/.test(rawLimit ?? '10') && limit >= 1 && limit <= 100)) throw invalidParam('limit', 'must be a whole number from 1 to 100');
  const rawOffset = p.get('offset');
  if (rawOffset === null || rawOffset === '') return { limit, offset: 0 };
  const m = /^\["(\d{1,9})"\]$/.exec(rawOffset);
  if (!m) throw invalidParam('offset', 'is not an offset this API returned (next_offset)');
  return { limit, offset: Number(m[1]) };
}

function paged<T>(all: T[], p: URLSearchParams, wrap: (x: T) => unknown) {
  const { limit, offset } = page(p);
  const slice = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? `["${offset + limit}"]` : undefined;
  return { list: slice.map(wrap), ...(next ? { next_offset: next } : {}) };
}

/** `field[is]` filters (the only operator this stand-in supports); any other operator on the field is refused. */
function filterIs(p: URLSearchParams, field: string): string | undefined {
  for (const key of p.keys()) {
    if (key.startsWith(`${field}[`) && key !== `${field}[is]`) throw invalidParam(key, `this sandbox filters ${field} with [is] only`);
  }
  return p.get(`${field}[is]`) ?? undefined;
}

/** Chargebee API v2 (Product Catalog 2.0) subset, behind HTTP Basic auth (username = API key, empty password). */
export async function apiRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const { engine } = ctx;
  const base = (req: FastifyRequest) => baseOf(req, ctx.mount, ctx.baseUrl);

  app.addHook('onRequest', async (req, reply) => {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
    const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon === -1 ? decoded : decoded.slice(0, colon);
    if (!m || !safeEqual(user, ctx.apiKey)) return sendApiError(reply, authFailed());
  });

  app.post('/hosted_pages/checkout_new_for_items', async (req, reply) => {
    const p = params(req);
    const item = planItem(p);
    const email = text(p, 'customer[email]', 70);
    if (email !== null && !EMAIL.test(email)) throw invalidParam('customer[email]', 'invalid email format');
    const passThru = text(p, 'pass_thru_content', 2048);
    const input = {
      lines: [{ itemPriceId: item.itemPriceId, quantity: item.quantity ?? 1 }],
      customerId: id(p, 'customer[id]'),
      email,
      subscriptionId: id(p, 'subscription[id]'),
      redirectUrl: url(p, 'redirect_url'),
      cancelUrl: url(p, 'cancel_url'),
      passThruContent: passThru,
    };
    const root = base(req);
    return ok(reply, { hosted_page: engine.createHostedPage(input, (pageId) => `${root}/pages/v3/${pageId}/`) });
  });

  app.get('/hosted_pages/:id', async (req, reply) => ok(reply, { hosted_page: engine.hostedPage((req.params as { id: string }).id) }));

  app.get('/subscriptions', async (req, reply) => {
    const p = params(req);
    const customerId = filterIs(p, 'customer_id');
    const status = filterIs(p, 'status');
    return ok(
      reply,
      paged(engine.subscriptions({ customerId, status }), p, (x) => x),
    );
  });

  app.get('/subscriptions/:id', async (req, reply) => ok(reply, engine.subscription((req.params as { id: string }).id)));

  app.post('/subscriptions/:id/cancel_for_items', async (req, reply) => {
    const p = params(req);
    const option = p.get('cancel_option');
    if (option !== null && option !== 'immediately' && option !== 'end_of_term') throw invalidParam('cancel_option', 'this sandbox supports immediately and end_of_term');
    const endOfTerm = bool(p, 'end_of_term') ?? option === 'end_of_term';
    const credit = p.get('credit_option_for_current_term_charges') ?? 'none';
    if (credit !== 'none' && credit !== 'prorate' && credit !== 'full') throw invalidParam('credit_option_for_current_term_charges', 'must be none, prorate or full');
    text(p, 'cancel_reason_code', 100);
    return ok(reply, engine.cancel((req.params as { id: string }).id, endOfTerm, 'api', credit));
  });

  app.post('/subscriptions/:id/remove_scheduled_cancellation', async (req, reply) => {
    params(req);
    return ok(reply, engine.removeScheduledCancellation((req.params as { id: string }).id, 'api'));
  });

  app.post('/subscriptions/:id/reactivate', async (req, reply) => {
    params(req);
    return ok(reply, engine.reactivate((req.params as { id: string }).id, 'api'));
  });

  app.post('/subscriptions/:id/update_for_items', async (req, reply) => {
    const c = change(params(req));
    return ok(reply, engine.update((req.params as { id: string }).id, c, 'api'));
  });

  app.post('/estimates/update_subscription_for_items', async (req, reply) => {
    const p = params(req);
    const subId = p.get('subscription[id]');
    if (subId === null || subId === '') throw invalidParam('subscription[id]', 'cannot be blank');
    const c = change(p);
    return ok(reply, { estimate: engine.estimate(subId, c) });
  });

  app.post('/portal_sessions', async (req, reply) => {
    const p = params(req);
    const customerId = id(p, 'customer[id]');
    if (customerId === null) throw invalidParam('customer[id]', 'cannot be blank');
    const redirect = url(p, 'redirect_url');
    const root = base(req);
    return ok(reply, { portal_session: engine.portalSession(customerId, redirect, (token) => `${root}/portal/v2/access/${token}`) });
  });

  app.get('/portal_sessions/:id', async (req, reply) => ok(reply, { portal_session: engine.portalApi((req.params as { id: string }).id) }));

  app.get('/customers/:id', async (req, reply) => ok(reply, { customer: engine.customer((req.params as { id: string }).id) }));

  app.get('/invoices', async (req, reply) => {
    const p = params(req);
    const invoices = engine.invoices({ subscriptionId: filterIs(p, 'subscription_id'), customerId: filterIs(p, 'customer_id') });
    return ok(reply, paged(invoices, p, (invoice) => ({ invoice })));
  });

  app.get('/invoices/:id', async (req, reply) => ok(reply, { invoice: engine.invoice((req.params as { id: string }).id) }));

  app.post('/invoices/:id/pdf', async (req, reply) => {
    params(req);
    const root = base(req);
    return ok(reply, { download: engine.download((req.params as { id: string }).id, (token) => `${root}/invoices/download/${token}`) });
  });

  app.get('/events', async (req, reply) => {
    const p = params(req);
    const type = filterIs(p, 'event_type');
    const events = ctx.queue.events().filter((e) => type === undefined || e.event_type === type).reverse();
    return ok(reply, paged(events, p, (event) => ({ event })));
  });

  app.get('/events/:id', async (req, reply) => {
    const eventId = (req.params as { id: string }).id;
    const event = ctx.queue.event(eventId);
    if (!event) throw notFound('Event', eventId);
    return ok(reply, { event });
  });
}

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

function bool(params: URLSearchParams, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidParam(name, 'must be true or false');
}

function text(form: URLSearchParams, name: string, max: number): string | null {
  const value = form.get(name);
  if (value === null || value === '') return null;
  if (value.length > max) throw invalidParam(name, `cannot be longer than ${max} characters`);
  return value;
}

function id(params: URLSearchParams, name: string): string | null {
  const value = text(params, name, 50);
  if (value !== null && !ID.test(value)) throw invalidParam(name, 'must be up to 50 letters, digits, _ . ~ @ or -');
  return value;
}

function url(form: URLSearchParams, name: string): string | null {
  const value = text(form, name, 2000);
  if (value !== null && !httpUrl(value)) throw invalidParam(name, 'must be an absolute http(s) URL');
  return value;
}

function quantity(params: URLSearchParams, name: string): number | null {
  const value = params.get(name);
  if (value === null) return null;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100) throw invalidParam(name, 'must be a whole number from 1 to 100');
  return Number(value);
}

/** subscription_items[…][0] only: the stand-in's subscriptions have exactly one plan item. */
function planItem(form: URLSearchParams): { itemPriceId: string; quantity: number | null } {
  for (const key of form.keys()) {
    const match = /^subscription_items\[\w+\]\[(\d+)\]$/.exec(key);
    if (match && match[1] !== '0') throw invalidParam(key, 'this sandbox sells exactly one plan item price per subscription (index 0 only)');
  }
  const name = 'subscription_items[item_price_id][0]';
  const itemPriceId = form.get(name);
  if (itemPriceId === null || itemPriceId === '') throw invalidParam(name, 'cannot be blank');
  return { itemPriceId, quantity: quantity(form, 'subscription_items[quantity][0]') };
}

function change(params: URLSearchParams): PlanChange {
  const item = planItem(params);
  if (bool(params, 'end_of_term') === true) throw invalidParam('end_of_term', 'this sandbox applies item changes immediately only (end_of_term=false)');
  if (params.get('changes_scheduled_at') !== null || params.get('change_option') === 'specific_date') throw invalidParam('change_option', 'this sandbox applies item changes immediately only');
  bool(params, 'replace_items_list');
  return { itemPriceId: item.itemPriceId, quantity: item.quantity, prorate: bool(params, 'prorate') ?? true };
}

function page(form: URLSearchParams): { limit: number; offset: number } {
  const rawLimit = form.get('limit');
  const limit = rawLimit === null ? 10 : Number(rawLimit);
  if (!(/^\d{1,3}$/.test(rawLimit ?? '10') && limit >= 1 && limit <= 100)) throw invalidParam('limit', 'must be a whole number from 1 to 100');
  const rawOffset = form.get('offset');
  if (rawOffset === null || rawOffset === '') return { limit, offset: 0 };
  const match = /^\["(\d{1,9})"\]$/.exec(rawOffset);
  if (!match) throw invalidParam('offset', 'is not an offset this API returned (next_offset)');
  return { limit, offset: Number(match[1]) };
}

function paged<T>(all: T[], params: URLSearchParams, wrap: (item: T) => unknown) {
  const { limit, offset } = page(params);
  const slice = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? `["${offset + limit}"]` : undefined;
  return { list: slice.map(wrap), ...(next ? { next_offset: next } : {}) };
}

/** `field[is]` filters (the only operator this stand-in supports); any other operator on the field is refused. */
function filterIs(form: URLSearchParams, field: string): string | undefined {
  for (const key of form.keys()) {
    if (key.startsWith(`${field}[`) && key !== `${field}[is]`) throw invalidParam(key, `this sandbox filters ${field} with [is] only`);
  }
  return form.get(`${field}[is]`) ?? undefined;
}

/** Chargebee API v2 (Product Catalog 2.0) subset, behind HTTP Basic auth (username = API key, empty password). */
export async function apiRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const { engine } = ctx;
  const base = (req: FastifyRequest) => baseOf(req, ctx.mount, ctx.baseUrl);

  app.addHook('onRequest', async (req, reply) => {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon === -1 ? decoded : decoded.slice(0, colon);
    if (!match || !safeEqual(user, ctx.apiKey)) return sendApiError(reply, authFailed());
  });

  app.post('/hosted_pages/checkout_new_for_items', async (req, reply) => {
    const form = params(req);
    const item = planItem(form);
    const email = text(form, 'customer[email]', 70);
    if (email !== null && !EMAIL.test(email)) throw invalidParam('customer[email]', 'invalid email format');
    const passThru = text(form, 'pass_thru_content', 2048);
    const input = {
      lines: [{ itemPriceId: item.itemPriceId, quantity: item.quantity ?? 1 }],
      customerId: id(form, 'customer[id]'),
      email,
      subscriptionId: id(form, 'subscription[id]'),
      redirectUrl: url(form, 'redirect_url'),
      cancelUrl: url(form, 'cancel_url'),
      passThruContent: passThru,
    };
    const root = base(req);
    return ok(reply, { hosted_page: engine.createHostedPage(input, (pageId) => `${root}/pages/v3/${pageId}/`) });
  });

  app.get('/hosted_pages/:id', async (req, reply) => ok(reply, { hosted_page: engine.hostedPage((req.params as { id: string }).id) }));

  app.get('/subscriptions', async (req, reply) => {
    const form = params(req);
    const customerId = filterIs(form, 'customer_id');
    const status = filterIs(form, 'status');
    return ok(
      reply,
      paged(engine.subscriptions({ customerId, status }), form, (x) => x),
    );
  });

  app.get('/subscriptions/:id', async (req, reply) => ok(reply, engine.subscription((req.params as { id: string }).id)));

  app.post('/subscriptions/:id/cancel_for_items', async (req, reply) => {
    const form = params(req);
    const option = form.get('cancel_option');
    if (option !== null && option !== 'immediately' && option !== 'end_of_term') throw invalidParam('cancel_option', 'this sandbox supports immediately and end_of_term');
    const endOfTerm = bool(form, 'end_of_term') ?? option === 'end_of_term';
    const credit = form.get('credit_option_for_current_term_charges') ?? 'none';
    if (credit !== 'none' && credit !== 'prorate' && credit !== 'full') throw invalidParam('credit_option_for_current_term_charges', 'must be none, prorate or full');
    text(form, 'cancel_reason_code', 100);
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
    const planChange = change(params(req));
    return ok(reply, engine.update((req.params as { id: string }).id, planChange, 'api'));
  });

  app.post('/estimates/update_subscription_for_items', async (req, reply) => {
    const form = params(req);
    const subId = form.get('subscription[id]');
    if (subId === null || subId === '') throw invalidParam('subscription[id]', 'cannot be blank');
    const planChange = change(form);
    return ok(reply, { estimate: engine.estimate(subId, planChange) });
  });

  app.post('/portal_sessions', async (req, reply) => {
    const form = params(req);
    const customerId = id(form, 'customer[id]');
    if (customerId === null) throw invalidParam('customer[id]', 'cannot be blank');
    const redirect = url(form, 'redirect_url');
    const root = base(req);
    return ok(reply, { portal_session: engine.portalSession(customerId, redirect, (token) => `${root}/portal/v2/access/${token}`) });
  });

  app.get('/portal_sessions/:id', async (req, reply) => ok(reply, { portal_session: engine.portalApi((req.params as { id: string }).id) }));

  app.get('/customers/:id', async (req, reply) => ok(reply, { customer: engine.customer((req.params as { id: string }).id) }));

  app.get('/invoices', async (req, reply) => {
    const form = params(req);
    const invoices = engine.invoices({ subscriptionId: filterIs(form, 'subscription_id'), customerId: filterIs(form, 'customer_id') });
    return ok(reply, paged(invoices, form, (invoice) => ({ invoice })));
  });

  app.get('/invoices/:id', async (req, reply) => ok(reply, { invoice: engine.invoice((req.params as { id: string }).id) }));

  app.post('/invoices/:id/pdf', async (req, reply) => {
    params(req);
    const root = base(req);
    return ok(reply, { download: engine.download((req.params as { id: string }).id, (token) => `${root}/invoices/download/${token}`) });
  });

  app.get('/events', async (req, reply) => {
    const form = params(req);
    const type = filterIs(form, 'event_type');
    const events = ctx.queue.events().filter((e) => type === undefined || e.event_type === type).reverse();
    return ok(reply, paged(events, form, (event) => ({ event })));
  });

  app.get('/events/:id', async (req, reply) => {
    const eventId = (req.params as { id: string }).id;
    const event = ctx.queue.event(eventId);
    if (!event) throw notFound('Event', eventId);
    return ok(reply, { event });
  });
}

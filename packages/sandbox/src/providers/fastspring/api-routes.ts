import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../../kit/crypto';
import { DAY } from '../../kit/dates';
import type { WebhookQueue } from './delivery';
import { FastspringApiError, type FastspringEngine, notFoundSubscription, type PlannedChange, type SubscriptionChange } from './engine';
import { display, isoDate, major } from './format';

export interface ApiContext {
  engine: FastspringEngine;
  queue: WebhookQueue;
  apiUsername: string;
  apiPassword: string;
}

const STATUSES = ['active', 'canceled', 'deactivated', 'overdue', 'trial'];
/** GET /events/unprocessed answers this many events at most (with `more: true` when there are more). */
export const EVENTS_PER_PAGE = 25;

function err(status: number, action: string, field: string, message: string, extra: Record<string, unknown> = {}): FastspringApiError {
  return new FastspringApiError(status, { action, ...extra, result: 'error', error: { [field]: message } }, message);
}

function ok(reply: FastifyReply, body: unknown) {
  return reply.header('cache-control', 'no-store').send(body);
}

function query(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v[0] : v;
}

function ids(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(req: FastifyRequest, name: string, fallback: number, max: number, action: string): number {
  const raw = query(req, name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!(Number.isInteger(n) && n >= 1 && n <= max)) throw err(400, action, name, `${name} must be a whole number from 1 to ${max}.`);
  return n;
}

/** A time query parameter: epoch ms, or a YYYY-MM-DD date (UTC midnight). */
function timeParam(req: FastifyRequest, name: string, action: string): number | undefined {
  const raw = query(req, name);
  if (raw === undefined || raw === '') return undefined;
  if (/^\d{1,16}$/.test(raw)) return Number(raw);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (m) {
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    if (Number.isFinite(t) && isoDate(t) === raw) return t;
  }
  throw err(400, action, name, `${name} must be a time in epoch milliseconds or a date as YYYY-MM-DD.`);
}

function bodyObject(req: FastifyRequest, action: string): Record<string, unknown> {
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || (body as object).constructor !== Object) {
    throw err(400, action, 'message', 'Request must contain a single root object. Please consult API documentation.');
  }
  return body as Record<string, unknown>;
}

/** One entry of POST /subscriptions, checked (no change is made while any entry is bad). */
function parseChange(item: unknown, n: number): SubscriptionChange {
  const action = 'subscription.update';
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw err(400, action, 'subscriptions', `subscriptions[${n}] must be an object.`);
  const i = item as Record<string, unknown>;
  const allowed = new Set(['subscription', 'product', 'quantity', 'prorate', 'preview', 'deactivation']);
  const id = i.subscription;
  if (typeof id !== 'string' || id === '') throw err(400, action, 'subscription', `subscriptions[${n}].subscription is required.`);
  for (const key of Object.keys(i)) {
    if (!allowed.has(key)) throw err(400, action, key, `${key} is not supported by this sandbox (subscription, product, quantity, prorate, preview, deactivation).`, { subscription: id });
  }
  if (i.product !== undefined && (typeof i.product !== 'string' || i.product === '')) throw err(400, action, 'product', 'product must be a product path.', { subscription: id });
  if (i.quantity !== undefined && !(typeof i.quantity === 'number' && Number.isInteger(i.quantity) && i.quantity >= 1 && i.quantity <= 100)) {
    throw err(400, action, 'quantity', 'quantity must be a whole number from 1 to 100.', { subscription: id });
  }
  for (const flag of ['prorate', 'preview'] as const) if (i[flag] !== undefined && typeof i[flag] !== 'boolean') throw err(400, action, flag, `${flag} must be true or false.`, { subscription: id });
  if ('deactivation' in i && i.deactivation !== null) throw err(400, action, 'deactivation', 'Only "deactivation": null (resume a canceled subscription) is supported.', { subscription: id });
  if (i.preview === true && i.prorate !== true) throw err(400, action, 'preview', 'preview needs prorate: true.', { subscription: id });
  return {
    subscription: id,
    product: i.product as string | undefined,
    quantity: i.quantity as number | undefined,
    prorate: i.prorate === true,
    preview: i.preview === true,
    uncancel: 'deactivation' in i,
  };
}

function period(unit: string, length: number) {
  return { count: length, unit };
}

/** The `proration` object of a POST /subscriptions preview (prorate + preview). */
function prorationPreview(p: PlannedChange) {
  const c = p.sub.currency;
  const m = (minor: number) => major(minor, c);
  const base = {
    productPath: p.product.path,
    currency: c,
    nextPeriodStartDate: new Date(p.newPeriodStart).toISOString(),
    nextPeriodEndDate: new Date(p.newNext).toISOString(),
    previousRemainingDays: p.remainingDays,
    periodPastDays: p.utilizedDays,
    nextRemainingDays: p.sameInterval ? p.remainingDays : Math.round((p.newNext - p.newPeriodStart) / DAY),
    regularPeriod: { unit: p.product.intervalUnit.toUpperCase(), unitCount: p.product.intervalLength },
    nextPricePerPeriod: { amount: m(p.newTotalMinor), period: period(p.product.intervalUnit, p.product.intervalLength) },
    previousPricePerPeriod: { amount: m(p.oldTotalMinor), period: period(p.sub.intervalUnit, p.sub.intervalLength) },
    utilizedAmount: m(p.oldTotalMinor - p.creditMinor),
    proratedAmount: m(p.chargeMinor),
  };
  return p.netMinor >= 0 ? { ...base, creditAmount: m(p.creditMinor), chargeAmount: m(p.netMinor) } : { ...base, prorateAdjustment: m(p.creditMinor), refundAmount: m(-p.netMinor) };
}

function dates(key: string, ms: number | null) {
  return {
    [key]: ms,
    [`${key}Display`]: ms === null ? null : `${new Date(ms).getUTCMonth() + 1}/${new Date(ms).getUTCDate()}/${String(new Date(ms).getUTCFullYear() % 100).padStart(2, '0')}`,
    [`${key}DisplayISO8601`]: ms === null ? null : isoDate(ms),
  };
}

/** POST /subscriptions/estimate's answer. */
function estimate(engine: FastspringEngine, p: PlannedChange) {
  const c = p.sub.currency;
  const money = (key: string, minor: number) => ({ [key]: major(minor, c), [`${key}Display`]: display(minor, c) });
  const plan = (which: 'current' | 'proposed') => {
    const current = which === 'current';
    const path = current ? p.sub.product : p.product.path;
    const total = current ? p.oldTotalMinor : p.newTotalMinor;
    const unit = current ? p.sub.unitMinor : p.newTotalMinor / p.quantity;
    const prorated = current ? -p.creditMinor : p.chargeMinor;
    return {
      display: engine.catalog.get(path)?.display ?? path,
      product: path,
      billingFrequency: current ? `${p.sub.intervalLength} ${p.sub.intervalUnit}` : `${p.product.intervalLength} ${p.product.intervalUnit}`,
      ...money('price', unit),
      ...money('discount', 0),
      quantity: current ? p.sub.quantity : p.quantity,
      ...money('subtotal', total),
      ...money('tax', 0),
      ...money('total', total),
      taxPercent: 0,
      taxPercentDisplay: '0%',
      ...dates('periodStartDate', current ? p.sub.periodStart : p.newPeriodStart),
      ...dates('periodEndDate', current ? p.sub.next : p.newNext),
      prorationUtilizedDays: p.utilizedDays,
      prorationRemainingDays: p.remainingDays,
      prorationTotalDays: p.totalDays,
      ...money('proratedItemCharge', current ? 0 : p.chargeMinor),
      ...money('proratedItemCredit', current ? p.creditMinor : 0),
      ...money('proratedItemSubtotal', prorated),
      ...money('proratedItemTax', 0),
      ...money('proratedItemTotal', prorated),
      addons: [],
      ...money('subscriptionSubtotal', total),
      ...money('subscriptionTax', 0),
      ...money('subscriptionTotal', total),
      ...(current ? money('subscriptionProratedCredit', p.creditMinor) : money('subscriptionProratedCharge', p.chargeMinor)),
      ...dates('subscriptionEndDate', null),
    };
  };
  return {
    subscription: p.sub.id,
    currency: c,
    timezone: 'UTC',
    ...dates('periodStartDate', p.sub.periodStart),
    ...dates('periodEndDate', p.sub.next),
    ...dates('endDate', null),
    remainingPeriods: -1,
    ...dates('nextChargeDate', p.newNext),
    isProratable: true,
    prorationStatus: 'Available',
    currentPlan: plan('current'),
    proposedPlan: plan('proposed'),
    amountDue: {
      ...money('prorationSubtotal', p.netMinor),
      ...money('prorationTax', 0),
      ...money('totalAmountDue', Math.max(0, p.netMinor)),
      ...dates('nextChargeDate', p.newNext),
      ...money('nextChargeAmount', p.newTotalMinor),
    },
    discountTotals: { ...money('productLevelDiscountTotal', 0), ...money('couponLevelDiscountTotal', 0) },
  };
}

/** The API subset behind HTTP Basic `apiUsername:apiPassword`. Registered in its own encapsulated context. */
export async function apiRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const { engine, queue } = ctx;

  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const good = colon > 0 && safeEqual(decoded.slice(0, colon), ctx.apiUsername) && safeEqual(decoded.slice(colon + 1), ctx.apiPassword);
    if (!good) {
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="FastSpring API"')
        .header('cache-control', 'no-store')
        .send({
          action: 'authenticate',
          result: 'error',
          error: { authorization: header ? 'Unauthorized: the API username or password is wrong.' : 'Unauthorized: send HTTP Basic credentials (API username and password).' },
        });
    }
  });

  app.get('/subscriptions', async (req, reply) => {
    const action = 'subscription.getall';
    const status = query(req, 'status');
    if (status !== undefined && !STATUSES.includes(status)) throw err(400, action, 'status', `status must be one of ${STATUSES.join(', ')}.`);
    const scope = query(req, 'scope');
    if (scope !== undefined && !['all', 'live', 'test'].includes(scope)) throw err(400, action, 'scope', 'scope must be all, live or test.');
    const page = positiveInt(req, 'page', 1, 1_000_000, action);
    const limit = positiveInt(req, 'limit', 50, 1000, action);
    const accountId = query(req, 'accountId');
    const products = query(req, 'products');
    const wanted = products ? new Set(ids(products)) : null;
    const all = [...engine.subs.values()]
      .filter((s) => scope !== 'live' && (!status || s.state === status) && (!accountId || s.accountId === accountId) && (!wanted || wanted.has(s.product)))
      .sort((a, b) => a.begin - b.begin || a.changed - b.changed);
    const slice = all.slice((page - 1) * limit, page * limit);
    return ok(reply, {
      action,
      result: 'success',
      nextPage: page * limit < all.length ? page + 1 : null,
      subscriptions: slice.map((s) => s.id),
      total: all.length,
      page,
      limit,
    });
  });

  app.get('/subscriptions/:ids', async (req, reply) => {
    const list = ids((req.params as { ids: string }).ids);
    if (list.length === 1) return ok(reply, engine.subscriptionJson(engine.subscription(list[0]!)));
    return ok(reply, {
      subscriptions: list.map((id) => {
        const sub = engine.subs.get(id);
        return sub ? engine.subscriptionJson(sub) : { action: 'subscription.get', subscription: id, result: 'error', error: { subscription: 'Subscription not found' } };
      }),
    });
  });

  app.get('/subscriptions/:id/entries', async (req, reply) => {
    const { id } = req.params as { id: string };
    const sub = engine.subscription(id, 'subscription.entries.get');
    const orders = engine.ordersOf({ subscriptionId: sub.id });
    return ok(
      reply,
      orders.map((o, n) => {
        const next = orders[n + 1];
        return {
          id: o.id,
          beginEntryDate: isoDate(o.created),
          beginPeriodDate: isoDate(o.created),
          endPeriodDate: isoDate(next ? next.created : (sub.next ?? o.created)),
          order: engine.orderJson(o),
        };
      }),
    );
  });

  app.delete('/subscriptions/:ids', async (req, reply) => {
    const list = ids((req.params as { ids: string }).ids);
    const billingPeriod = query(req, 'billingPeriod');
    if (billingPeriod !== undefined && billingPeriod !== '0' && billingPeriod !== '1') throw err(400, 'subscription.cancel', 'billingPeriod', 'billingPeriod must be 0 (now) or 1 (at the end of the billing period).');
    if (list.length === 0) throw notFoundSubscription('', 'subscription.cancel');
    const now = billingPeriod === '0';
    // All or nothing: check every id first.
    for (const id of list) engine.checkCancel(id, now);
    for (const id of list) engine.cancel(id, now);
    return ok(reply, { subscriptions: list.map((id) => ({ subscription: id, action: 'subscription.cancel', result: 'success' })) });
  });

  app.post('/subscriptions', async (req, reply) => {
    const action = 'subscription.update';
    const body = bodyObject(req, action);
    const items = body.subscriptions;
    if (!Array.isArray(items) || items.length === 0 || items.length > 50) throw err(400, action, 'subscriptions', 'subscriptions must be an array of 1 to 50 subscription changes.');
    const changes = items.map((item, n) => parseChange(item, n));
    const ids = changes.map((c) => c.subscription);
    if (new Set(ids).size !== ids.length) throw err(400, action, 'subscriptions', 'A subscription appears twice in subscriptions.');
    // Check everything before changing anything.
    const plans = changes.map((c) => engine.check(c));
    const previews = changes.some((c) => c.preview);
    if (previews) {
      return ok(reply, {
        subscriptions: changes.map((c, n) => ({
          subscription: c.subscription,
          action,
          result: 'success',
          ...(plans[n] ? { prorated: true, proration: prorationPreview(plans[n]!) } : {}),
        })),
      });
    }
    changes.forEach((c, n) => {
      engine.apply(c, plans[n] ?? null);
    });
    return ok(reply, { subscriptions: changes.map((c) => ({ subscription: c.subscription, action, result: 'success' })) });
  });

  app.post('/subscriptions/estimate', async (req, reply) => {
    const action = 'subscriptions.estimate.update';
    const body = bodyObject(req, action);
    const id = body.subscription;
    if (typeof id !== 'string' || id === '') throw err(400, action, 'message', 'Request must contain a subscription ID.');
    const allowed = new Set(['subscription', 'product', 'quantity', 'prorate', 'pricing', 'addons', 'coupons']);
    for (const key of Object.keys(body)) if (!allowed.has(key)) throw err(400, action, 'message', `${key} is not a field of this request.`, { subscription: id });
    for (const key of ['pricing', 'addons', 'coupons']) {
      const v = body[key];
      if (v !== undefined && !(Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0)) {
        throw err(400, action, 'message', `${key} is not supported by this sandbox (product and quantity only).`, { subscription: id });
      }
    }
    if (body.product !== undefined && (typeof body.product !== 'string' || body.product === '')) throw err(400, action, 'message', 'product must be a product path.', { subscription: id });
    const q = body.quantity;
    if (q !== undefined && !(typeof q === 'number' && Number.isInteger(q) && q >= 1 && q <= 100)) throw err(400, action, 'message', 'quantity must be a whole number from 1 to 100.', { subscription: id });
    const sub = engine.subs.get(id);
    if (!sub) throw new FastspringApiError(404, { status: action, subscription: id, result: 'error', error: { subscription: `Subscription ID does not exist: ${id}` } });
    if (sub.state !== 'active') throw err(400, action, 'message', 'Proration is not allowed for this subscription.', { subscription: id });
    let planned: PlannedChange;
    try {
      planned = engine.plan(id, body.product as string | undefined, q as number | undefined, action);
    } catch (e) {
      if (e instanceof FastspringApiError) throw err(400, action, 'message', e.message, { subscription: id });
      throw e;
    }
    return ok(reply, estimate(engine, planned));
  });

  app.get('/orders/:ids', async (req, reply) => {
    const list = ids((req.params as { ids: string }).ids);
    if (list.length === 1) {
      const order = engine.order(list[0]!);
      if (!order) throw err(404, 'order.get', 'order', 'Not found', { order: list[0] });
      return ok(reply, engine.orderJson(order));
    }
    return ok(reply, {
      orders: list.map((id) => {
        const order = engine.order(id);
        return order ? engine.orderJson(order) : { action: 'order.get', order: id, result: 'error', error: { order: 'Not found' } };
      }),
    });
  });

  app.get('/accounts/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const account = engine.accounts.get(id);
    if (!account) throw err(400, 'account.get', 'account', 'Not found', { account: id });
    return ok(reply, {
      ...engine.accountJson(account),
      subscriptions: [...engine.subs.values()].filter((s) => s.accountId === id).map((s) => s.id),
      orders: engine.ordersOf({ accountId: id }).map((o) => o.id),
    });
  });

  app.get('/accounts/:id/authenticate', async (req, reply) => {
    const { id } = req.params as { id: string };
    const session = engine.authenticate(id);
    return ok(reply, {
      accounts: [
        {
          action: 'account.authenticate.get',
          result: 'success',
          account: id,
          expires: new Date(session.expiresAt).toISOString().replace(/Z$/, ''),
          url: `${engine.base}/account/${encodeURIComponent(id)}/${session.token}`,
        },
      ],
    });
  });

  const listEvents = (processed: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const action = 'events.get';
    const now = engine.now();
    const days = query(req, 'days');
    let from = timeParam(req, 'begin', action);
    let to = timeParam(req, 'end', action);
    if (days !== undefined) {
      const d = Number(days);
      if (!(Number.isInteger(d) && d >= 1 && d <= 30)) throw err(400, action, 'days', 'days must be a whole number from 1 to 30.');
      from ??= now - d * DAY;
    }
    from ??= now - 30 * DAY;
    to ??= now;
    // A YYYY-MM-DD end date includes that whole day.
    if (/^\d{4}-\d{2}-\d{2}$/.test(query(req, 'end') ?? '')) to += DAY - 1;
    if (from > to) throw err(400, action, 'begin', 'begin must be before end.');
    const page = positiveInt(req, 'page', 1, 1_000_000, action);
    const all = queue.events().filter((e) => e.processed === processed && e.created >= from && e.created <= to);
    const slice = all.slice((page - 1) * EVENTS_PER_PAGE, page * EVENTS_PER_PAGE);
    const more = page * EVENTS_PER_PAGE < all.length;
    return ok(reply, {
      action,
      result: 'success',
      page,
      limit: EVENTS_PER_PAGE,
      nextPage: more ? page + 1 : null,
      total: slice.length,
      events: slice,
      ...(more ? { more: true } : {}),
    });
  };
  app.get('/events/unprocessed', listEvents(false));
  app.get('/events/processed', listEvents(true));

  app.post('/events/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const notFound = new FastspringApiError(400, { events: [{ action: 'event.get', event: id, result: 'error', error: { order: 'Not found' } }] }, 'event not found');
    if (!queue.event(id)) throw notFound;
    const body = bodyObject(req, 'event.update');
    if (typeof body.processed !== 'boolean') throw err(400, 'event.update', 'processed', 'processed must be true or false.', { event: id });
    return ok(reply, queue.setProcessed(id, body.processed));
  });

}

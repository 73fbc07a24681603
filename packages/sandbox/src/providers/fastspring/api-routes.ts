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
const EVENTS_PER_PAGE = 25;

function err(status: number, action: string, field: string, message: string, extra: Record<string, unknown> = {}): FastspringApiError {
  return new FastspringApiError(status, { action, ...extra, result: 'error', error: { [field]: message } }, message);
}

function ok(reply: FastifyReply, body: unknown) {
  return reply.header('cache-control', 'no-store').send(body);
}

function query(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
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
  const count = Number(raw);
  if (!(Number.isInteger(count) && count >= 1 && count <= max)) throw err(400, action, name, `${name} must be a whole number from 1 to ${max}.`);
  return count;
}

/** A time query parameter: epoch ms, or a YYYY-MM-DD date (UTC midnight). */
function timeParam(req: FastifyRequest, name: string, action: string): number | undefined {
  const raw = query(req, name);
  if (raw === undefined || raw === '') return undefined;
  if (/^\d{1,16}$/.test(raw)) return Number(raw);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (match) {
    const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (Number.isFinite(time) && isoDate(time) === raw) return time;
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
function parseChange(item: unknown, count: number): SubscriptionChange {
  const action = 'subscription.update';
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw err(400, action, 'subscriptions', `subscriptions[${count}] must be an object.`);
  const fields = item as Record<string, unknown>;
  const allowed = new Set(['subscription', 'product', 'quantity', 'prorate', 'preview', 'deactivation']);
  const id = fields.subscription;
  if (typeof id !== 'string' || id === '') throw err(400, action, 'subscription', `subscriptions[${count}].subscription is required.`);
  for (const key of Object.keys(fields)) {
    if (!allowed.has(key)) throw err(400, action, key, `${key} is not supported by this sandbox (subscription, product, quantity, prorate, preview, deactivation).`, { subscription: id });
  }
  if (fields.product !== undefined && (typeof fields.product !== 'string' || fields.product === '')) throw err(400, action, 'product', 'product must be a product path.', { subscription: id });
  if (fields.quantity !== undefined && !(typeof fields.quantity === 'number' && Number.isInteger(fields.quantity) && fields.quantity >= 1 && fields.quantity <= 100)) {
    throw err(400, action, 'quantity', 'quantity must be a whole number from 1 to 100.', { subscription: id });
  }
  for (const flag of ['prorate', 'preview'] as const) if (fields[flag] !== undefined && typeof fields[flag] !== 'boolean') throw err(400, action, flag, `${flag} must be true or false.`, { subscription: id });
  if ('deactivation' in fields && fields.deactivation !== null) throw err(400, action, 'deactivation', 'Only "deactivation": null (resume a canceled subscription) is supported.', { subscription: id });
  if (fields.preview === true && fields.prorate !== true) throw err(400, action, 'preview', 'preview needs prorate: true.', { subscription: id });
  return {
    subscription: id,
    product: fields.product as string | undefined,
    quantity: fields.quantity as number | undefined,
    prorate: fields.prorate === true,
    preview: fields.preview === true,
    uncancel: 'deactivation' in fields,
  };
}

function period(unit: string, length: number) {
  return { count: length, unit };
}

/** The `proration` object of a POST /subscriptions preview (prorate + preview). */
function prorationPreview(plannedChange: PlannedChange) {
  const char = plannedChange.sub.currency;
  const callback = (minor: number) => major(minor, char);
  const base = {
    productPath: plannedChange.product.path,
    currency: char,
    nextPeriodStartDate: new Date(plannedChange.newPeriodStart).toISOString(),
    nextPeriodEndDate: new Date(plannedChange.newNext).toISOString(),
    previousRemainingDays: plannedChange.remainingDays,
    periodPastDays: plannedChange.utilizedDays,
    nextRemainingDays: plannedChange.sameInterval ? plannedChange.remainingDays : Math.round((plannedChange.newNext - plannedChange.newPeriodStart) / DAY),
    regularPeriod: { unit: plannedChange.product.intervalUnit.toUpperCase(), unitCount: plannedChange.product.intervalLength },
    nextPricePerPeriod: { amount: callback(plannedChange.newTotalMinor), period: period(plannedChange.product.intervalUnit, plannedChange.product.intervalLength) },
    previousPricePerPeriod: { amount: callback(plannedChange.oldTotalMinor), period: period(plannedChange.sub.intervalUnit, plannedChange.sub.intervalLength) },
    utilizedAmount: callback(plannedChange.oldTotalMinor - plannedChange.creditMinor),
    proratedAmount: callback(plannedChange.chargeMinor),
  };
  return plannedChange.netMinor >= 0 ? { ...base, creditAmount: callback(plannedChange.creditMinor), chargeAmount: callback(plannedChange.netMinor) } : { ...base, prorateAdjustment: callback(plannedChange.creditMinor), refundAmount: callback(-plannedChange.netMinor) };
}

function dates(key: string, ms: number | null) {
  return {
    [key]: ms,
    [`${key}Display`]: ms === null ? null : `${new Date(ms).getUTCMonth() + 1}/${new Date(ms).getUTCDate()}/${String(new Date(ms).getUTCFullYear() % 100).padStart(2, '0')}`,
    [`${key}DisplayISO8601`]: ms === null ? null : isoDate(ms),
  };
}

/** POST /subscriptions/estimate's answer. */
function estimate(engine: FastspringEngine, plannedChange: PlannedChange) {
  const char = plannedChange.sub.currency;
  const money = (key: string, minor: number) => ({ [key]: major(minor, char), [`${key}Display`]: display(minor, char) });
  const plan = (which: 'current' | 'proposed') => {
    const current = which === 'current';
    const path = current ? plannedChange.sub.product : plannedChange.product.path;
    const total = current ? plannedChange.oldTotalMinor : plannedChange.newTotalMinor;
    const unit = current ? plannedChange.sub.unitMinor : plannedChange.newTotalMinor / plannedChange.quantity;
    const prorated = current ? -plannedChange.creditMinor : plannedChange.chargeMinor;
    return {
      display: engine.catalog.get(path)?.display ?? path,
      product: path,
      billingFrequency: current ? `${plannedChange.sub.intervalLength} ${plannedChange.sub.intervalUnit}` : `${plannedChange.product.intervalLength} ${plannedChange.product.intervalUnit}`,
      ...money('price', unit),
      ...money('discount', 0),
      quantity: current ? plannedChange.sub.quantity : plannedChange.quantity,
      ...money('subtotal', total),
      ...money('tax', 0),
      ...money('total', total),
      taxPercent: 0,
      taxPercentDisplay: '0%',
      ...dates('periodStartDate', current ? plannedChange.sub.periodStart : plannedChange.newPeriodStart),
      ...dates('periodEndDate', current ? plannedChange.sub.next : plannedChange.newNext),
      prorationUtilizedDays: plannedChange.utilizedDays,
      prorationRemainingDays: plannedChange.remainingDays,
      prorationTotalDays: plannedChange.totalDays,
      ...money('proratedItemCharge', current ? 0 : plannedChange.chargeMinor),
      ...money('proratedItemCredit', current ? plannedChange.creditMinor : 0),
      ...money('proratedItemSubtotal', prorated),
      ...money('proratedItemTax', 0),
      ...money('proratedItemTotal', prorated),
      addons: [],
      ...money('subscriptionSubtotal', total),
      ...money('subscriptionTax', 0),
      ...money('subscriptionTotal', total),
      ...(current ? money('subscriptionProratedCredit', plannedChange.creditMinor) : money('subscriptionProratedCharge', plannedChange.chargeMinor)),
      ...dates('subscriptionEndDate', null),
    };
  };
  return {
    subscription: plannedChange.sub.id,
    currency: char,
    timezone: 'UTC',
    ...dates('periodStartDate', plannedChange.sub.periodStart),
    ...dates('periodEndDate', plannedChange.sub.next),
    ...dates('endDate', null),
    remainingPeriods: -1,
    ...dates('nextChargeDate', plannedChange.newNext),
    isProratable: true,
    prorationStatus: 'Available',
    currentPlan: plan('current'),
    proposedPlan: plan('proposed'),
    amountDue: {
      ...money('prorationSubtotal', plannedChange.netMinor),
      ...money('prorationTax', 0),
      ...money('totalAmountDue', Math.max(0, plannedChange.netMinor)),
      ...dates('nextChargeDate', plannedChange.newNext),
      ...money('nextChargeAmount', plannedChange.newTotalMinor),
    },
    discountTotals: { ...money('productLevelDiscountTotal', 0), ...money('couponLevelDiscountTotal', 0) },
  };
}

/** The API subset behind HTTP Basic `apiUsername:apiPassword`. Registered in its own encapsulated context. */
export async function apiRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  const { engine, queue } = ctx;

  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
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
      orders.map((order, count) => {
        const next = orders[count + 1];
        return {
          id: order.id,
          beginEntryDate: isoDate(order.created),
          beginPeriodDate: isoDate(order.created),
          endPeriodDate: isoDate(next ? next.created : (sub.next ?? order.created)),
          order: engine.orderJson(order),
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
        subscriptions: changes.map((subscriptionChange, count) => ({
          subscription: subscriptionChange.subscription,
          action,
          result: 'success',
          ...(plans[count] ? { prorated: true, proration: prorationPreview(plans[count]!) } : {}),
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
      const value = body[key];
      if (value !== undefined && !(Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0)) {
        throw err(400, action, 'message', `${key} is not supported by this sandbox (product and quantity only).`, { subscription: id });
      }
    }
    if (body.product !== undefined && (typeof body.product !== 'string' || body.product === '')) throw err(400, action, 'message', 'product must be a product path.', { subscription: id });
    const query = body.quantity;
    if (query !== undefined && !(typeof query === 'number' && Number.isInteger(query) && query >= 1 && query <= 100)) throw err(400, action, 'message', 'quantity must be a whole number from 1 to 100.', { subscription: id });
    const sub = engine.subs.get(id);
    if (!sub) throw new FastspringApiError(404, { status: action, subscription: id, result: 'error', error: { subscription: `Subscription ID does not exist: ${id}` } });
    if (sub.state !== 'active') throw err(400, action, 'message', 'Proration is not allowed for this subscription.', { subscription: id });
    let planned: PlannedChange;
    try {
      planned = engine.plan(id, body.product as string | undefined, query as number | undefined, action);
    } catch (error) {
      if (error instanceof FastspringApiError) throw err(400, action, 'message', error.message, { subscription: id });
      throw error;
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
      const dayCount = Number(days);
      if (!(Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 30)) throw err(400, action, 'days', 'days must be a whole number from 1 to 30.');
      from ??= now - dayCount * DAY;
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

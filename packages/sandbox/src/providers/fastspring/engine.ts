import { randomBytes } from 'node:crypto';
import type { Card } from '../../kit/cards';
import { addInterval, DAY } from '../../kit/dates';
import { toMinor } from '../../kit/money';
import type { WebhookQueue } from './delivery';
import { dateDisplay, display, intervalLabel, isoDate, major, stamps } from './format';
import type {
  FastspringAccount,
  FastspringOrder,
  FastspringProductOption,
  FastspringSubscription,
  IntervalUnit,
  SubscriptionState,
} from './types';

/** An API error: the HTTP status and FastSpring's body for it (its shape varies by endpoint). */
export class FastspringApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message = 'FastSpring API error',
  ) {
    super(message);
  }
}

/** A checkout or form problem a person reads (shown on the checkout or account page). */
export class CheckoutProblem extends Error {}

export interface CatalogProduct {
  path: string;
  display: string;
  unitMinor: number;
  currency: string;
  intervalUnit: IntervalUnit;
  intervalLength: number;
}

export interface AccountRecord {
  id: string;
  email: string;
  first: string | null;
  last: string | null;
  created: number;
  global: string;
}

export interface SubscriptionRecord {
  id: string;
  accountId: string;
  product: string;
  quantity: number;
  /** Unit price in minor units, fixed when the product was bought or changed. */
  unitMinor: number;
  currency: string;
  intervalUnit: IntervalUnit;
  intervalLength: number;
  state: SubscriptionState;
  begin: number;
  /** Start of the period paid for. */
  periodStart: number;
  /** Next charge (or the scheduled deactivation of a canceled one); null once deactivated. */
  next: number | null;
  changed: number;
  canceledDate: number | null;
  deactivationDate: number | null;
  /** Successful charges so far (1 after the purchase). */
  sequence: number;
  tags: Record<string, unknown>;
  initialOrderId: string;
  initialOrderReference: string;
  card: Card;
}

export interface OrderItemRecord {
  product: string;
  display: string;
  quantity: number;
  subtotalMinor: number;
  subscription: string;
}

export interface OrderRecord {
  id: string;
  reference: string;
  accountId: string;
  created: number;
  currency: string;
  kind: 'checkout' | 'rebill' | 'proration';
  items: OrderItemRecord[];
  totalMinor: number;
  tags: Record<string, unknown>;
  /** The secret part of its invoice URL. */
  invoiceKey: string;
  card: Card;
  email: string;
  first: string | null;
  last: string | null;
}

export interface CheckoutLine {
  product: CatalogProduct;
  quantity: number;
}

export interface CheckoutSession {
  id: string;
  lines: CheckoutLine[];
  tags: Record<string, unknown>;
  email: string | null;
  parentOrigin: string | null;
  expiresAt: number;
  result: { orderId: string; reference: string } | null;
}

export interface AccountSession {
  token: string;
  accountId: string;
  expiresAt: number;
}

export interface EngineOptions {
  products: FastspringProductOption[];
  clock: () => number;
  /** How long account links work (clock ms). */
  sessionTtlMs: number;
  /** How long an opened checkout can be paid (clock ms). */
  checkoutTtlMs: number;
}

export interface SubscriptionChange {
  subscription: string;
  product?: string;
  quantity?: number;
  prorate: boolean;
  preview: boolean;
  /** `deactivation: null`: resume a canceled subscription. */
  uncancel: boolean;
}

/** What a plan change does (computed for updates with prorate, previews and estimates). */
export interface PlannedChange {
  sub: SubscriptionRecord;
  product: CatalogProduct;
  quantity: number;
  sameInterval: boolean;
  totalDays: number;
  remainingDays: number;
  utilizedDays: number;
  oldTotalMinor: number;
  newTotalMinor: number;
  creditMinor: number;
  chargeMinor: number;
  /** charge − credit: > 0 is charged now, < 0 refunded. */
  netMinor: number;
  newPeriodStart: number;
  newNext: number;
}

const MAX_QUANTITY = 100;
export const MAX_TAGS_JSON = 10_000;
/** Order references: `TKT` + YYMMDD + `-` + 4 digits + `-` + 4 digits + a check letter. */
const REFERENCE_PREFIX = 'TKT';

/** FastSpring-style id: 22 characters of base64url (`OapmwBYlS8CE36nlo7Vm9w`). */
export function fsId(): string {
  return randomBytes(16).toString('base64url');
}

function token(): string {
  return randomBytes(12).toString('base64url');
}

function subError(status: number, action: string, id: string, message: string, key = 'subscription'): FastspringApiError {
  return new FastspringApiError(status, { action, subscription: id, result: 'error', error: { [key]: message } }, message);
}

export function notFoundSubscription(id: string, action = 'subscription.get'): FastspringApiError {
  return subError(404, action, id, 'Subscription not found');
}

function splitName(name: string): { first: string | null; last: string | null } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: null, last: null };
  return { first: parts[0]!, last: parts.slice(1).join(' ') || null };
}

export class FastspringEngine {
  readonly catalog = new Map<string, CatalogProduct>();
  accounts = new Map<string, AccountRecord>();
  subs = new Map<string, SubscriptionRecord>();
  orders = new Map<string, OrderRecord>();
  checkouts = new Map<string, CheckoutSession>();
  sessions = new Map<string, AccountSession>();
  /** The last `changed` handed out (every change gets a larger one, even when the clock stands still). */
  lastChanged = 0;
  /** The last order reference number. */
  orderSeq = 0;
  /** The stand-in's public base (absolute links in API answers and webhooks). */
  base = 'http://localhost';
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
  ) {
    for (const p of options.products) {
      if (this.catalog.has(p.path)) throw new RangeError(`fastspringSandbox: products has the path "${p.path}" twice`);
      this.catalog.set(p.path, {
        path: p.path,
        display: p.display,
        unitMinor: toMinor(p.price, p.currency),
        currency: p.currency,
        intervalUnit: p.intervalUnit,
        intervalLength: p.intervalLength,
      });
    }
  }

  now(): number {
    return this.options.clock();
  }

  changed(): void {
    this.onChange?.();
  }

  reset(): void {
    this.accounts.clear();
    this.subs.clear();
    this.orders.clear();
    this.checkouts.clear();
    this.sessions.clear();
    this.lastChanged = 0;
    this.orderSeq = 0;
    this.changed();
  }

  #stamp(): number {
    this.lastChanged = Math.max(this.now(), this.lastChanged + 1);
    return this.lastChanged;
  }

  #touch(sub: SubscriptionRecord): void {
    sub.changed = this.#stamp();
  }

  #reference(at: number): string {
    this.orderSeq++;
    const d = new Date(at);
    const date = `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
    const rand = String(randomBytes(2).readUInt16BE(0) % 10000).padStart(4, '0');
    const seq = String(this.orderSeq % 10000).padStart(4, '0');
    const check = 'ABCDEFGHJKLMNPQRSTUVWXYZ'[(this.orderSeq + Number(rand)) % 24];
    return `${REFERENCE_PREFIX}${date}-${rand}-${seq}${check}`;
  }

  // ----- JSON -----

  subscriptionJson(sub: SubscriptionRecord): FastspringSubscription {
    const product = this.catalog.get(sub.product);
    const totalMinor = sub.unitMinor * sub.quantity;
    const c = sub.currency;
    const charging = sub.state === 'active' || sub.state === 'overdue' ? sub.next : null;
    return {
      id: sub.id,
      subscription: sub.id,
      active: sub.state !== 'deactivated',
      state: sub.state,
      ...(stamps('changed', sub.changed) as { changed: number; changedValue: number; changedInSeconds: number; changedDisplay: string }),
      live: false,
      currency: c,
      account: sub.accountId,
      product: sub.product,
      sku: null,
      display: product?.display ?? sub.product,
      quantity: sub.quantity,
      adhoc: false,
      autoRenew: true,
      price: major(sub.unitMinor, c),
      priceDisplay: display(sub.unitMinor, c),
      priceInPayoutCurrency: major(sub.unitMinor, c),
      priceInPayoutCurrencyDisplay: display(sub.unitMinor, c),
      discount: 0,
      discountDisplay: display(0, c),
      discountInPayoutCurrency: 0,
      discountInPayoutCurrencyDisplay: display(0, c),
      subtotal: major(totalMinor, c),
      subtotalDisplay: display(totalMinor, c),
      subtotalInPayoutCurrency: major(totalMinor, c),
      subtotalInPayoutCurrencyDisplay: display(totalMinor, c),
      ...(stamps('next', sub.next) as { next: number | null; nextValue: number | null; nextInSeconds: number | null; nextDisplay: string | null }),
      end: null,
      endValue: null,
      endInSeconds: null,
      endDisplay: null,
      ...(stamps('canceledDate', sub.canceledDate) as {
        canceledDate: number | null;
        canceledDateValue: number | null;
        canceledDateInSeconds: number | null;
        canceledDateDisplay: string | null;
      }),
      ...(stamps('deactivationDate', sub.deactivationDate) as {
        deactivationDate: number | null;
        deactivationDateValue: number | null;
        deactivationDateInSeconds: number | null;
        deactivationDateDisplay: string | null;
      }),
      sequence: sub.sequence,
      periods: null,
      remainingPeriods: null,
      ...(stamps('begin', sub.begin) as { begin: number; beginValue: number; beginInSeconds: number; beginDisplay: string }),
      intervalUnit: sub.intervalUnit,
      intervalLength: sub.intervalLength,
      nextChargeCurrency: c,
      ...(stamps('nextChargeDate', charging) as {
        nextChargeDate: number | null;
        nextChargeDateValue: number | null;
        nextChargeDateInSeconds: number | null;
        nextChargeDateDisplay: string | null;
      }),
      nextChargePreTax: major(totalMinor, c),
      nextChargePreTaxDisplay: display(totalMinor, c),
      nextChargeTotal: major(totalMinor, c),
      nextChargeTotalDisplay: display(totalMinor, c),
      tags: structuredClone(sub.tags),
      initialOrderId: sub.initialOrderId,
      initialOrderReference: sub.initialOrderReference,
    };
  }

  invoicePath(order: OrderRecord): string {
    return `/account/order/${encodeURIComponent(order.reference)}/invoice/${order.invoiceKey}`;
  }

  orderJson(o: OrderRecord): FastspringOrder {
    const c = o.currency;
    const money = (key: string, minor: number) => ({
      [key]: major(minor, c),
      [`${key}Display`]: display(minor, c),
      [`${key}InPayoutCurrency`]: major(minor, c),
      [`${key}InPayoutCurrencyDisplay`]: display(minor, c),
    });
    return {
      order: o.id,
      id: o.id,
      reference: o.reference,
      buyerReference: null,
      ipAddress: '127.0.0.1',
      completed: true,
      ...(stamps('changed', o.created) as { changed: number; changedValue: number; changedInSeconds: number; changedDisplay: string }),
      changedDisplayISO8601: isoDate(o.created),
      language: 'en',
      live: false,
      currency: c,
      payoutCurrency: c,
      quote: null,
      invoiceUrl: `${this.base}${this.invoicePath(o)}`,
      account: o.accountId,
      ...(money('total', o.totalMinor) as { total: number; totalDisplay: string; totalInPayoutCurrency: number; totalInPayoutCurrencyDisplay: string }),
      ...(money('tax', 0) as { tax: number; taxDisplay: string; taxInPayoutCurrency: number; taxInPayoutCurrencyDisplay: string }),
      ...(money('subtotal', o.totalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
      ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
      payment: { type: 'test', creditcard: o.card.type, cardEnding: o.card.last4 },
      customer: { first: o.first, last: o.last, email: o.email, company: null, phone: null, subscribed: true },
      address: { country: 'US', display: 'US' },
      recipients: [],
      notes: [],
      rebill: o.kind !== 'checkout',
      tags: structuredClone(o.tags),
      items: o.items.map((i) => ({
        product: i.product,
        quantity: i.quantity,
        display: i.display,
        sku: null,
        imageUrl: null,
        ...(money('subtotal', i.subtotalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
        ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
        subscription: i.subscription,
      })),
    };
  }

  accountJson(a: AccountRecord): FastspringAccount {
    return {
      id: a.id,
      account: a.id,
      action: 'account.get',
      result: 'success',
      contact: { first: a.first, last: a.last, email: a.email, company: null, phone: null, subscribed: true },
      language: 'en',
      country: 'US',
      lookup: { global: a.global },
      url: `${this.base}/account`,
    };
  }

  // ----- reads -----

  subscription(id: string, action = 'subscription.get'): SubscriptionRecord {
    const sub = this.subs.get(id);
    if (!sub) throw notFoundSubscription(id, action);
    return sub;
  }

  subscriptions(): FastspringSubscription[] {
    return [...this.subs.values()].map((s) => this.subscriptionJson(s));
  }

  order(id: string): OrderRecord | undefined {
    return this.orders.get(id);
  }

  orderByReference(reference: string): OrderRecord | undefined {
    for (const o of this.orders.values()) if (o.reference === reference) return o;
    return undefined;
  }

  ordersOf(filter: { accountId?: string; subscriptionId?: string }): OrderRecord[] {
    return [...this.orders.values()]
      .filter((o) => (!filter.accountId || o.accountId === filter.accountId) && (!filter.subscriptionId || o.items.some((i) => i.subscription === filter.subscriptionId)))
      .sort((a, b) => a.created - b.created);
  }

  // ----- checkout -----

  lines(input: unknown): CheckoutLine[] {
    if (!Array.isArray(input) || input.length === 0) throw new CheckoutProblem('The cart is empty: add a product with fastspring.builder.push({ products: [{ path, quantity }] }).');
    if (input.length > 20) throw new CheckoutProblem('The cart has too many products (20 at most).');
    const lines: CheckoutLine[] = [];
    for (const item of input) {
      const i = item as { path?: unknown; quantity?: unknown } | null;
      const path = i && typeof i === 'object' ? i.path : undefined;
      if (typeof path !== 'string' || path === '') throw new CheckoutProblem('Every cart item needs a product path.');
      const product = this.catalog.get(path);
      if (!product) throw new CheckoutProblem(`This store has no product "${path}".`);
      const quantity = i!.quantity === undefined || i!.quantity === null ? 1 : i!.quantity;
      if (!(typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY)) {
        throw new CheckoutProblem(`The quantity of "${path}" must be a whole number from 1 to ${MAX_QUANTITY}.`);
      }
      const same = lines.find((l) => l.product.path === path);
      if (same) same.quantity = Math.min(MAX_QUANTITY, same.quantity + quantity);
      else lines.push({ product, quantity });
    }
    if (new Set(lines.map((l) => l.product.currency)).size > 1) throw new CheckoutProblem('The cart mixes currencies: one order is paid in one currency.');
    return lines;
  }

  #evictCheckouts(now: number): void {
    for (const [id, s] of this.checkouts) if (s.expiresAt <= now) this.checkouts.delete(id);
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
  }

  openCheckout(input: { lines: CheckoutLine[]; tags: Record<string, unknown>; email: string | null; parentOrigin: string | null }): CheckoutSession {
    const now = this.now();
    this.#evictCheckouts(now);
    const session: CheckoutSession = { id: fsId(), ...input, expiresAt: now + this.options.checkoutTtlMs, result: null };
    this.checkouts.set(session.id, session);
    this.changed();
    return session;
  }

  checkoutSession(id: string): CheckoutSession | null {
    const s = this.checkouts.get(id);
    return s && s.expiresAt > this.now() ? s : null;
  }

  #accountFor(email: string, name: string): AccountRecord {
    const lower = email.toLowerCase();
    for (const a of this.accounts.values()) if (a.email.toLowerCase() === lower) return a;
    const { first, last } = splitName(name);
    const account: AccountRecord = { id: fsId(), email, first, last, created: this.now(), global: fsId() };
    this.accounts.set(account.id, account);
    return account;
  }

  /** Pays a checkout: an account (found by email or new), an order, a subscription per product; order.completed + subscription.activated in one POST. */
  purchase(session: CheckoutSession, input: { email: string; name: string; card: Card }): { orderId: string; reference: string } {
    if (session.result) return session.result;
    const now = this.now();
    const account = this.#accountFor(input.email, input.name);
    const orderId = fsId();
    const reference = this.#reference(now);
    const currency = session.lines[0]!.product.currency;
    const subs: SubscriptionRecord[] = session.lines.map((l) => ({
      id: fsId(),
      accountId: account.id,
      product: l.product.path,
      quantity: l.quantity,
      unitMinor: l.product.unitMinor,
      currency,
      intervalUnit: l.product.intervalUnit,
      intervalLength: l.product.intervalLength,
      state: 'active',
      begin: now,
      periodStart: now,
      next: addInterval(now, l.product.intervalUnit, l.product.intervalLength),
      changed: this.#stamp(),
      canceledDate: null,
      deactivationDate: null,
      sequence: 1,
      tags: structuredClone(session.tags),
      initialOrderId: orderId,
      initialOrderReference: reference,
      card: input.card,
    }));
    const { first, last } = account.first || account.last ? account : splitName(input.name);
    const order: OrderRecord = {
      id: orderId,
      reference,
      accountId: account.id,
      created: now,
      currency,
      kind: 'checkout',
      items: session.lines.map((l, n) => ({
        product: l.product.path,
        display: l.product.display,
        quantity: l.quantity,
        subtotalMinor: l.product.unitMinor * l.quantity,
        subscription: subs[n]!.id,
      })),
      totalMinor: session.lines.reduce((t, l) => t + l.product.unitMinor * l.quantity, 0),
      tags: structuredClone(session.tags),
      invoiceKey: token(),
      card: input.card,
      email: account.email,
      first,
      last,
    };
    this.orders.set(order.id, order);
    for (const s of subs) this.subs.set(s.id, s);
    session.result = { orderId, reference };
    this.queue.enqueue([{ type: 'order.completed', data: this.orderJson(order) }, ...subs.map((s) => ({ type: 'subscription.activated', data: this.subscriptionJson(s) }))]);
    this.changed();
    return session.result;
  }

  // ----- lifecycle -----

  /** DELETE /subscriptions/{id}: at the next billing date (canceled, still active), or now (`billingPeriod=0`: deactivated). */
  checkCancel(id: string, immediately: boolean): SubscriptionRecord {
    const sub = this.subscription(id, 'subscription.cancel');
    if (sub.state === 'deactivated') throw subError(400, 'subscription.cancel', id, 'The subscription is already deactivated.');
    if (!immediately && sub.state === 'canceled') throw subError(500, 'subscription.cancel', id, 'The subscription is already canceled.');
    return sub;
  }

  cancel(id: string, immediately: boolean): void {
    const sub = this.checkCancel(id, immediately);
    const now = this.now();
    if (immediately) {
      sub.canceledDate ??= now;
      this.#deactivate(sub, now);
      this.changed();
      return;
    }
    sub.state = 'canceled';
    sub.canceledDate = now;
    sub.deactivationDate = sub.next;
    this.#touch(sub);
    this.queue.enqueue([{ type: 'subscription.canceled', data: this.subscriptionJson(sub) }]);
    this.changed();
  }

  #deactivate(sub: SubscriptionRecord, at: number): void {
    sub.state = 'deactivated';
    sub.deactivationDate = at;
    sub.next = null;
    this.#touch(sub);
    this.queue.enqueue([{ type: 'subscription.deactivated', data: this.subscriptionJson(sub) }]);
  }

  /** `deactivation: null`: a canceled subscription goes on (subscription.uncanceled); an active one is left as it is. */
  uncancel(id: string): void {
    const sub = this.subscription(id, 'subscription.update');
    if (sub.state === 'deactivated') throw subError(400, 'subscription.update', id, 'Subscription is not active.', 'uncancel');
    if (sub.state !== 'canceled') return;
    sub.state = 'active';
    sub.canceledDate = null;
    sub.deactivationDate = null;
    this.#touch(sub);
    this.queue.enqueue([{ type: 'subscription.uncanceled', data: this.subscriptionJson(sub) }]);
    this.changed();
  }

  /** The plan change of `product`/`quantity` on a subscription, priced as FastSpring prorates (by days). */
  plan(id: string, productPath: string | undefined, quantity: number | undefined, action: string): PlannedChange {
    const sub = this.subscription(id, action);
    const product = productPath === undefined ? this.catalog.get(sub.product) : this.catalog.get(productPath);
    if (!product) throw subError(400, action, id, `Product not found: ${productPath ?? sub.product}`, 'product');
    if (product.currency !== sub.currency) throw subError(400, action, id, `The product ${product.path} is not sold in ${sub.currency}.`, 'product');
    const q = quantity ?? sub.quantity;
    const now = this.now();
    const next = sub.next ?? now;
    const totalDays = Math.max(1, Math.round((next - sub.periodStart) / DAY));
    const remainingDays = Math.min(totalDays, Math.max(0, Math.ceil((next - now) / DAY)));
    const oldTotalMinor = sub.unitMinor * sub.quantity;
    const newTotalMinor = (product.path === sub.product ? sub.unitMinor : product.unitMinor) * q;
    const creditMinor = Math.round((oldTotalMinor * remainingDays) / totalDays);
    const sameInterval = product.intervalUnit === sub.intervalUnit && product.intervalLength === sub.intervalLength;
    const chargeMinor = sameInterval ? Math.round((newTotalMinor * remainingDays) / totalDays) : newTotalMinor;
    return {
      sub,
      product,
      quantity: q,
      sameInterval,
      totalDays,
      remainingDays,
      utilizedDays: totalDays - remainingDays,
      oldTotalMinor,
      newTotalMinor,
      creditMinor,
      chargeMinor,
      netMinor: chargeMinor - creditMinor,
      newPeriodStart: sameInterval ? sub.periodStart : now,
      newNext: sameInterval ? next : addInterval(now, product.intervalUnit, product.intervalLength),
    };
  }

  /** Checks one change of POST /subscriptions (throws its error) and returns what applying it needs. */
  check(change: SubscriptionChange): PlannedChange | null {
    const action = 'subscription.update';
    const sub = this.subscription(change.subscription, action);
    if (change.uncancel) {
      if (sub.state === 'deactivated') throw subError(400, action, sub.id, 'Subscription is not active.', 'uncancel');
      if (change.product === undefined && change.quantity === undefined) return null;
    }
    if (change.product === undefined && change.quantity === undefined) {
      if (change.preview) throw subError(400, action, sub.id, 'Nothing to preview: give a product or a quantity.', 'product');
      return null;
    }
    if (sub.state === 'deactivated') throw subError(400, action, sub.id, 'Subscription is not active.');
    const planned = this.plan(sub.id, change.product, change.quantity, action);
    if ((change.prorate || change.preview) && sub.state !== 'active') throw subError(400, action, sub.id, 'Proration is not allowed for this subscription.', 'message');
    return planned;
  }

  /** Applies a checked change: the new plan now; with prorate, a proration charge (its order) when it costs more. */
  apply(change: SubscriptionChange, planned: PlannedChange | null): void {
    if (change.uncancel) this.uncancel(change.subscription);
    if (!planned) return;
    const { sub, product } = planned;
    const batch: Array<{ type: string; data: unknown }> = [];
    const now = this.now();
    let charge: OrderRecord | null = null;
    if (change.prorate) {
      if (planned.netMinor > 0) {
        charge = this.#order(sub, 'proration', [{ product: product.path, display: product.display, quantity: planned.quantity, subtotalMinor: planned.netMinor, subscription: sub.id }]);
        sub.sequence++;
      }
      sub.periodStart = planned.newPeriodStart;
      sub.next = planned.newNext;
      if (sub.state === 'canceled') sub.deactivationDate = sub.next;
    }
    // Without prorate the new plan applies from now on and is first charged at the next charge date.
    sub.product = product.path;
    sub.unitMinor = planned.newTotalMinor / planned.quantity;
    sub.quantity = planned.quantity;
    sub.intervalUnit = product.intervalUnit;
    sub.intervalLength = product.intervalLength;
    this.#touch(sub);
    if (charge) batch.push({ type: 'subscription.charge.completed', data: this.#chargeData(sub, charge, now) });
    batch.push({ type: 'subscription.updated', data: this.subscriptionJson(sub) });
    this.queue.enqueue(batch);
    this.changed();
  }

  #order(sub: SubscriptionRecord, kind: OrderRecord['kind'], items: OrderItemRecord[]): OrderRecord {
    const account = this.accounts.get(sub.accountId)!;
    const now = this.now();
    const order: OrderRecord = {
      id: fsId(),
      reference: this.#reference(now),
      accountId: sub.accountId,
      created: now,
      currency: sub.currency,
      kind,
      items,
      totalMinor: items.reduce((t, i) => t + i.subtotalMinor, 0),
      tags: {},
      invoiceKey: token(),
      card: sub.card,
      email: account.email,
      first: account.first,
      last: account.last,
    };
    this.orders.set(order.id, order);
    return order;
  }

  #chargeData(sub: SubscriptionRecord, order: OrderRecord, at: number) {
    return {
      subscription: this.subscriptionJson(sub),
      status: 'successful',
      ...stamps('timestamp', at),
      currency: sub.currency,
      total: major(order.totalMinor, sub.currency),
      totalDisplay: display(order.totalMinor, sub.currency),
      totalInPayoutCurrency: major(order.totalMinor, sub.currency),
      totalInPayoutCurrencyDisplay: display(order.totalMinor, sub.currency),
      sequence: sub.sequence,
      order: this.orderJson(order),
    };
  }

  #renew(sub: SubscriptionRecord): void {
    const at = sub.next!;
    const product = this.catalog.get(sub.product);
    const order = this.#order(sub, 'rebill', [
      { product: sub.product, display: product?.display ?? sub.product, quantity: sub.quantity, subtotalMinor: sub.unitMinor * sub.quantity, subscription: sub.id },
    ]);
    order.created = Math.max(order.created, at);
    sub.sequence++;
    sub.periodStart = at;
    sub.next = addInterval(at, sub.intervalUnit, sub.intervalLength);
    this.#touch(sub);
    this.queue.enqueue([
      { type: 'subscription.charge.completed', data: this.#chargeData(sub, order, at) },
      { type: 'subscription.updated', data: this.subscriptionJson(sub) },
    ]);
  }

  /** Applies what is due by the clock: renewals at `next`, deactivations of canceled subscriptions. */
  tick(): void {
    const now = this.now();
    let changed = false;
    const due = [...this.subs.values()].filter((s) => s.next !== null && s.next <= now).sort((a, b) => a.next! - b.next!);
    for (const sub of due) {
      // A long jump of the clock renews once per period missed.
      for (let n = 0; n < 1000 && sub.next !== null && sub.next <= now; n++) {
        if (sub.state === 'canceled') this.#deactivate(sub, sub.next);
        else if (sub.state === 'active') this.#renew(sub);
        else break;
        changed = true;
      }
    }
    if (changed) this.changed();
  }

  /** As if the rebill had failed: subscription.charge.failed + subscription.payment.overdue, state overdue. */
  markOverdue(id: string): FastspringSubscription {
    const sub = this.subscription(id);
    if (sub.state !== 'active') throw new Error(`markOverdue: subscription ${id} is ${sub.state}, not active`);
    const now = this.now();
    sub.state = 'overdue';
    this.#touch(sub);
    const totalMinor = sub.unitMinor * sub.quantity;
    this.queue.enqueue([
      {
        type: 'subscription.charge.failed',
        data: {
          subscription: this.subscriptionJson(sub),
          status: 'failed',
          reason: 'The card was declined.',
          ...stamps('timestamp', now),
          currency: sub.currency,
          total: major(totalMinor, sub.currency),
          totalDisplay: display(totalMinor, sub.currency),
          sequence: sub.sequence,
        },
      },
      { type: 'subscription.payment.overdue', data: this.subscriptionJson(sub) },
    ]);
    this.changed();
    return this.subscriptionJson(sub);
  }

  /** The overdue payment succeeds on a retry: an order, subscription.charge.completed + subscription.updated, state active. */
  recover(id: string): FastspringSubscription {
    const sub = this.subscription(id);
    if (sub.state !== 'overdue') throw new Error(`recover: subscription ${id} is ${sub.state}, not overdue`);
    const now = this.now();
    const product = this.catalog.get(sub.product);
    const order = this.#order(sub, 'rebill', [
      { product: sub.product, display: product?.display ?? sub.product, quantity: sub.quantity, subtotalMinor: sub.unitMinor * sub.quantity, subscription: sub.id },
    ]);
    sub.sequence++;
    sub.state = 'active';
    if (sub.next !== null && sub.next <= now) {
      sub.periodStart = sub.next;
      sub.next = addInterval(sub.next, sub.intervalUnit, sub.intervalLength);
    }
    this.#touch(sub);
    this.queue.enqueue([
      { type: 'subscription.charge.completed', data: this.#chargeData(sub, order, now) },
      { type: 'subscription.updated', data: this.subscriptionJson(sub) },
    ]);
    this.changed();
    return this.subscriptionJson(sub);
  }

  // ----- account links -----

  authenticate(accountId: string): AccountSession {
    if (!this.accounts.has(accountId)) {
      throw new FastspringApiError(400, { accounts: [{ action: 'account.authenticate.get', account: accountId, result: 'error', error: { account: 'Not found' } }] }, 'account not found');
    }
    const now = this.now();
    this.#evictCheckouts(now);
    const session: AccountSession = { token: token(), accountId, expiresAt: now + this.options.sessionTtlMs };
    this.sessions.set(session.token, session);
    this.changed();
    return session;
  }

  accountSession(accountId: string, tokenValue: string): AccountSession | null {
    const s = this.sessions.get(tokenValue);
    return s && s.accountId === accountId && s.expiresAt > this.now() ? s : null;
  }

  describeInterval(sub: SubscriptionRecord): string {
    return intervalLabel(sub.intervalUnit, sub.intervalLength);
  }

  dateText(ms: number): string {
    return dateDisplay(ms);
  }
}

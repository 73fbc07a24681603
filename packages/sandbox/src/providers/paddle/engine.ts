import { randomUUID } from 'node:crypto';
import { addInterval } from '../../kit/dates';
import { toMinor } from '../../kit/money';
import type { WebhookQueue } from './delivery';
import { derivedId, type IdSequence, idParts, isoMicros, isoMs, microsOf } from './ids';
import { type PaddleSnapshot, type PaddleSnapshotSubscription, readSnapshot } from './snapshot';
import type {
  Interval,
  PaddleCard,
  PaddleCustomer,
  PaddleLineItem,
  PaddlePayment,
  PaddlePortalSession,
  PaddlePreviewDetails,
  PaddlePreviewTransaction,
  PaddlePrice,
  PaddleProduct,
  PaddleSubscription,
  PaddleTotals,
  PaddleTransaction,
  PaddleTransactionItem,
  PaddleUpdateSummary,
  TransactionOrigin,
} from './types';

/** A price the stand-in sells (PaddleSandboxOptions.prices). */
export interface PaddlePriceOption {
  id: string;
  productName: string;
  /** Major units, e.g. 4.99. */
  amount: number;
  /** ISO 4217, e.g. `USD`. */
  currency: string;
  interval: Interval;
}

export interface CatalogPrice {
  id: string;
  productName: string;
  unitMinor: number;
  currency: string;
  interval: Interval;
  price: PaddlePrice;
  product: PaddleProduct;
}

/** An API error in Paddle's shape (`{ error: { type: 'request_error', code, detail, documentation_url, errors? } }`). */
export class PaddleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: Array<{ field: string; message: string }>,
    readonly docGroup: string = 'shared',
  ) {
    super(detail);
  }
}

export function invalidField(field: string, message: string): PaddleApiError {
  return new PaddleApiError(400, 'invalid_field', 'Request does not pass validation.', [{ field, message }]);
}

function notFound(kind: string, id: string): PaddleApiError {
  return new PaddleApiError(404, 'not_found', `${kind} ${id} not found.`);
}

function alreadyPaid(): PaddleApiError {
  return new PaddleApiError(400, 'transaction_immutable', 'This transaction is already paid.', undefined, 'transactions');
}

function canceledError(): PaddleApiError {
  return new PaddleApiError(400, 'subscription_update_when_canceled', 'cannot update subscription, as subscription is canceled', undefined, 'subscriptions');
}

interface CustomerRecord {
  customer: PaddleCustomer;
  addressId: string;
  /** custom_data.userId of the checkout that made it (customers are reused by it or by email). */
  userId: string | null;
  /** Credit from downgrades (minor units per currency), used up by the next renewals. */
  credit: Map<string, number>;
}

/** A subscription as kept (the snapshot's shape). */
type SubscriptionRecord = PaddleSnapshotSubscription;

export interface LineInput {
  price: CatalogPrice;
  quantity: number;
}

/** A checkout page being filled in: what it sells, or which transaction it pays (card update). */
export interface CheckoutSession {
  id: string;
  kind: 'purchase' | 'update';
  lines: LineInput[];
  customData: Record<string, unknown> | null;
  email: string | null;
  successUrl: string | null;
  parentOrigin: string | null;
  transactionId: string | null;
  /** Card updates: the amount the transaction collects (0 unless it is past due); 0 for purchases. */
  dueMinor: number;
  expiresAt: number;
  result: CheckoutResult | null;
}

export interface CheckoutResult {
  transactionId: string;
  subscriptionId: string;
  customerId: string;
  email: string;
  customData: Record<string, unknown> | null;
  card: PaddleCard;
}

interface PortalRecord {
  session: PaddlePortalSession;
  expiresAt: number;
  /** Made for a subscription's management_urls (reused while fresh), not by the API. */
  management: boolean;
}

export type ProrationMode = 'prorated_immediately' | 'do_not_bill';

export interface ItemChange {
  items: Array<{ price_id: string; quantity: number }>;
  mode: ProrationMode;
}

export interface SubscriptionPatch {
  removeScheduledChange: boolean;
  change: ItemChange | null;
  customData?: Record<string, unknown> | null;
}

interface PlannedChange {
  next: SubscriptionRecord;
  summary: PaddleUpdateSummary;
  credit: number;
  charge: number;
  /** The part of the current period still to come (0..1). */
  rate: number;
  lines: LineInput[];
}

export interface EngineOptions {
  prices: PaddlePriceOption[];
  clock: () => number;
  portalTtlMs: number;
  checkoutTtlMs: number;
}

const MAX_SESSIONS = 1000;
/** Renewals applied at most per subscription by one tick (a clock moved years ahead). */
const MAX_RENEWALS = 1000;

/** Whether two JSON objects are equal apart from their created_at and updated_at. */
function sameApartFromTimes(a: object, b: object): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.keys(value)
        .filter((k) => k !== 'created_at' && k !== 'updated_at')
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]);
    }
    return value;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function sum(lines: Array<{ unit: number; quantity: number }>): number {
  return lines.reduce((total, l) => total + l.unit * l.quantity, 0);
}

/** A transaction line: its price, quantity, total (minor units) and proration. */
interface Line {
  price: CatalogPrice;
  quantity: number;
  total: number;
  proration: PaddleTransactionItem['proration'];
}

/**
 * Totals of a transaction (no tax, no discount): `credit` is applied up to the subtotal; with
 * `toBalance`, the credit beyond it is `credit_to_balance` (what a preview of a downgrade shows).
 */
function totalsOf(subtotal: number, credit: number, currency: string, toBalance: boolean): PaddleTotals {
  const applied = Math.min(credit, subtotal);
  const grand = subtotal - applied;
  return {
    subtotal: String(subtotal),
    tax: '0',
    discount: '0',
    total: String(subtotal),
    credit: String(applied),
    credit_to_balance: String(toBalance ? credit - applied : 0),
    balance: String(grand),
    grand_total: String(grand),
    fee: null,
    earnings: null,
    currency_code: currency,
  };
}

function lineItemOf(l: Line): Omit<PaddleLineItem, 'id'> {
  const unit = l.quantity > 0 ? Math.round(l.total / l.quantity) : 0;
  return {
    price_id: l.price.id,
    quantity: l.quantity,
    proration: l.proration,
    tax_rate: '0',
    unit_totals: { subtotal: String(unit), discount: '0', tax: '0', total: String(unit) },
    totals: { subtotal: String(l.total), discount: '0', tax: '0', total: String(l.total) },
    product: structuredClone(l.price.product),
  };
}

function previewDetails(lines: Line[], credit: number, currency: string): PaddlePreviewDetails {
  return {
    tax_rates_used: [],
    totals: totalsOf(
      lines.reduce((t, l) => t + l.total, 0),
      credit,
      currency,
      true,
    ),
    line_items: lines.map(lineItemOf),
  };
}

/** Filters of GET /transactions (each list: any of its values; `subscriptionIds: null`: none). */
export interface TransactionQuery {
  ids?: string[];
  subscriptionIds?: string[] | null;
  customerIds?: string[];
  statuses?: string[];
  origins?: string[];
  invoiceNumbers?: string[];
  collectionModes?: string[];
  dates?: Array<{ field: 'billed_at' | 'created_at' | 'updated_at'; op: 'eq' | 'lt' | 'lte' | 'gt' | 'gte'; micros: number }>;
}

/** What a preview adds to the subscription (Paddle's preview answer). */
export interface PreviewExtras {
  update_summary: PaddleUpdateSummary | null;
  immediate_transaction: PaddlePreviewTransaction | null;
  next_transaction: PaddlePreviewTransaction | null;
  recurring_transaction_details: PaddlePreviewDetails | null;
}

function evict<T extends { expiresAt: number }>(map: Map<string, T>, now: number): void {
  for (const [id, v] of map) if (v.expiresAt <= now) map.delete(id);
  while (map.size >= MAX_SESSIONS) map.delete(map.keys().next().value as string);
}

function resolvePrices(prices: PaddlePriceOption[], at: string): Map<string, CatalogPrice> {
  if (!Array.isArray(prices) || prices.length === 0) throw new RangeError('paddleSandbox: prices must list at least one price');
  const catalog = new Map<string, CatalogPrice>();
  for (const p of prices) {
    if (typeof p?.id !== 'string' || !/^[\w-]{1,100}$/.test(p.id)) throw new RangeError(`paddleSandbox: a price id must be 1-100 letters, digits, _ or -, not ${JSON.stringify(p?.id)}`);
    if (catalog.has(p.id)) throw new RangeError(`paddleSandbox: price ${p.id} is listed twice`);
    if (typeof p.productName !== 'string' || p.productName.trim() === '') throw new RangeError(`paddleSandbox: price ${p.id} needs a productName`);
    if (!(typeof p.amount === 'number' && Number.isFinite(p.amount) && p.amount >= 0)) throw new RangeError(`paddleSandbox: price ${p.id}: amount must be a number >= 0`);
    if (typeof p.currency !== 'string' || !/^[A-Z]{3}$/.test(p.currency)) throw new RangeError(`paddleSandbox: price ${p.id}: currency must be an ISO 4217 code such as USD`);
    if (p.interval !== 'month' && p.interval !== 'year') throw new RangeError(`paddleSandbox: price ${p.id}: interval must be 'month' or 'year'`);
    const product: PaddleProduct = {
      id: derivedId('pro', p.productName),
      name: p.productName,
      description: null,
      type: 'standard',
      tax_category: 'standard',
      image_url: null,
      custom_data: null,
      status: 'active',
      import_meta: null,
      created_at: at,
      updated_at: at,
    };
    const unitMinor = toMinor(p.amount, p.currency);
    const cycle = p.interval === 'month' ? 'Monthly' : 'Yearly';
    const price: PaddlePrice = {
      id: p.id,
      product_id: product.id,
      type: 'standard',
      description: `${p.productName} (${cycle.toLowerCase()})`,
      name: cycle,
      billing_cycle: { interval: p.interval, frequency: 1 },
      trial_period: null,
      tax_mode: 'account_setting',
      unit_price: { amount: String(unitMinor), currency_code: p.currency },
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 100 },
      status: 'active',
      custom_data: null,
      import_meta: null,
      created_at: at,
      updated_at: at,
    };
    catalog.set(p.id, { id: p.id, productName: p.productName, unitMinor, currency: p.currency, interval: p.interval, price, product });
  }
  return catalog;
}

/**
 * The stand-in's state (customers, subscriptions, transactions, checkout and portal sessions) and every
 * change Paddle would make to it, each sending its notification through the queue.
 */
export class PaddleEngine {
  readonly catalog: Map<string, CatalogPrice>;
  readonly clock: () => number;
  #customers = new Map<string, CustomerRecord>();
  #subscriptions = new Map<string, SubscriptionRecord>();
  #transactions = new Map<string, PaddleTransaction>();
  #checkouts = new Map<string, CheckoutSession>();
  #portals = new Map<string, PortalRecord>();
  #lastMicros = 0;
  #invoiceNumber = 0;
  /** Called after every change of the state (the plugin's onChange, debounced there). */
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
    /** Every id the registration makes (shared with its webhook queue). */
    readonly ids: IdSequence,
  ) {
    this.clock = options.clock;
    this.catalog = resolvePrices(options.prices, isoMs(options.clock()));
  }

  now(): number {
    return this.clock();
  }

  /**
   * A time for `updated_at`/`occurred_at`: the clock with microseconds, strictly increasing across the
   * whole stand-in (two changes in the same millisecond are 1 µs apart), so every subscription's
   * `updated_at` grows with each change even under a frozen test clock.
   */
  stamp(): string {
    this.#lastMicros = Math.max(Math.floor(this.now()) * 1000, this.#lastMicros + 1);
    return isoMicros(this.#lastMicros);
  }

  reset(): void {
    this.#customers.clear();
    this.#subscriptions.clear();
    this.#transactions.clear();
    this.#checkouts.clear();
    this.#portals.clear();
    this.#lastMicros = 0;
    this.#invoiceNumber = 0;
    this.#changed();
  }

  // ----- snapshots -----

  /** A JSON copy of the state (see PaddleSnapshot); expired checkout pages and portal links are left out. */
  snapshot(): PaddleSnapshot {
    const now = this.now();
    const ids = this.ids.state();
    return {
      version: 1,
      takenAt: now,
      sequence: { idTime: ids.time, idRandom: ids.random, lastMicros: this.#lastMicros, invoiceNumber: this.#invoiceNumber },
      catalog: [...this.catalog.values()].map((c) => ({ price: structuredClone(c.price), product: structuredClone(c.product) })),
      customers: [...this.#customers.values()].map((c) => ({
        customer: structuredClone(c.customer),
        addressId: c.addressId,
        userId: c.userId,
        credit: Object.fromEntries(c.credit),
      })),
      subscriptions: [...this.#subscriptions.values()].map((sub) => structuredClone(sub)),
      transactions: [...this.#transactions.values()].map((t) => structuredClone(t)),
      checkouts: [...this.#checkouts.values()]
        .filter((c) => c.expiresAt > now)
        .map((c) => ({
          id: c.id,
          kind: c.kind,
          lines: c.lines.map((l) => ({ priceId: l.price.id, quantity: l.quantity })),
          customData: c.customData === null ? null : structuredClone(c.customData),
          email: c.email,
          successUrl: c.successUrl,
          parentOrigin: c.parentOrigin,
          transactionId: c.transactionId,
          dueMinor: c.dueMinor,
          expiresAt: c.expiresAt,
          result: c.result === null ? null : structuredClone(c.result),
        })),
      portals: [...this.#portals.values()].filter((x) => x.expiresAt > now).map((x) => structuredClone(x)),
    };
  }

  /**
   * Replaces the state with a snapshot's, after checking all of it (a PaddleSnapshotError names the
   * first bad field; nothing changes then). The id sequence, the updated_at microseconds and the invoice
   * number only move forward: later ids, times and numbers follow both the snapshot's and this
   * registration's. Configured prices named in the snapshot's catalog get their created_at back (and
   * updated_at too when nothing else about them changed). Events and notifications are left alone.
   */
  restore(input: unknown): void {
    const snap = readSnapshot(input, this.catalog);
    // Everything below only builds new values from the checked copy, then swaps them in.
    const catalogTimes = new Map(snap.catalog.map((c) => [c.price.id, c]));
    const customers = new Map<string, CustomerRecord>(
      snap.customers.map((c) => [c.customer.id, { customer: c.customer, addressId: c.addressId, userId: c.userId, credit: new Map(Object.entries(c.credit)) }]),
    );
    const subscriptions = new Map(snap.subscriptions.map((sub) => [sub.id, sub]));
    const transactions = new Map(snap.transactions.map((t) => [t.id, t]));
    const checkouts = new Map<string, CheckoutSession>(
      snap.checkouts.map((c) => [c.id, { ...c, lines: c.lines.map((l) => ({ price: this.catalog.get(l.priceId)!, quantity: l.quantity })) }]),
    );
    const portals = new Map(snap.portals.map((x) => [x.session.id, x]));

    let micros = snap.sequence.lastMicros;
    const seen = (iso: string | null) => {
      const m = iso === null ? Number.NaN : microsOf(iso);
      if (Number.isFinite(m) && m > micros) micros = m;
    };
    for (const c of snap.customers) seen(c.customer.updated_at);
    for (const sub of snap.subscriptions) {
      seen(sub.updatedAt);
      seen(sub.canceledAt);
      for (const item of sub.items) seen(item.updatedAt);
    }
    for (const t of snap.transactions) {
      seen(t.updated_at);
      for (const pay of t.payments) seen(pay.created_at);
    }
    let invoiceNumber = snap.sequence.invoiceNumber;
    for (const t of snap.transactions) {
      const n = /-(\d{1,15})$/.exec(t.invoice_number ?? '');
      if (n) invoiceNumber = Math.max(invoiceNumber, Number(n[1]));
    }

    for (const [priceId, c] of this.catalog) {
      const old = catalogTimes.get(priceId);
      if (!old) continue;
      const priceSame = sameApartFromTimes(old.price, c.price);
      const productSame = old.product.id === c.product.id && sameApartFromTimes(old.product, c.product);
      c.price.created_at = old.price.created_at;
      if (priceSame) c.price.updated_at = old.price.updated_at;
      if (old.product.id === c.product.id) {
        c.product.created_at = old.product.created_at;
        if (productSame) c.product.updated_at = old.product.updated_at;
      }
    }
    this.#customers = customers;
    this.#subscriptions = subscriptions;
    this.#transactions = transactions;
    this.#checkouts = checkouts;
    this.#portals = portals;
    this.#lastMicros = Math.max(this.#lastMicros, micros);
    this.#invoiceNumber = Math.max(this.#invoiceNumber, invoiceNumber);
    this.ids.raise({ time: snap.sequence.idTime, random: BigInt(snap.sequence.idRandom) });
    const raiseTo = (id: string | null) => {
      const parts = id === null ? null : idParts(id);
      if (parts) this.ids.raise(parts);
    };
    for (const c of snap.customers) {
      raiseTo(c.customer.id);
      raiseTo(c.addressId);
    }
    for (const sub of snap.subscriptions) raiseTo(sub.id);
    for (const t of snap.transactions) {
      raiseTo(t.id);
      raiseTo(t.invoice_id);
    }
    for (const c of snap.checkouts) raiseTo(c.id);
    for (const x of snap.portals) raiseTo(x.session.id);
    this.#changed();
  }

  #changed(): void {
    this.onChange?.();
  }

  #emit(type: string, data: unknown): string {
    const id = this.queue.enqueue(type, data, this.stamp());
    this.#changed();
    return id;
  }

  // ----- reading -----

  customer(id: string): PaddleCustomer {
    const c = this.#customers.get(id);
    if (!c) throw notFound('Customer', id);
    return structuredClone(c.customer);
  }

  customers(): PaddleCustomer[] {
    return [...this.#customers.values()].map((c) => structuredClone(c.customer));
  }

  hasSubscription(id: string): boolean {
    return this.#subscriptions.has(id);
  }

  subscription(id: string): PaddleSubscription {
    return this.#json(this.#subscription(id));
  }

  /** Subscriptions in id order (oldest first), optionally filtered. */
  subscriptions(filter: { customerIds?: string[]; statuses?: string[]; ids?: string[]; priceIds?: string[] } = {}): PaddleSubscription[] {
    return [...this.#subscriptions.values()]
      .filter((s) => !filter.customerIds || filter.customerIds.includes(s.customerId))
      .filter((s) => !filter.statuses || filter.statuses.includes(s.status))
      .filter((s) => !filter.ids || filter.ids.includes(s.id))
      .filter((s) => !filter.priceIds || s.items.some((i) => filter.priceIds!.includes(i.priceId)))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((s) => this.#json(s));
  }

  card(subscriptionId: string): PaddleCard {
    return { ...this.#subscription(subscriptionId).card };
  }

  transaction(id: string): PaddleTransaction {
    const t = this.#transactions.get(id);
    if (!t) throw notFound('Transaction', id);
    return structuredClone(t);
  }

  transactions(): PaddleTransaction[] {
    return [...this.#transactions.values()].map((t) => structuredClone(t));
  }

  /** GET /transactions: the transactions matching every filter given (copies, in no particular order). */
  findTransactions(q: TransactionQuery): PaddleTransaction[] {
    const has = (list: string[] | undefined, value: string | null) => !list || (value !== null && list.includes(value));
    return [...this.#transactions.values()]
      .filter((t) => has(q.ids, t.id))
      // `subscription_id=null`: the transactions of no subscription (made by the API, not paid yet).
      .filter((t) => (q.subscriptionIds === null ? t.subscription_id === null : has(q.subscriptionIds, t.subscription_id)))
      .filter((t) => has(q.customerIds, t.customer_id))
      .filter((t) => has(q.statuses, t.status))
      .filter((t) => has(q.origins, t.origin))
      .filter((t) => has(q.invoiceNumbers, t.invoice_number))
      .filter((t) => has(q.collectionModes, t.collection_mode))
      .filter((t) =>
        (q.dates ?? []).every((d) => {
          const value = t[d.field];
          if (value === null) return false;
          const m = microsOf(value);
          return d.op === 'eq' ? m === d.micros : d.op === 'lt' ? m < d.micros : d.op === 'lte' ? m <= d.micros : d.op === 'gt' ? m > d.micros : m >= d.micros;
        }),
      )
      .map((t) => structuredClone(t));
  }

  /**
   * What GET /transactions/{id}/invoice may link to: a completed transaction (automatic collection)
   * that is not zero-value, as Paddle documents; else Paddle's error shape (404 for an unknown id).
   */
  invoiceable(id: string): PaddleTransaction {
    const t = this.#transactions.get(id);
    if (!t) throw notFound('Transaction', id);
    if (t.status !== 'completed') {
      throw new PaddleApiError(400, 'bad_request', `Transaction ${id} is ${t.status}: invoice PDFs are only available for completed transactions.`);
    }
    if (Number(t.details.totals.total) === 0 || t.invoice_number === null) {
      throw new PaddleApiError(400, 'bad_request', `Transaction ${id} is zero-value: invoice PDFs aren't available for zero-value transactions.`);
    }
    return structuredClone(t);
  }

  #subscription(id: string): SubscriptionRecord {
    const s = this.#subscriptions.get(id);
    if (!s) throw notFound('Subscription', id);
    return s;
  }

  #json(s: SubscriptionRecord): PaddleSubscription {
    const nextBilled = s.nextBilledAt === null ? null : isoMs(s.nextBilledAt);
    return {
      id: s.id,
      status: s.status,
      customer_id: s.customerId,
      address_id: s.addressId,
      business_id: null,
      currency_code: s.currency,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      started_at: s.startedAt,
      first_billed_at: s.firstBilledAt,
      next_billed_at: nextBilled,
      paused_at: null,
      canceled_at: s.canceledAt,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: s.periodStart === null || s.periodEnd === null ? null : { starts_at: isoMs(s.periodStart), ends_at: isoMs(s.periodEnd) },
      billing_cycle: { interval: s.interval, frequency: 1 },
      scheduled_change: s.scheduledCancelAt === null ? null : { action: 'cancel', effective_at: isoMs(s.scheduledCancelAt), resume_at: null },
      items: s.items.map((i) => {
        const c = this.catalog.get(i.priceId)!;
        return {
          status: 'active',
          quantity: i.quantity,
          recurring: true,
          created_at: i.createdAt,
          updated_at: i.updatedAt,
          previously_billed_at: i.previouslyBilledAt,
          next_billed_at: nextBilled,
          trial_dates: null,
          price: structuredClone(c.price),
          product: structuredClone(c.product),
        };
      }),
      custom_data: s.customData === null ? null : structuredClone(s.customData),
      discount: null,
      import_meta: null,
    };
  }

  // ----- transactions -----

  #transaction(input: {
    status: PaddleTransaction['status'];
    origin: TransactionOrigin;
    /** The subscription it bills, or (a transaction the API creates) none yet. */
    sub: SubscriptionRecord | { currency: string };
    customData: Record<string, unknown> | null;
    lines: Line[];
    credit?: number;
    period: { starts_at: string; ends_at: string } | null;
    checkoutUrl?: string | null;
  }): PaddleTransaction {
    const { sub } = input;
    const billed = 'id' in sub ? sub : null;
    const at = this.stamp();
    const subtotal = input.lines.reduce((t, l) => t + l.total, 0);
    const totals = totalsOf(subtotal, input.credit ?? 0, sub.currency, false);
    const lineItems: PaddleLineItem[] = input.lines.map((l) => ({ id: this.ids.next('txnitm', this.now()), ...lineItemOf(l) }));
    const txn: PaddleTransaction = {
      id: this.ids.next('txn', this.now()),
      status: input.status,
      customer_id: billed?.customerId ?? null,
      address_id: billed?.addressId ?? null,
      business_id: null,
      custom_data: input.customData === null ? null : structuredClone(input.customData),
      origin: input.origin,
      collection_mode: 'automatic',
      subscription_id: billed?.id ?? null,
      invoice_id: null,
      invoice_number: null,
      billing_details: null,
      billing_period: input.period,
      currency_code: sub.currency,
      discount_id: null,
      created_at: at,
      updated_at: at,
      billed_at: null,
      items: input.lines.map((l) => ({ price: structuredClone(l.price.price), quantity: l.quantity, proration: l.proration })),
      details: { tax_rates_used: [], totals, line_items: lineItems },
      payments: [],
      checkout: { url: input.checkoutUrl ?? null },
    };
    this.#transactions.set(txn.id, txn);
    return txn;
  }

  #payment(txn: PaddleTransaction, card: PaddleCard, ok: boolean): PaddlePayment {
    const at = this.stamp();
    return {
      amount: txn.details.totals.grand_total,
      status: ok ? 'captured' : 'error',
      created_at: at,
      captured_at: ok ? at : null,
      error_code: ok ? null : 'declined',
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: this.ids.next('paymtd', this.now()),
      method_details: { type: 'card', card: { ...card } },
    };
  }

  /** Captures the transaction's amount with the card: status paid (transaction.paid when billed), then completed. */
  #settle(txn: PaddleTransaction, card: PaddleCard, notifyPaid: boolean): void {
    txn.payments.unshift(this.#payment(txn, card, true));
    const billed = Number(txn.details.totals.grand_total) > 0 || txn.origin !== 'subscription_payment_method_change';
    if (billed && !txn.invoice_id) {
      txn.invoice_id = this.ids.next('inv', this.now());
      txn.invoice_number = `${new Date(this.now()).getUTCFullYear()}-${String(++this.#invoiceNumber).padStart(5, '0')}`;
    }
    txn.billed_at ??= this.stamp();
    txn.details.totals.balance = '0';
    txn.status = 'paid';
    txn.updated_at = this.stamp();
    if (notifyPaid) this.#emit('transaction.paid', txn);
    txn.status = 'completed';
    txn.updated_at = this.stamp();
    this.#emit('transaction.completed', txn);
  }

  #touch(sub: SubscriptionRecord): void {
    sub.updatedAt = this.stamp();
  }

  // ----- checkout -----

  /** Validates a checkout's items (known prices, one currency and billing interval, quantity 1-100). */
  lines(items: Array<{ priceId: unknown; quantity: unknown }>): LineInput[] {
    if (!Array.isArray(items) || items.length === 0) throw new RangeError('The checkout has no items.');
    if (items.length > 10) throw new RangeError('A checkout takes at most 10 items.');
    const lines: LineInput[] = [];
    for (const item of items) {
      const price = typeof item?.priceId === 'string' ? this.catalog.get(item.priceId) : undefined;
      if (!price) throw new RangeError(`Unknown price ${JSON.stringify(item?.priceId ?? null)}.`);
      const quantity = item.quantity === undefined ? 1 : item.quantity;
      if (!(typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= 100)) throw new RangeError(`The quantity of ${price.id} must be a whole number from 1 to 100.`);
      if (lines.some((l) => l.price.id === price.id)) throw new RangeError(`Price ${price.id} is listed twice.`);
      lines.push({ price, quantity });
    }
    const first = lines[0]!.price;
    if (lines.some((l) => l.price.currency !== first.currency)) throw new RangeError('All items of a checkout must be in the same currency.');
    if (lines.some((l) => l.price.interval !== first.interval)) throw new RangeError('All items of a subscription must have the same billing interval.');
    return lines;
  }

  /**
   * POST /transactions: a transaction the API prepares for a checkout (origin `api`, status `draft`: no
   * customer or address yet), its items priced from the catalogue and its custom data the API's. Paddle.js
   * opens it with `Paddle.Checkout.open({ transactionId })`; paying it makes the subscription, whose
   * `subscription.created` names it (`transaction_id`). `checkoutUrl` makes its `checkout.url`.
   */
  createTransaction(items: Array<{ priceId: unknown; quantity: unknown }>, customData: Record<string, unknown> | null, checkoutUrl: (txnId: string) => string): PaddleTransaction {
    const lines = this.lines(items);
    const txn = this.#transaction({
      status: 'draft',
      origin: 'api',
      sub: { currency: lines[0]!.price.currency },
      customData,
      lines: lines.map((l) => ({ price: l.price, quantity: l.quantity, total: l.price.unitMinor * l.quantity, proration: null })),
      period: null,
    });
    txn.checkout.url = checkoutUrl(txn.id);
    this.#changed();
    return structuredClone(txn);
  }

  openCheckout(input: Omit<CheckoutSession, 'id' | 'expiresAt' | 'result'>): CheckoutSession {
    const now = this.now();
    evict(this.#checkouts, now);
    const session: CheckoutSession = { ...input, id: this.ids.next('chk', now), expiresAt: now + this.options.checkoutTtlMs, result: null };
    this.#checkouts.set(session.id, session);
    this.#changed();
    return session;
  }

  checkoutSession(id: string): CheckoutSession | null {
    const s = this.#checkouts.get(id);
    return s && s.expiresAt > this.now() ? s : null;
  }

  /** The customer of a new purchase: the one with the same custom_data.userId, else the same email, else a new one. */
  #customerFor(email: string, userId: string | null): CustomerRecord {
    const lower = email.toLowerCase();
    const all = [...this.#customers.values()];
    const found = (userId !== null ? all.find((c) => c.userId === userId) : undefined) ?? all.find((c) => c.customer.email.toLowerCase() === lower);
    if (found) {
      if (found.userId === null && userId !== null) found.userId = userId;
      return found;
    }
    const at = this.stamp();
    const record: CustomerRecord = {
      customer: {
        id: this.ids.next('ctm', this.now()),
        name: null,
        email,
        marketing_consent: false,
        status: 'active',
        custom_data: null,
        locale: 'en',
        created_at: at,
        updated_at: at,
        import_meta: null,
      },
      addressId: this.ids.next('add', this.now()),
      userId,
      credit: new Map(),
    };
    this.#customers.set(record.customer.id, record);
    return record;
  }

  /**
   * A successful purchase: customer (new or reused), active subscription and completed transaction, then
   * subscription.created, subscription.activated, transaction.paid and transaction.completed.
   */
  purchase(session: CheckoutSession, email: string, card: PaddleCard): CheckoutResult {
    if (session.result) return session.result;
    if (session.kind !== 'purchase') throw new Error('purchase: not a purchase checkout');
    // A transaction the API created: paid once (a second checkout of it is refused), and it is the
    // transaction the purchase completes (its id, custom data and items).
    const prepared = session.transactionId === null ? null : this.#unpaidApiTransaction(session.transactionId);
    const userId = typeof session.customData?.userId === 'string' ? session.customData.userId : null;
    const customer = this.#customerFor(email, userId);
    const now = this.now();
    const first = session.lines[0]!.price;
    const periodEnd = addInterval(now, first.interval);
    const created = this.stamp();
    const sub: SubscriptionRecord = {
      id: this.ids.next('sub', now),
      status: 'active',
      customerId: customer.customer.id,
      addressId: customer.addressId,
      currency: first.currency,
      interval: first.interval,
      items: session.lines.map((l) => ({ priceId: l.price.id, quantity: l.quantity, createdAt: created, updatedAt: created, previouslyBilledAt: isoMs(now) })),
      customData: session.customData === null ? null : structuredClone(session.customData),
      createdAt: created,
      updatedAt: created,
      startedAt: isoMs(now),
      firstBilledAt: isoMs(now),
      canceledAt: null,
      periodStart: now,
      periodEnd,
      nextBilledAt: periodEnd,
      scheduledCancelAt: null,
      card: { ...card },
    };
    this.#subscriptions.set(sub.id, sub);
    const period = { starts_at: isoMs(now), ends_at: isoMs(periodEnd) };
    let txn: PaddleTransaction;
    if (prepared) {
      // Paddle holds the checkout's custom data against the transaction (and copies it to the subscription).
      Object.assign(prepared, {
        status: 'ready',
        customer_id: customer.customer.id,
        address_id: customer.addressId,
        subscription_id: sub.id,
        custom_data: sub.customData === null ? null : structuredClone(sub.customData),
        billing_period: period,
        updated_at: this.stamp(),
      } satisfies Partial<PaddleTransaction>);
      txn = prepared;
    } else {
      txn = this.#transaction({
        status: 'ready',
        origin: 'web',
        sub,
        customData: sub.customData,
        lines: session.lines.map((l) => ({ price: l.price, quantity: l.quantity, total: l.price.unitMinor * l.quantity, proration: null })),
        period,
      });
    }
    this.#emit('subscription.created', { ...this.#json(sub), transaction_id: txn.id });
    this.#touch(sub);
    this.#emit('subscription.activated', this.#json(sub));
    this.#settle(txn, card, true);
    session.result = { transactionId: txn.id, subscriptionId: sub.id, customerId: customer.customer.id, email: customer.customer.email, customData: sub.customData, card: { ...card } };
    return session.result;
  }

  /**
   * A checkout opened for a transaction (`?txn=`): pays it with the card. A zero-amount card-update
   * transaction records the card; a past-due one is collected. A past-due subscription is active again
   * afterwards (its other past-due transactions are collected with the new card too).
   */
  payTransaction(session: CheckoutSession, card: PaddleCard): CheckoutResult {
    if (session.result) return session.result;
    const txn = this.#transactions.get(session.transactionId ?? '');
    if (!txn) throw notFound('Transaction', session.transactionId ?? '');
    if (txn.subscription_id === null) throw new Error('payTransaction: the transaction bills no subscription (a purchase)');
    const sub = this.#subscription(txn.subscription_id);
    if (sub.status === 'canceled') throw canceledError();
    if (txn.status === 'completed' || txn.status === 'paid') throw alreadyPaid();
    const wasPastDue = sub.status === 'past_due';
    sub.card = { ...card };
    this.#settle(txn, card, txn.origin !== 'subscription_payment_method_change');
    if (wasPastDue) {
      for (const other of this.#transactions.values()) {
        if (other.subscription_id === sub.id && other.status === 'past_due') this.#settle(other, card, true);
      }
      sub.status = 'active';
      if (sub.nextBilledAt === null && sub.scheduledCancelAt === null && sub.periodEnd !== null) sub.nextBilledAt = sub.periodEnd;
      this.#touch(sub);
      this.#emit('subscription.updated', this.#json(sub));
    }
    const customer = this.#customers.get(sub.customerId)!;
    session.result = { transactionId: txn.id, subscriptionId: sub.id, customerId: sub.customerId, email: customer.customer.email, customData: sub.customData, card: { ...card } };
    return session.result;
  }

  // ----- subscription changes -----

  /** POST /subscriptions/{id}/cancel. */
  cancel(id: string, effectiveFrom: 'next_billing_period' | 'immediately'): PaddleSubscription {
    const sub = this.#subscription(id);
    if (sub.status === 'canceled') throw canceledError();
    if (effectiveFrom === 'immediately' || sub.periodEnd === null) {
      sub.status = 'canceled';
      sub.canceledAt = this.stamp();
      sub.scheduledCancelAt = null;
      sub.nextBilledAt = null;
      sub.periodStart = null;
      sub.periodEnd = null;
      this.#touch(sub);
      this.#emit('subscription.canceled', this.#json(sub));
      return this.#json(sub);
    }
    if (sub.scheduledCancelAt !== null) return this.#json(sub);
    sub.scheduledCancelAt = sub.periodEnd;
    sub.nextBilledAt = null;
    this.#touch(sub);
    this.#emit('subscription.updated', this.#json(sub));
    return this.#json(sub);
  }

  /**
   * What a PATCH would do, without doing it. Proration (`prorated_immediately`), with f the part of the
   * current billing period still to come, f = (ends_at − now) / (ends_at − starts_at) clamped to [0, 1]:
   *   credit = round(old items' total × f)   (the unused time of what was paid)
   *   charge = round(new items' total × f)   (the same time at the new items' price)
   *   result = charge − credit: `charge` when ≥ 0, else `credit` of its absolute value.
   * When the billing interval changes, a new period starts now and the charge is the new items' full
   * total (credit as above). `do_not_bill` changes the items with credit = charge = 0.
   * Amounts are integer minor units; the current items' total is Σ unit_price × quantity.
   */
  #plan(sub: SubscriptionRecord, change: ItemChange): PlannedChange {
    const lines = change.items.map((i, n) => {
      const price = this.catalog.get(i.price_id);
      if (!price) throw invalidField(`items[${n}].price_id`, `price ${i.price_id} not found`);
      return { price, quantity: i.quantity };
    });
    for (const [n, l] of lines.entries()) {
      if (l.price.currency !== sub.currency) throw invalidField(`items[${n}].price_id`, `price ${l.price.id} is in ${l.price.currency}, the subscription in ${sub.currency}`);
      if (lines.findIndex((o) => o.price.id === l.price.id) !== n) throw invalidField(`items[${n}].price_id`, `price ${l.price.id} is listed twice`);
    }
    const interval = lines[0]!.price.interval;
    if (lines.some((l) => l.price.interval !== interval)) throw invalidField('items', 'all items must have the same billing interval');
    const intervalChanges = interval !== sub.interval;
    if (intervalChanges && change.mode === 'do_not_bill') throw invalidField('proration_billing_mode', 'this sandbox changes the billing interval with prorated_immediately only');
    const now = this.now();
    const start = sub.periodStart ?? now;
    const end = sub.periodEnd ?? now;
    const rate = end > start ? Math.min(1, Math.max(0, (end - now) / (end - start))) : 0;
    const oldTotal = sum(sub.items.map((i) => ({ unit: this.catalog.get(i.priceId)!.unitMinor, quantity: i.quantity })));
    const newTotal = sum(lines.map((l) => ({ unit: l.price.unitMinor, quantity: l.quantity })));
    let credit = 0;
    let charge = 0;
    if (change.mode === 'prorated_immediately') {
      credit = Math.round(oldTotal * rate);
      charge = intervalChanges ? newTotal : Math.round(newTotal * rate);
    }
    const diff = charge - credit;
    const money = (amount: number) => ({ amount: String(amount), currency_code: sub.currency });
    const summary: PaddleUpdateSummary = {
      credit: money(credit),
      charge: money(charge),
      result: { action: diff >= 0 ? 'charge' : 'credit', ...money(Math.abs(diff)) },
    };
    const next: SubscriptionRecord = structuredClone(sub);
    const at = isoMs(now);
    next.items = lines.map((l) => {
      const old = sub.items.find((i) => i.priceId === l.price.id);
      if (old && old.quantity === l.quantity) return { ...old };
      return { priceId: l.price.id, quantity: l.quantity, createdAt: old?.createdAt ?? at, updatedAt: at, previouslyBilledAt: old?.previouslyBilledAt ?? null };
    });
    if (intervalChanges) {
      next.interval = interval;
      next.periodStart = now;
      next.periodEnd = addInterval(now, interval);
      next.nextBilledAt = next.scheduledCancelAt === null ? next.periodEnd : null;
      if (next.scheduledCancelAt !== null) next.scheduledCancelAt = next.periodEnd;
    }
    return { next, summary, credit, charge, rate, lines };
  }

  /**
   * The immediate transaction's lines of a prorated change: its charge split over the new items by
   * their share of the new items' total (the last takes the rounding), each prorated at `rate` over
   * now..ends_at. The credit is applied to the transaction as a whole (totals.credit).
   */
  #prorationLines(planned: PlannedChange, period: { starts_at: string; ends_at: string }): Line[] {
    const rate = planned.rate.toFixed(6);
    const lineTotals = planned.lines.map((l) => l.price.unitMinor * l.quantity);
    const lineSum = lineTotals.reduce((a, b) => a + b, 0) || 1;
    let left = planned.charge;
    return planned.lines.map((l, n) => {
      const total = n === planned.lines.length - 1 ? left : Math.round((planned.charge * lineTotals[n]!) / lineSum);
      left -= total;
      return { price: l.price, quantity: l.quantity, total, proration: { rate, billing_period: period } };
    });
  }

  /** The full-price lines of a subscription's items (a renewal). */
  #recurringLines(sub: SubscriptionRecord): Line[] {
    return sub.items.map((i) => {
      const price = this.catalog.get(i.priceId)!;
      return { price, quantity: i.quantity, total: price.unitMinor * i.quantity, proration: null };
    });
  }

  /**
   * A preview's transactions, as the change would make them: `immediate_transaction` (prorated_immediately
   * only: the proration charge, the credit applied, any credit beyond the charge shown as
   * credit_to_balance; null for do_not_bill or no item change), `next_transaction` (the renewal at
   * next_billed_at, the customer's credit balance after the change applied first, as renewals do; null
   * when no renewal is due) and `recurring_transaction_details` (the items at full price).
   */
  #previewExtras(sub: SubscriptionRecord, next: SubscriptionRecord, planned: PlannedChange | null, mode: ProrationMode | null): PreviewExtras {
    const now = this.now();
    let immediate: PaddlePreviewTransaction | null = null;
    if (planned && mode === 'prorated_immediately') {
      const period = { starts_at: isoMs(now), ends_at: isoMs(next.periodEnd ?? now) };
      immediate = { billing_period: period, details: previewDetails(this.#prorationLines(planned, period), planned.credit, next.currency), adjustments: [] };
    }
    let following: PaddlePreviewTransaction | null = null;
    const recurring = this.#recurringLines(next);
    if (next.status !== 'canceled' && next.nextBilledAt !== null) {
      const balance = (this.#customers.get(sub.customerId)?.credit.get(next.currency) ?? 0) + (immediate ? Math.max(0, Number(immediate.details.totals.credit_to_balance)) : 0);
      following = {
        billing_period: { starts_at: isoMs(next.nextBilledAt), ends_at: isoMs(addInterval(next.nextBilledAt, next.interval)) },
        details: previewDetails(recurring, balance, next.currency),
        adjustments: [],
      };
    }
    return {
      update_summary: planned?.summary ?? null,
      immediate_transaction: immediate,
      next_transaction: following,
      recurring_transaction_details: previewDetails(recurring, 0, next.currency),
    };
  }

  /** PATCH /subscriptions/{id} (apply) or PATCH|POST /subscriptions/{id}/preview (preview: nothing changes). */
  update(id: string, patch: SubscriptionPatch, preview: true): PaddleSubscription & PreviewExtras;
  update(id: string, patch: SubscriptionPatch, preview: false): PaddleSubscription;
  update(id: string, patch: SubscriptionPatch, preview: boolean): PaddleSubscription | (PaddleSubscription & PreviewExtras) {
    const sub = this.#subscription(id);
    if (sub.status === 'canceled') throw canceledError();
    let next: SubscriptionRecord = structuredClone(sub);
    if (patch.removeScheduledChange && next.scheduledCancelAt !== null) {
      next.scheduledCancelAt = null;
      next.nextBilledAt = next.status === 'active' || next.status === 'past_due' ? next.periodEnd : null;
    }
    if (patch.change && next.scheduledCancelAt !== null) {
      throw new PaddleApiError(
        400,
        'subscription_locked_pending_changes',
        'Subscription has a scheduled change: remove it (scheduled_change: null) before changing items.',
        undefined,
        'subscriptions',
      );
    }
    if (patch.customData !== undefined) next.customData = patch.customData === null ? null : structuredClone(patch.customData);
    let planned: PlannedChange | null = null;
    if (patch.change) {
      planned = this.#plan(next, patch.change);
      next = planned.next;
    }
    if (preview) return { ...this.#json(next), ...this.#previewExtras(sub, next, planned, patch.change?.mode ?? null) };
    const changed = JSON.stringify(this.#json(next)) !== JSON.stringify(this.#json(sub));
    if (!changed) return this.#json(sub);
    Object.assign(sub, next);
    this.#touch(sub);
    this.#emit('subscription.updated', this.#json(sub));
    if (planned && patch.change?.mode === 'prorated_immediately') {
      const customer = this.#customers.get(sub.customerId)!;
      const diff = planned.charge - planned.credit;
      if (diff < 0) customer.credit.set(sub.currency, (customer.credit.get(sub.currency) ?? 0) - diff);
      if (diff > 0) {
        const period = { starts_at: isoMs(this.now()), ends_at: isoMs(sub.periodEnd ?? this.now()) };
        const lines = this.#prorationLines(planned, period);
        const txn = this.#transaction({ status: 'ready', origin: 'subscription_update', sub, customData: sub.customData, lines, credit: planned.credit, period });
        this.#settle(txn, sub.card, true);
      }
    }
    return this.#json(sub);
  }

  /**
   * GET /subscriptions/{id}/update-payment-method-transaction: the latest past-due transaction when the
   * subscription is past due, else a new zero-amount one (origin subscription_payment_method_change).
   */
  paymentMethodTransaction(id: string, checkoutUrl: (txnId: string) => string): PaddleTransaction {
    const sub = this.#subscription(id);
    if (sub.status === 'canceled') throw canceledError();
    if (sub.status === 'past_due') {
      const pastDue = [...this.#transactions.values()].filter((t) => t.subscription_id === sub.id && t.status === 'past_due').pop();
      if (pastDue) {
        const url = checkoutUrl(pastDue.id);
        if (pastDue.checkout.url !== url) {
          pastDue.checkout.url = url;
          this.#changed();
        }
        return structuredClone(pastDue);
      }
    }
    const txn = this.#transaction({
      status: 'ready',
      origin: 'subscription_payment_method_change',
      sub,
      customData: sub.customData,
      lines: sub.items.map((i) => ({ price: this.catalog.get(i.priceId)!, quantity: i.quantity, total: 0, proration: null })),
      period: null,
    });
    txn.checkout.url = checkoutUrl(txn.id);
    this.#changed();
    return structuredClone(txn);
  }

  /**
   * What a checkout opened for a transaction (`?txn=`) pays: a transaction the API created for a
   * purchase (`sub` null), or a subscription's card-update or past-due one; else an error.
   */
  payableTransaction(txnId: string): { txn: PaddleTransaction; sub: PaddleSubscription | null } {
    const txn = this.#transactions.get(txnId);
    if (!txn) throw notFound('Transaction', txnId);
    if (txn.subscription_id === null) return { txn: structuredClone(this.#unpaidApiTransaction(txnId)), sub: null };
    const sub = this.#subscription(txn.subscription_id);
    if (sub.status === 'canceled') throw canceledError();
    if (txn.status === 'completed' || txn.status === 'paid') throw alreadyPaid();
    return { txn: structuredClone(txn), sub: this.#json(sub) };
  }

  /** A transaction the API created that no checkout has paid yet (the record itself), else an error. */
  #unpaidApiTransaction(txnId: string): PaddleTransaction {
    const txn = this.#transactions.get(txnId);
    if (!txn) throw notFound('Transaction', txnId);
    if (txn.origin !== 'api' || txn.subscription_id !== null || (txn.status !== 'draft' && txn.status !== 'ready')) throw alreadyPaid();
    return txn;
  }

  /**
   * As if the payment for the current period had failed: a past-due transaction (origin
   * subscription_recurring) and the subscription past due; sends transaction.payment_failed,
   * transaction.past_due and subscription.past_due.
   */
  markPastDue(id: string): PaddleTransaction {
    const sub = this.#subscription(id);
    if (sub.status !== 'active') throw new Error(`markPastDue: ${id} is ${sub.status}, not active`);
    const period = sub.periodStart !== null && sub.periodEnd !== null ? { starts_at: isoMs(sub.periodStart), ends_at: isoMs(sub.periodEnd) } : null;
    const txn = this.#transaction({
      status: 'past_due',
      origin: 'subscription_recurring',
      sub,
      customData: sub.customData,
      lines: sub.items.map((i) => {
        const price = this.catalog.get(i.priceId)!;
        return { price, quantity: i.quantity, total: price.unitMinor * i.quantity, proration: null };
      }),
      period,
    });
    txn.billed_at = this.stamp();
    txn.payments.unshift(this.#payment(txn, sub.card, false));
    txn.updated_at = this.stamp();
    this.#emit('transaction.payment_failed', txn);
    this.#emit('transaction.past_due', txn);
    sub.status = 'past_due';
    this.#touch(sub);
    this.#emit('subscription.past_due', this.#json(sub));
    return structuredClone(txn);
  }

  /**
   * Applies what the clock says is due: scheduled cancels (subscription.canceled at effective_at) and
   * renewals of active subscriptions at next_billed_at (a completed subscription_recurring transaction
   * charged to the stored card, using the customer's credit first, then subscription.updated).
   */
  tick(): void {
    const now = this.now();
    for (const sub of this.#subscriptions.values()) {
      for (let n = 0; n < MAX_RENEWALS; n++) {
        if (sub.status === 'canceled') break;
        if (sub.scheduledCancelAt !== null) {
          if (sub.scheduledCancelAt > now) break;
          sub.status = 'canceled';
          sub.canceledAt = isoMs(sub.scheduledCancelAt);
          sub.scheduledCancelAt = null;
          sub.nextBilledAt = null;
          sub.periodStart = null;
          sub.periodEnd = null;
          this.#touch(sub);
          this.#emit('subscription.canceled', this.#json(sub));
          break;
        }
        if (sub.status !== 'active' || sub.nextBilledAt === null || sub.nextBilledAt > now) break;
        this.#renew(sub);
      }
    }
  }

  #renew(sub: SubscriptionRecord): void {
    const start = sub.nextBilledAt!;
    const end = addInterval(start, sub.interval);
    const customer = this.#customers.get(sub.customerId)!;
    const lines = this.#recurringLines(sub);
    const total = lines.reduce((t, l) => t + l.total, 0);
    const credit = Math.min(customer.credit.get(sub.currency) ?? 0, total);
    if (credit > 0) customer.credit.set(sub.currency, (customer.credit.get(sub.currency) ?? 0) - credit);
    const txn = this.#transaction({ status: 'ready', origin: 'subscription_recurring', sub, customData: sub.customData, lines, credit, period: { starts_at: isoMs(start), ends_at: isoMs(end) } });
    this.#settle(txn, sub.card, true);
    sub.periodStart = start;
    sub.periodEnd = end;
    sub.nextBilledAt = end;
    for (const item of sub.items) item.previouslyBilledAt = isoMs(start);
    this.#touch(sub);
    this.#emit('subscription.updated', this.#json(sub));
  }

  // ----- customer portal -----

  /** POST /customers/{id}/portal-sessions. `base`: this stand-in's absolute URL (no trailing slash). */
  portalSession(customerId: string, subscriptionIds: string[], base: string, management = false): PaddlePortalSession {
    const customer = this.#customers.get(customerId);
    if (!customer) throw notFound('Customer', customerId);
    for (const [n, id] of subscriptionIds.entries()) {
      const sub = this.#subscriptions.get(id);
      if (!sub || sub.customerId !== customerId) throw invalidField(`subscription_ids[${n}]`, `subscription ${id} does not belong to customer ${customerId}`);
    }
    const now = this.now();
    evict(this.#portals, now);
    const id = this.ids.next('cpls', now);
    const root = `${base}/portal/${id}`;
    const session: PaddlePortalSession = {
      id,
      customer_id: customerId,
      urls: {
        general: { overview: root },
        subscriptions: subscriptionIds.map((s) => ({
          id: s,
          cancel_subscription: `${root}/subscriptions/${s}/cancel`,
          update_subscription_payment_method: `${root}/subscriptions/${s}/payment-method`,
        })),
      },
      created_at: this.stamp(),
    };
    this.#portals.set(id, { session, expiresAt: now + this.options.portalTtlMs, management });
    // A session made for management_urls comes from reading a subscription: kept by the next snapshot,
    // but not worth one of its own (made again on demand).
    if (!management) this.#changed();
    return structuredClone(session);
  }

  /** A live portal session, or null (unknown or expired). */
  portal(id: string): PaddlePortalSession | null {
    const p = this.#portals.get(id);
    return p && p.expiresAt > this.now() ? structuredClone(p.session) : null;
  }

  /**
   * management_urls of a subscription in API answers: links into a portal session of its customer
   * (reused while it has at least half its lifetime left).
   */
  managementUrls(id: string, base: string): NonNullable<PaddleSubscription['management_urls']> {
    const sub = this.#subscription(id);
    const now = this.now();
    let session: PaddlePortalSession | null = null;
    for (const p of this.#portals.values()) {
      if (p.management && p.session.customer_id === sub.customerId && p.expiresAt - now > this.options.portalTtlMs / 2 && p.session.urls.general.overview.startsWith(`${base}/`)) session = p.session;
    }
    session ??= this.portalSession(sub.customerId, [], base, true);
    const root = session.urls.general.overview;
    return {
      update_payment_method: sub.status === 'canceled' ? null : `${root}/subscriptions/${sub.id}/payment-method`,
      cancel: `${root}/subscriptions/${sub.id}/cancel`,
    };
  }
}

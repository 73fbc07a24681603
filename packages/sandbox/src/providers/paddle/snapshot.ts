import { type Check, type Fail, isPlainObject, shown, snapshotChecks } from '../../kit/snapshot';
import { ID_RANDOM_LIMIT, MAX_ID_TIME, microsOf } from './ids';
import type {
  Interval,
  PaddleCard,
  PaddleCustomer,
  PaddleLineItem,
  PaddlePayment,
  PaddlePortalSession,
  PaddlePrice,
  PaddleProduct,
  PaddleTotals,
  PaddleTransaction,
  PaddleTransactionItem,
  SubscriptionStatus,
} from './types';

/**
 * Everything a `paddleSandbox` registration needs to carry on where another one stopped
 * (`PaddleSandboxControl.snapshot()`, the `onChange` option; read back by `restore()` and the
 * `initialState` option). Plain JSON: `JSON.parse(JSON.stringify(snapshot))` restores the same.
 *
 * Not kept: events and notifications (delivered, pending or retrying ones are lost, `events()` and
 * `deliveries()` start empty), webhook chaos, and expired checkout pages and portal links.
 */
export interface PaddleSnapshot {
  /** The snapshot format; `restore()` refuses any other. */
  version: 1;
  /** The stand-in's clock when it was taken (epoch ms). */
  takenAt: number;
  /**
   * Where the registration's counters stood, so that what comes after the restore never repeats or
   * sorts before what came before: the last id made (its ULID time in ms and its random part as a
   * decimal string; every id of every kind comes from this one sequence), the last microsecond handed
   * out as `updated_at`/`occurred_at` (each subscription's `updated_at` keeps growing even when the
   * clock is earlier after a restart), and the last invoice number.
   */
  sequence: { idTime: number; idRandom: string; lastMicros: number; invoiceNumber: number };
  /**
   * The prices and products as they were answered (their created_at/updated_at are kept for the prices
   * still configured; the configuration decides everything else).
   */
  catalog: Array<{ price: PaddlePrice; product: PaddleProduct }>;
  customers: PaddleSnapshotCustomer[];
  subscriptions: PaddleSnapshotSubscription[];
  /** As answered by GET /transactions/:id. */
  transactions: PaddleTransaction[];
  /** Checkout pages not expired when it was taken (opened, or paid with their result). */
  checkouts: PaddleSnapshotCheckout[];
  /** Portal sessions not expired when it was taken. */
  portals: PaddleSnapshotPortal[];
}

export interface PaddleSnapshotCustomer {
  customer: PaddleCustomer;
  addressId: string;
  /** custom_data.userId of the checkout that made it (purchases reuse the customer by it, else by email). */
  userId: string | null;
  /** Credit left from downgrades, minor units by currency (used up by the next renewals). */
  credit: Record<string, number>;
}

export interface PaddleSnapshotItem {
  priceId: string;
  quantity: number;
  createdAt: string;
  updatedAt: string;
  previouslyBilledAt: string | null;
}

/** A subscription as the stand-in keeps it (times in ISO 8601 with microseconds, or epoch ms). */
export interface PaddleSnapshotSubscription {
  id: string;
  status: SubscriptionStatus;
  customerId: string;
  addressId: string;
  currency: string;
  interval: Interval;
  items: PaddleSnapshotItem[];
  customData: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string;
  firstBilledAt: string;
  canceledAt: string | null;
  periodStart: number | null;
  periodEnd: number | null;
  nextBilledAt: number | null;
  /** The pending scheduled change (a cancel at the end of the period), epoch ms. */
  scheduledCancelAt: number | null;
  /** The card charged at renewals. */
  card: PaddleCard;
}

export interface PaddleSnapshotCheckoutResult {
  transactionId: string;
  subscriptionId: string;
  customerId: string;
  email: string;
  customData: Record<string, unknown> | null;
  card: PaddleCard;
}

export interface PaddleSnapshotCheckout {
  id: string;
  kind: 'purchase' | 'update';
  lines: Array<{ priceId: string; quantity: number }>;
  customData: Record<string, unknown> | null;
  email: string | null;
  successUrl: string | null;
  parentOrigin: string | null;
  transactionId: string | null;
  dueMinor: number;
  expiresAt: number;
  result: PaddleSnapshotCheckoutResult | null;
}

export interface PaddleSnapshotPortal {
  session: PaddlePortalSession;
  expiresAt: number;
  /** Made for subscriptions' management_urls (reused while fresh). */
  management: boolean;
}

/** A snapshot that cannot be restored; the message names the first bad field (`snapshot.subscriptions[0].status …`). */
export class PaddleSnapshotError extends Error {
  override name = 'PaddleSnapshotError';
}

const checks = snapshotChecks((message) => new PaddleSnapshotError(message));
const fail: Fail = checks.fail;
const { matching, string, nullable, literal, int, time, bool, array, jsonObject: jsonObjectOf, object, unique } = checks;

const nonEmpty = matching(/\S/, 'a non-empty string');
const currency = matching(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as USD');
/** Minor units as a decimal string, like Paddle. */
const amount = matching(/^-?\d{1,20}$/, 'an amount in minor units as a decimal string such as "499"');

const iso: Check<string> = (value, path) =>
  typeof value === 'string' && Number.isFinite(microsOf(value)) ? value : fail(path, `must be an ISO 8601 UTC time such as "2026-01-15T12:00:00.000000Z", not ${shown(value)}`);

function id(prefix: string): Check<string> {
  return matching(new RegExp(`^${prefix}_[0-9a-z]{1,64}$`), `a ${prefix}_… id`);
}

const empty: Check<[]> = (value, path) => (Array.isArray(value) && value.length === 0 ? [] : fail(path, 'must be an empty array'));

/** custom_data: a JSON object. */
const jsonObject = jsonObjectOf('JSON (null, boolean, number, string, array or object)');

function record<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, path) => {
    if (!isPlainObject(value)) return fail(path, `must be an object, not ${shown(value)}`);
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, check(entry, `${path}.${key}`)]));
  };
}

const product: Check<PaddleProduct> = object({
  id: id('pro'),
  name: string,
  description: nullable(string),
  type: literal('standard'),
  tax_category: literal('standard'),
  image_url: nullable(string),
  custom_data: literal(null),
  status: literal('active'),
  import_meta: literal(null),
  created_at: iso,
  updated_at: iso,
});

const money = object({ amount, currency_code: currency });
const interval = literal<Interval>('month', 'year');

const price: Check<PaddlePrice> = object({
  id: matching(/^[\w-]{1,100}$/, 'a price id (1-100 letters, digits, _ or -)'),
  product_id: id('pro'),
  type: literal('standard'),
  description: string,
  name: string,
  billing_cycle: object({ interval, frequency: literal(1) }),
  trial_period: literal(null),
  tax_mode: literal('account_setting'),
  unit_price: money,
  unit_price_overrides: empty,
  quantity: object({ minimum: int(0), maximum: int(0) }),
  status: literal('active'),
  custom_data: literal(null),
  import_meta: literal(null),
  created_at: iso,
  updated_at: iso,
});

const card: Check<PaddleCard> = object({
  type: literal('visa', 'mastercard'),
  last4: matching(/^\d{4}$/, 'the last 4 digits of the card'),
  expiry_month: int(1, 12),
  expiry_year: int(2000, 9999),
  cardholder_name: nullable(string),
});

const payment: Check<PaddlePayment> = object({
  amount,
  status: literal('captured', 'error'),
  created_at: iso,
  captured_at: nullable(iso),
  error_code: nullable(string),
  payment_attempt_id: string,
  stored_payment_method_id: string,
  payment_method_id: string,
  method_details: object({ type: literal('card'), card }),
});

const totals: Check<PaddleTotals> = object({
  subtotal: amount,
  tax: amount,
  discount: amount,
  total: amount,
  credit: amount,
  credit_to_balance: amount,
  balance: amount,
  grand_total: amount,
  fee: literal(null),
  earnings: literal(null),
  currency_code: currency,
});

const period = object({ starts_at: iso, ends_at: iso });
const proration: Check<PaddleTransactionItem['proration']> = nullable(object({ rate: string, billing_period: period }));
const lineTotals = object({ subtotal: amount, discount: amount, tax: amount, total: amount });

const lineItem: Check<PaddleLineItem> = object({
  id: string,
  price_id: string,
  quantity: int(0),
  proration,
  tax_rate: string,
  unit_totals: lineTotals,
  totals: lineTotals,
  product,
});

const transaction: Check<PaddleTransaction> = object({
  id: id('txn'),
  status: literal('draft', 'ready', 'paid', 'completed', 'past_due'),
  customer_id: nullable(id('ctm')),
  address_id: nullable(string),
  business_id: literal(null),
  custom_data: nullable(jsonObject),
  origin: literal('api', 'web', 'subscription_recurring', 'subscription_update', 'subscription_payment_method_change'),
  collection_mode: literal('automatic'),
  subscription_id: nullable(id('sub')),
  invoice_id: nullable(string),
  invoice_number: nullable(string),
  billing_details: literal(null),
  billing_period: nullable(period),
  currency_code: currency,
  discount_id: literal(null),
  created_at: iso,
  updated_at: iso,
  billed_at: nullable(iso),
  items: array(object({ price, quantity: int(0), proration })),
  details: object({ tax_rates_used: empty, totals, line_items: array(lineItem) }),
  payments: array(payment),
  checkout: object({ url: nullable(string) }),
});

const customer: Check<PaddleCustomer> = object({
  id: id('ctm'),
  name: nullable(string),
  email: nonEmpty,
  marketing_consent: literal(false),
  status: literal('active'),
  custom_data: literal(null),
  locale: literal('en'),
  created_at: iso,
  updated_at: iso,
  import_meta: literal(null),
});

const portalSession: Check<PaddlePortalSession> = object({
  id: id('cpls'),
  customer_id: id('ctm'),
  urls: object({
    general: object({ overview: string }),
    subscriptions: array(object({ id: string, cancel_subscription: string, update_subscription_payment_method: string })),
  }),
  created_at: iso,
});

// ----- the snapshot -----

const snapshotCustomer: Check<PaddleSnapshotCustomer> = object({
  customer,
  addressId: id('add'),
  userId: nullable(string),
  credit: record(int(0)),
});

const subscription: Check<PaddleSnapshotSubscription> = object({
  id: id('sub'),
  status: literal<SubscriptionStatus>('active', 'past_due', 'canceled'),
  customerId: id('ctm'),
  addressId: id('add'),
  currency,
  interval,
  items: array(object({ priceId: string, quantity: int(1, 100), createdAt: iso, updatedAt: iso, previouslyBilledAt: nullable(iso) }), 10),
  customData: nullable(jsonObject),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso,
  firstBilledAt: iso,
  canceledAt: nullable(iso),
  periodStart: nullable(time),
  periodEnd: nullable(time),
  nextBilledAt: nullable(time),
  scheduledCancelAt: nullable(time),
  card,
});

const checkout: Check<PaddleSnapshotCheckout> = object({
  id: id('chk'),
  kind: literal('purchase', 'update'),
  lines: array(object({ priceId: string, quantity: int(1, 100) }), 10),
  customData: nullable(jsonObject),
  email: nullable(string),
  successUrl: nullable(string),
  parentOrigin: nullable(string),
  transactionId: nullable(id('txn')),
  dueMinor: int(0),
  expiresAt: time,
  result: nullable(
    object({
      transactionId: id('txn'),
      subscriptionId: id('sub'),
      customerId: id('ctm'),
      email: string,
      customData: nullable(jsonObject),
      card,
    }),
  ),
});

const idRandom: Check<string> = (v, p) => (typeof v === 'string' && /^\d{1,25}$/.test(v) && BigInt(v) < ID_RANDOM_LIMIT ? v : fail(p, `must be a decimal string below 2^80, not ${shown(v)}`));

const snapshot: Check<PaddleSnapshot> = object({
  version: literal(1),
  takenAt: time,
  sequence: object({ idTime: int(-1, MAX_ID_TIME), idRandom, lastMicros: int(0), invoiceNumber: int(0) }),
  catalog: array(object({ price, product })),
  customers: array(snapshotCustomer),
  subscriptions: array(subscription),
  transactions: array(transaction),
  checkouts: array(checkout),
  portals: array(object({ session: portalSession, expiresAt: time, management: bool })),
});

/** What restore checks snapshot prices against: the registration's configured prices. */
export interface CatalogView {
  get(priceId: string): { currency: string; interval: Interval } | undefined;
}

/**
 * Checks `input` is a version 1 snapshot whose references hold (customers, subscriptions, configured
 * prices) and returns a copy of it (nothing of `input` is kept). Throws a PaddleSnapshotError naming
 * the first bad field.
 */
export function readSnapshot(input: unknown, catalog: CatalogView): PaddleSnapshot {
  if (!isPlainObject(input)) fail('snapshot', `must be an object, not ${shown(input)}`);
  if (!Object.hasOwn(input, 'version')) fail('snapshot.version', 'is missing');
  if (input.version !== 1) fail('snapshot.version', `must be 1 (the only snapshot format this stand-in reads), not ${shown(input.version)}`);
  const checked = snapshot(input, 'snapshot');

  const customers = unique(checked.customers, (c) => c.customer.id, (n) => `snapshot.customers[${n}].customer.id`, 'customer');
  const subscriptions = unique(checked.subscriptions, (x) => x.id, (n) => `snapshot.subscriptions[${n}].id`, 'subscription');
  unique(checked.transactions, (t) => t.id, (n) => `snapshot.transactions[${n}].id`, 'transaction');
  unique(checked.checkouts, (c) => c.id, (n) => `snapshot.checkouts[${n}].id`, 'checkout');
  unique(checked.portals, (x) => x.session.id, (n) => `snapshot.portals[${n}].session.id`, 'portal session');

  const priceLines = (lines: Array<{ priceId: string }>, path: string, sub?: { currency: string; interval: Interval }) => {
    if (lines.length === 0) fail(path, 'must not be empty');
    const seen = new Set<string>();
    for (const [count, line] of lines.entries()) {
      const at = `${path}[${count}].priceId`;
      const known = catalog.get(line.priceId);
      if (!known) fail(at, `names the price ${line.priceId}, which is not among the plugin's prices option`);
      if (seen.has(line.priceId)) fail(at, `repeats the price ${line.priceId}`);
      seen.add(line.priceId);
      if (sub && known.currency !== sub.currency) fail(at, `names the price ${line.priceId} in ${known.currency}, the subscription is in ${sub.currency}`);
      if (sub && known.interval !== sub.interval) fail(at, `names the price ${line.priceId} billed every ${known.interval}, the subscription every ${sub.interval}`);
    }
  };

  for (const [count, sub] of checked.subscriptions.entries()) {
    const path = `snapshot.subscriptions[${count}]`;
    if (!customers.has(sub.customerId)) fail(`${path}.customerId`, `names the customer ${sub.customerId}, which is not in snapshot.customers`);
    priceLines(sub.items, `${path}.items`, sub);
    if ((sub.periodStart === null) !== (sub.periodEnd === null)) fail(`${path}.periodEnd`, 'must be null exactly when periodStart is');
    if (sub.status === 'canceled' && sub.scheduledCancelAt !== null) fail(`${path}.scheduledCancelAt`, 'must be null for a canceled subscription');
    if (sub.status === 'canceled' && sub.nextBilledAt !== null) fail(`${path}.nextBilledAt`, 'must be null for a canceled subscription');
  }
  for (const [index, transaction] of checked.transactions.entries()) {
    const path = `snapshot.transactions[${index}]`;
    // Only a transaction the API created is without a customer and a subscription (until it is paid).
    if (transaction.subscription_id === null || transaction.customer_id === null) {
      if (transaction.origin !== 'api') fail(`${path}.${transaction.subscription_id === null ? 'subscription_id' : 'customer_id'}`, 'must be set (only a transaction the API created has none until it is paid)');
      if (transaction.status !== 'draft' && transaction.status !== 'ready') fail(`${path}.status`, `must be draft or ready while the transaction has no subscription, not ${transaction.status}`);
    }
    if (transaction.customer_id !== null && !customers.has(transaction.customer_id)) fail(`${path}.customer_id`, `names the customer ${transaction.customer_id}, which is not in snapshot.customers`);
    if (transaction.subscription_id !== null && !subscriptions.has(transaction.subscription_id)) fail(`${path}.subscription_id`, `names the subscription ${transaction.subscription_id}, which is not in snapshot.subscriptions`);
  }
  for (const [count, checkout] of checked.checkouts.entries()) {
    priceLines(checkout.lines, `snapshot.checkouts[${count}].lines`);
    if (checkout.kind === 'update' && checkout.transactionId === null) fail(`snapshot.checkouts[${count}].transactionId`, 'must name the transaction a card-update checkout pays');
  }
  for (const [index, portal] of checked.portals.entries()) {
    if (!customers.has(portal.session.customer_id)) fail(`snapshot.portals[${index}].session.customer_id`, `names the customer ${portal.session.customer_id}, which is not in snapshot.customers`);
  }
  return checked;
}

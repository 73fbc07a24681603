import type { Card } from '../../kit/cards';
import { type Check, type Checked, type Fail, isPlainObject, type Shape, shown, snapshotChecks } from '../../kit/snapshot';
import type { ChargebeeInvoice, HostedPageState, PeriodUnit } from './types';

/**
 * Everything a `chargebeeSandbox` registration needs to carry on where another stopped
 * (`ChargebeeSandboxControl.snapshot()`, the `onChange` option; read back by `restore()` and the
 * `initialState` option). Plain JSON. Not kept: events and their deliveries (pending ones are lost),
 * chaos, invoice download links, expired hosted pages and portal sessions.
 */
export interface ChargebeeSnapshot {
  version: 1;
  /** The stand-in's clock when it was taken (epoch ms). */
  takenAt: number;
  /** The last resource_version handed out (ms; later ones are larger) and the last invoice number. */
  sequence: { lastVersion: number; invoiceNumber: number };
  customers: ChargebeeSnapshotCustomer[];
  subscriptions: ChargebeeSnapshotSubscription[];
  /** As answered by GET /invoices. */
  invoices: ChargebeeInvoice[];
  hostedPages: ChargebeeSnapshotHostedPage[];
  portals: ChargebeeSnapshotPortal[];
}

export interface ChargebeeSnapshotCustomer {
  id: string;
  email: string | null;
  /** Unix seconds. */
  createdAt: number;
  /** resource_version (ms). */
  version: number;
  /** Credits from downgrades and cancellations (minor units), used by the next invoices. */
  refundableCredits: number;
  currency: string | null;
  hasCard: boolean;
}

export interface ChargebeeSnapshotItem {
  itemPriceId: string;
  quantity: number;
}

/** Times in Unix seconds, `version` in ms. */
export interface ChargebeeSnapshotSubscription {
  id: string;
  customerId: string;
  status: 'active' | 'non_renewing' | 'cancelled';
  currency: string;
  periodUnit: PeriodUnit;
  period: number;
  items: ChargebeeSnapshotItem[];
  termStart: number;
  termEnd: number;
  nextBillingAt: number | null;
  startedAt: number;
  activatedAt: number;
  createdAt: number;
  cancelledAt: number | null;
  cancelScheduleCreatedAt: number | null;
  /** The unpaid invoice of a failed payment (control.failPayment), until control.recover(). */
  dueInvoiceId: string | null;
  dueSince: number | null;
  version: number;
  /** The card charged at renewals. */
  card: Card;
}

export interface ChargebeeSnapshotHostedPage {
  id: string;
  url: string;
  state: HostedPageState;
  createdAt: number;
  expiresAt: number;
  version: number;
  lines: ChargebeeSnapshotItem[];
  customerId: string | null;
  email: string | null;
  subscriptionId: string | null;
  redirectUrl: string | null;
  cancelUrl: string | null;
  passThruContent: string | null;
  result: { subscriptionId: string; customerId: string; invoiceId: string } | null;
}

export interface ChargebeeSnapshotPortal {
  id: string;
  token: string;
  accessUrl: string;
  customerId: string;
  createdAt: number;
  expiresAt: number;
  redirectUrl: string | null;
  status: 'created' | 'logged_in' | 'logged_out';
  loginAt: number | null;
  logoutAt: number | null;
  /** The portal cookie's value once the access URL was used (null before). */
  loginSecret: string | null;
}

/** A snapshot that cannot be restored; the message names the first bad field. */
export class ChargebeeSnapshotError extends Error {
  override name = 'ChargebeeSnapshotError';
}

const checks = snapshotChecks((message) => new ChargebeeSnapshotError(message));
const fail: Fail = checks.fail;
const { matching, string: str, bool, int, nullable, optional, array, unique } = checks;
const idStr = matching(/^[\w.~@-]{1,100}$/, 'an id (1-100 letters, digits, _ . ~ @ -)');
const currency = matching(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD');
const seconds = int(0, 253402300799);
const ms = int(0, 8.64e15);

/** Chargebee's snapshot names the allowed values joined with "or". */
function literal<T extends string | number | boolean>(...values: T[]): Check<T> {
  return (value, path) => (values.includes(value as T) ? (value as T) : fail(path, `must be ${values.map((x) => JSON.stringify(x)).join(' or ')}, not ${shown(value)}`));
}

/** An object with exactly these fields (a field whose check accepts undefined may be absent). */
function object<S extends Shape>(shape: S): Check<Checked<S>> {
  return (candidate, path) => {
    if (!isPlainObject(candidate)) return fail(path, `must be an object, not ${shown(candidate)}`);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const value = check(candidate[key], `${path}.${key}`);
      if (value !== undefined) out[key] = value;
    }
    for (const key of Object.keys(candidate)) if (!Object.hasOwn(shape, key)) fail(`${path}.${key}`, 'is not a field of this snapshot version');
    return out as Checked<S>;
  };
}

const card: Check<Card> = object({
  type: literal('visa', 'mastercard'),
  last4: (v, p) => (typeof v === 'string' && /^\d{4}$/.test(v) ? v : fail(p, `must be 4 digits, not ${shown(v)}`)),
  expiry_month: int(1, 12),
  expiry_year: int(2000, 9999),
  cardholder_name: nullable(str),
});

const item = object({ itemPriceId: idStr, quantity: int(1, 100) });

const lineItem = object({
  id: str,
  date_from: seconds,
  date_to: seconds,
  unit_amount: int(0),
  quantity: int(1),
  amount: int(0),
  pricing_model: literal('per_unit'),
  is_taxed: literal(false),
  tax_amount: literal(0),
  discount_amount: literal(0),
  item_level_discount_amount: literal(0),
  description: str,
  entity_type: literal('plan_item_price'),
  entity_id: idStr,
  subscription_id: idStr,
  customer_id: idStr,
  object: literal('line_item'),
});

const invoice: Check<ChargebeeInvoice> = object({
  id: idStr,
  customer_id: idStr,
  subscription_id: idStr,
  recurring: literal(true),
  status: literal('paid', 'payment_due'),
  price_type: literal('tax_exclusive'),
  date: seconds,
  due_date: seconds,
  net_term_days: literal(0),
  exchange_rate: literal(1),
  currency_code: currency,
  total: int(0),
  amount_paid: int(0),
  amount_adjusted: literal(0),
  write_off_amount: literal(0),
  credits_applied: int(0),
  amount_due: int(0),
  paid_at: optional(seconds),
  dunning_status: optional(literal('in_progress', 'success')),
  resource_version: ms,
  updated_at: seconds,
  sub_total: int(0),
  tax: literal(0),
  first_invoice: bool,
  term_finalized: literal(true),
  is_gifted: literal(false),
  generated_at: seconds,
  amount_to_collect: int(0),
  round_off_amount: literal(0),
  line_items: array(lineItem, 100),
  deleted: literal(false),
  object: literal('invoice'),
}) as Check<ChargebeeInvoice>;

const snapshot: Check<ChargebeeSnapshot> = object({
  version: literal(1),
  takenAt: ms,
  sequence: object({ lastVersion: ms, invoiceNumber: int(0) }),
  customers: array(
    object({ id: idStr, email: nullable(str), createdAt: seconds, version: ms, refundableCredits: int(0), currency: nullable(currency), hasCard: bool }),
  ),
  subscriptions: array(
    object({
      id: idStr,
      customerId: idStr,
      status: literal('active', 'non_renewing', 'cancelled'),
      currency,
      periodUnit: literal('month', 'year'),
      period: int(1, 12),
      items: array(item, 10),
      termStart: seconds,
      termEnd: seconds,
      nextBillingAt: nullable(seconds),
      startedAt: seconds,
      activatedAt: seconds,
      createdAt: seconds,
      cancelledAt: nullable(seconds),
      cancelScheduleCreatedAt: nullable(seconds),
      dueInvoiceId: nullable(idStr),
      dueSince: nullable(seconds),
      version: ms,
      card,
    }),
  ),
  invoices: array(invoice),
  hostedPages: array(
    object({
      id: idStr,
      url: str,
      state: literal('created', 'requested', 'succeeded', 'cancelled', 'failed'),
      createdAt: seconds,
      expiresAt: seconds,
      version: ms,
      lines: array(item, 10),
      customerId: nullable(idStr),
      email: nullable(str),
      subscriptionId: nullable(idStr),
      redirectUrl: nullable(str),
      cancelUrl: nullable(str),
      passThruContent: nullable(str),
      result: nullable(object({ subscriptionId: idStr, customerId: idStr, invoiceId: idStr })),
    }),
  ),
  portals: array(
    object({
      id: idStr,
      token: idStr,
      accessUrl: str,
      customerId: idStr,
      createdAt: seconds,
      expiresAt: seconds,
      redirectUrl: nullable(str),
      status: literal('created', 'logged_in', 'logged_out'),
      loginAt: nullable(seconds),
      logoutAt: nullable(seconds),
      loginSecret: nullable(str),
    }),
  ),
}) as Check<ChargebeeSnapshot>;

/** What restore checks item price ids against: the registration's configured item prices. */
export interface CatalogView {
  get(id: string): { currencyCode: string; periodUnit: PeriodUnit; period: number } | undefined;
}

/** Checks a version 1 snapshot and its references; returns a copy. Throws ChargebeeSnapshotError naming the first bad field. */
export function readSnapshot(input: unknown, catalog: CatalogView): ChargebeeSnapshot {
  if (!isPlainObject(input)) fail('snapshot', `must be an object, not ${shown(input)}`);
  if (input.version !== 1) fail('snapshot.version', `must be 1 (the only snapshot format this stand-in reads), not ${shown(input.version)}`);
  const checked = snapshot(input, 'snapshot');
  const customers = unique(checked.customers, (c) => c.id, (n) => `snapshot.customers[${n}].id`, 'customer');
  const subs = unique(checked.subscriptions, (x) => x.id, (n) => `snapshot.subscriptions[${n}].id`, 'subscription');
  const invoices = unique(checked.invoices, (x) => x.id, (n) => `snapshot.invoices[${n}].id`, 'invoice');
  unique(checked.hostedPages, (x) => x.id, (n) => `snapshot.hostedPages[${n}].id`, 'hosted page');
  unique(checked.portals, (x) => x.id, (n) => `snapshot.portals[${n}].id`, 'portal session');
  const items = (list: ChargebeeSnapshotItem[], path: string, sub?: ChargebeeSnapshotSubscription) => {
    if (list.length !== 1) fail(path, 'must list exactly one plan item price');
    const known = catalog.get(list[0]!.itemPriceId);
    if (!known) fail(`${path}[0].itemPriceId`, `names the item price ${list[0]!.itemPriceId}, which is not among the plugin's itemPrices option`);
    if (sub && (known.currencyCode !== sub.currency || known.periodUnit !== sub.periodUnit || known.period !== sub.period)) {
      fail(`${path}[0].itemPriceId`, `names the item price ${list[0]!.itemPriceId}, whose currency or billing period differs from the subscription's`);
    }
  };
  for (const [count, sub] of checked.subscriptions.entries()) {
    const path = `snapshot.subscriptions[${count}]`;
    if (!customers.has(sub.customerId)) fail(`${path}.customerId`, `names the customer ${sub.customerId}, which is not in snapshot.customers`);
    items(sub.items, `${path}.items`, sub);
    if (sub.dueInvoiceId !== null && !invoices.has(sub.dueInvoiceId)) fail(`${path}.dueInvoiceId`, `names the invoice ${sub.dueInvoiceId}, which is not in snapshot.invoices`);
    if (sub.status === 'non_renewing' && sub.cancelledAt === null) fail(`${path}.cancelledAt`, 'must be set for a non_renewing subscription');
  }
  for (const [index, inv] of checked.invoices.entries()) {
    if (!customers.has(inv.customer_id)) fail(`snapshot.invoices[${index}].customer_id`, `names the customer ${inv.customer_id}, which is not in snapshot.customers`);
    if (!subs.has(inv.subscription_id)) fail(`snapshot.invoices[${index}].subscription_id`, `names the subscription ${inv.subscription_id}, which is not in snapshot.subscriptions`);
  }
  for (const [count, page] of checked.hostedPages.entries()) {
    items(page.lines, `snapshot.hostedPages[${count}].lines`);
    if ((page.state === 'succeeded') !== (page.result !== null)) fail(`snapshot.hostedPages[${count}].result`, 'must be set exactly when the state is succeeded');
    if (page.result && !subs.has(page.result.subscriptionId)) fail(`snapshot.hostedPages[${count}].result.subscriptionId`, 'names a subscription not in snapshot.subscriptions');
  }
  for (const [index, portal] of checked.portals.entries()) {
    if (!customers.has(portal.customerId)) fail(`snapshot.portals[${index}].customerId`, `names the customer ${portal.customerId}, which is not in snapshot.customers`);
  }
  return checked;
}

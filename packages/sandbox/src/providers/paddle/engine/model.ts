import { toMinor } from '../../../kit/money';
import { derivedId } from '../ids';
import type { PaddleSnapshotSubscription } from '../snapshot';
import type { Interval, PaddleCard, PaddleCustomer, PaddleLineItem, PaddlePortalSession, PaddlePreviewDetails, PaddlePreviewTransaction, PaddlePrice, PaddleProduct, PaddleTotals, PaddleTransactionItem, PaddleUpdateSummary } from '../types';

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

export function notFound(kind: string, id: string): PaddleApiError {
  return new PaddleApiError(404, 'not_found', `${kind} ${id} not found.`);
}

export function alreadyPaid(): PaddleApiError {
  return new PaddleApiError(400, 'transaction_immutable', 'This transaction is already paid.', undefined, 'transactions');
}

export function canceledError(): PaddleApiError {
  return new PaddleApiError(400, 'subscription_update_when_canceled', 'cannot update subscription, as subscription is canceled', undefined, 'subscriptions');
}

export interface CustomerRecord {
  customer: PaddleCustomer;
  addressId: string;
  /** custom_data.userId of the checkout that made it (customers are reused by it or by email). */
  userId: string | null;
  /** Credit from downgrades (minor units per currency), used up by the next renewals. */
  credit: Map<string, number>;
}

/** A subscription as kept (the snapshot's shape). */
export type SubscriptionRecord = PaddleSnapshotSubscription;

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

export interface PortalRecord {
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

export interface PlannedChange {
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

export const MAX_SESSIONS = 1000;
/** Renewals applied at most per subscription by one tick (a clock moved years ahead). */
export const MAX_RENEWALS = 1000;

/** Whether two JSON objects are equal apart from their created_at and updated_at. */
export function sameApartFromTimes(first: object, second: object): boolean {
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
  return JSON.stringify(canonical(first)) === JSON.stringify(canonical(second));
}

export function sum(lines: Array<{ unit: number; quantity: number }>): number {
  return lines.reduce((total, l) => total + l.unit * l.quantity, 0);
}

/** A transaction line: its price, quantity, total (minor units) and proration. */
export interface Line {
  price: CatalogPrice;
  quantity: number;
  total: number;
  proration: PaddleTransactionItem['proration'];
}

/**
 * Totals of a transaction (no tax, no discount): `credit` is applied up to the subtotal; with
 * `toBalance`, the credit beyond it is `credit_to_balance` (what a preview of a downgrade shows).
 */
export function totalsOf(subtotal: number, credit: number, currency: string, toBalance: boolean): PaddleTotals {
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

export function lineItemOf(line: Line): Omit<PaddleLineItem, 'id'> {
  const unit = line.quantity > 0 ? Math.round(line.total / line.quantity) : 0;
  return {
    price_id: line.price.id,
    quantity: line.quantity,
    proration: line.proration,
    tax_rate: '0',
    unit_totals: { subtotal: String(unit), discount: '0', tax: '0', total: String(unit) },
    totals: { subtotal: String(line.total), discount: '0', tax: '0', total: String(line.total) },
    product: structuredClone(line.price.product),
  };
}

export function previewDetails(lines: Line[], credit: number, currency: string): PaddlePreviewDetails {
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

export function evict<T extends { expiresAt: number }>(map: Map<string, T>, now: number): void {
  for (const [id, value] of map) if (value.expiresAt <= now) map.delete(id);
  while (map.size >= MAX_SESSIONS) map.delete(map.keys().next().value as string);
}

export function resolvePrices(prices: PaddlePriceOption[], at: string): Map<string, CatalogPrice> {
  if (!Array.isArray(prices) || prices.length === 0) throw new RangeError('paddleSandbox: prices must list at least one price');
  const catalog = new Map<string, CatalogPrice>();
  for (const priceOption of prices) {
    if (typeof priceOption?.id !== 'string' || !/^[\w-]{1,100}$/.test(priceOption.id)) throw new RangeError(`paddleSandbox: a price id must be 1-100 letters, digits, _ or -, not ${JSON.stringify(priceOption?.id)}`);
    if (catalog.has(priceOption.id)) throw new RangeError(`paddleSandbox: price ${priceOption.id} is listed twice`);
    if (typeof priceOption.productName !== 'string' || priceOption.productName.trim() === '') throw new RangeError(`paddleSandbox: price ${priceOption.id} needs a productName`);
    if (!(typeof priceOption.amount === 'number' && Number.isFinite(priceOption.amount) && priceOption.amount >= 0)) throw new RangeError(`paddleSandbox: price ${priceOption.id}: amount must be a number >= 0`);
    if (typeof priceOption.currency !== 'string' || !/^[A-Z]{3}$/.test(priceOption.currency)) throw new RangeError(`paddleSandbox: price ${priceOption.id}: currency must be an ISO 4217 code such as USD`);
    if (priceOption.interval !== 'month' && priceOption.interval !== 'year') throw new RangeError(`paddleSandbox: price ${priceOption.id}: interval must be 'month' or 'year'`);
    const product: PaddleProduct = {
      id: derivedId('pro', priceOption.productName),
      name: priceOption.productName,
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
    const unitMinor = toMinor(priceOption.amount, priceOption.currency);
    const cycle = priceOption.interval === 'month' ? 'Monthly' : 'Yearly';
    const price: PaddlePrice = {
      id: priceOption.id,
      product_id: product.id,
      type: 'standard',
      description: `${priceOption.productName} (${cycle.toLowerCase()})`,
      name: cycle,
      billing_cycle: { interval: priceOption.interval, frequency: 1 },
      trial_period: null,
      tax_mode: 'account_setting',
      unit_price: { amount: String(unitMinor), currency_code: priceOption.currency },
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 100 },
      status: 'active',
      custom_data: null,
      import_meta: null,
      created_at: at,
      updated_at: at,
    };
    catalog.set(priceOption.id, { id: priceOption.id, productName: priceOption.productName, unitMinor, currency: priceOption.currency, interval: priceOption.interval, price, product });
  }
  return catalog;
}

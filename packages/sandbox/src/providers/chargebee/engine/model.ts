import type { ChargebeeSnapshotCustomer, ChargebeeSnapshotHostedPage, ChargebeeSnapshotItem, ChargebeeSnapshotPortal, ChargebeeSnapshotSubscription } from '../snapshot';
import type { ChargebeeEstimate, PeriodUnit } from '../types';

/** An item price the stand-in sells (ChargebeeSandboxOptions.itemPrices): a plan item price. */
export interface ChargebeeItemPriceOption {
  /** The item price id, e.g. `premium-USD-monthly`. */
  id: string;
  /** Its plan item's id, e.g. `premium`. */
  itemId: string;
  /** Shown on the checkout, portal and invoices, e.g. `Premium Monthly`. */
  name: string;
  /** Minor units (cents), e.g. 499. */
  price: number;
  currencyCode: string;
  periodUnit: PeriodUnit;
  period: number;
}

export interface EngineOptions {
  itemPrices: ChargebeeItemPriceOption[];
  clock: () => number;
  hostedPageTtlMs: number;
  portalTtlMs: number;
  downloadTtlMs: number;
}

export type CustomerRecord = ChargebeeSnapshotCustomer;
export type SubscriptionRecord = ChargebeeSnapshotSubscription;
export type HostedPageRecord = ChargebeeSnapshotHostedPage;
export type PortalRecord = ChargebeeSnapshotPortal;

export interface CheckoutInput {
  lines: ChargebeeSnapshotItem[];
  customerId: string | null;
  email: string | null;
  subscriptionId: string | null;
  redirectUrl: string | null;
  cancelUrl: string | null;
  passThruContent: string | null;
}

export interface PlanChange {
  itemPriceId: string;
  quantity: number | null;
  prorate: boolean;
}

export interface Plan {
  next: SubscriptionRecord;
  charge: number;
  credit: number;
  allocated: number;
  fromCredits: number;
  amountDue: number;
  creditsAfter: number;
  estimate: ChargebeeEstimate;
}

export interface Download {
  invoiceId: string;
  expiresAt: number;
}

export const MAX_SESSIONS = 1000;
export const MAX_RENEWALS = 1000;

export function resolveCatalog(prices: ChargebeeItemPriceOption[]): Map<string, ChargebeeItemPriceOption> {
  if (!Array.isArray(prices) || prices.length === 0) throw new RangeError('chargebeeSandbox: itemPrices must list at least one item price');
  const catalog = new Map<string, ChargebeeItemPriceOption>();
  for (const itemPriceOption of prices) {
    const name = JSON.stringify(itemPriceOption?.id);
    if (typeof itemPriceOption?.id !== 'string' || !/^[\w.~@-]{1,100}$/.test(itemPriceOption.id)) throw new RangeError(`chargebeeSandbox: an item price id must be 1-100 letters, digits, _ . ~ @ or -, not ${name}`);
    if (catalog.has(itemPriceOption.id)) throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id} is listed twice`);
    if (typeof itemPriceOption.itemId !== 'string' || !/^[\w.~@-]{1,100}$/.test(itemPriceOption.itemId)) throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id}: itemId must be 1-100 letters, digits, _ . ~ @ or -`);
    if (typeof itemPriceOption.name !== 'string' || itemPriceOption.name.trim() === '') throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id} needs a name`);
    if (!(Number.isInteger(itemPriceOption.price) && itemPriceOption.price >= 0)) throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id}: price must be a whole number of minor units (cents) >= 0`);
    if (typeof itemPriceOption.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(itemPriceOption.currencyCode)) throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id}: currencyCode must be an ISO 4217 code such as USD`);
    if (itemPriceOption.periodUnit !== 'month' && itemPriceOption.periodUnit !== 'year') throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id}: periodUnit must be 'month' or 'year'`);
    if (!(Number.isInteger(itemPriceOption.period) && itemPriceOption.period >= 1 && itemPriceOption.period <= 12)) throw new RangeError(`chargebeeSandbox: item price ${itemPriceOption.id}: period must be a whole number from 1 to 12`);
    catalog.set(itemPriceOption.id, { ...itemPriceOption });
  }
  return catalog;
}

export function evict<T extends { expiresAt: number }>(map: Map<string, T>, nowS: number): void {
  for (const [id, value] of map) if (value.expiresAt <= nowS) map.delete(id);
  while (map.size >= MAX_SESSIONS) map.delete(map.keys().next().value as string);
}

/** A period unit for people: `month`, `3 months`, `year`. */
export function periodLabel(unit: PeriodUnit, period: number): string {
  return period === 1 ? unit : `${period} ${unit}s`;
}

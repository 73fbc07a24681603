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
  for (const p of prices) {
    const name = JSON.stringify(p?.id);
    if (typeof p?.id !== 'string' || !/^[\w.~@-]{1,100}$/.test(p.id)) throw new RangeError(`chargebeeSandbox: an item price id must be 1-100 letters, digits, _ . ~ @ or -, not ${name}`);
    if (catalog.has(p.id)) throw new RangeError(`chargebeeSandbox: item price ${p.id} is listed twice`);
    if (typeof p.itemId !== 'string' || !/^[\w.~@-]{1,100}$/.test(p.itemId)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: itemId must be 1-100 letters, digits, _ . ~ @ or -`);
    if (typeof p.name !== 'string' || p.name.trim() === '') throw new RangeError(`chargebeeSandbox: item price ${p.id} needs a name`);
    if (!(Number.isInteger(p.price) && p.price >= 0)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: price must be a whole number of minor units (cents) >= 0`);
    if (typeof p.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(p.currencyCode)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: currencyCode must be an ISO 4217 code such as USD`);
    if (p.periodUnit !== 'month' && p.periodUnit !== 'year') throw new RangeError(`chargebeeSandbox: item price ${p.id}: periodUnit must be 'month' or 'year'`);
    if (!(Number.isInteger(p.period) && p.period >= 1 && p.period <= 12)) throw new RangeError(`chargebeeSandbox: item price ${p.id}: period must be a whole number from 1 to 12`);
    catalog.set(p.id, { ...p });
  }
  return catalog;
}

export function evict<T extends { expiresAt: number }>(map: Map<string, T>, nowS: number): void {
  for (const [id, v] of map) if (v.expiresAt <= nowS) map.delete(id);
  while (map.size >= MAX_SESSIONS) map.delete(map.keys().next().value as string);
}

/** A period unit for people: `month`, `3 months`, `year`. */
export function periodLabel(unit: PeriodUnit, period: number): string {
  return period === 1 ? unit : `${period} ${unit}s`;
}

import { randomBytes } from 'node:crypto';
import type { Card } from '../../../kit/cards';
import type { FastspringProductOption, IntervalUnit, SubscriptionState } from '../types';

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

export const MAX_QUANTITY = 100;
export const MAX_TAGS_JSON = 10_000;
/** Order references: `TKT` + YYMMDD + `-` + 4 digits + `-` + 4 digits + a check letter. */
export const REFERENCE_PREFIX = 'TKT';

/** FastSpring-style id: 22 characters of base64url (`OapmwBYlS8CE36nlo7Vm9w`). */
export function fsId(): string {
  return randomBytes(16).toString('base64url');
}

export function token(): string {
  return randomBytes(12).toString('base64url');
}

export function subError(status: number, action: string, id: string, message: string, key = 'subscription'): FastspringApiError {
  return new FastspringApiError(status, { action, subscription: id, result: 'error', error: { [key]: message } }, message);
}

export function notFoundSubscription(id: string, action = 'subscription.get'): FastspringApiError {
  return subError(404, action, id, 'Subscription not found');
}

export function splitName(name: string): { first: string | null; last: string | null } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: null, last: null };
  return { first: parts[0]!, last: parts.slice(1).join(' ') || null };
}

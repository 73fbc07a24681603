import type { Card } from '../../kit/cards';
import type { AccountRecord, AccountSession, CatalogProduct, CheckoutSession, FastspringEngine, OrderRecord, SubscriptionRecord } from './engine';
import type { IntervalUnit, SubscriptionState } from './types';

/**
 * Everything a `fastspringSandbox` registration needs to carry on where another one stopped
 * (`FastspringSandboxControl.snapshot()`, the `onChange` option; read back by `restore()` and the
 * `initialState` option). Plain JSON. Not kept: events and their delivery (pending or retrying ones are
 * lost), webhook chaos, expired checkouts and account links.
 */
export interface FastspringSnapshot {
  /** The snapshot format; `restore()` refuses any other. */
  version: 1;
  /** The stand-in's clock when it was taken (epoch ms). */
  takenAt: number;
  /** The last `changed` handed out (later changes sort after it) and the last order reference number. */
  sequence: { lastChanged: number; orderSeq: number };
  accounts: FastspringSnapshotAccount[];
  subscriptions: FastspringSnapshotSubscription[];
  orders: FastspringSnapshotOrder[];
  /** Checkouts not expired when it was taken (opened, or paid with their result). */
  checkouts: FastspringSnapshotCheckout[];
  /** Account-page links (GET /accounts/{id}/authenticate) not expired when it was taken. */
  accountLinks: AccountSession[];
}

export type FastspringSnapshotAccount = AccountRecord;
export type FastspringSnapshotSubscription = SubscriptionRecord;
export type FastspringSnapshotOrder = OrderRecord;
export interface FastspringSnapshotCheckout {
  id: string;
  lines: Array<{ path: string; quantity: number }>;
  tags: Record<string, unknown>;
  email: string | null;
  parentOrigin: string | null;
  expiresAt: number;
  result: { orderId: string; reference: string } | null;
}

/** A snapshot that cannot be restored; the message names the first bad field. */
export class FastspringSnapshotError extends Error {
  override name = 'FastspringSnapshotError';
}

// ----- a small validator: each check returns a copy of what it accepts, or throws -----

type Check<T> = (value: unknown, path: string) => T;

function fail(path: string, problem: string): never {
  throw new FastspringSnapshotError(`${path} ${problem}`);
}

function shown(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function matching(pattern: RegExp, what: string): Check<string> {
  return (v, p) => (typeof v === 'string' && pattern.test(v) ? v : fail(p, `must be ${what}, not ${shown(v)}`));
}

const string: Check<string> = (v, p) => (typeof v === 'string' ? v : fail(p, `must be a string, not ${shown(v)}`));
const fsIdCheck = matching(/^[A-Za-z0-9_-]{8,64}$/, 'a FastSpring id (8-64 letters, digits, _ or -)');
const currency = matching(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as USD');
const time: Check<number> = (v, p) => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15 ? v : fail(p, `must be a time in epoch milliseconds, not ${shown(v)}`));

function int(min: number, max = Number.MAX_SAFE_INTEGER): Check<number> {
  return (v, p) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(p, `must be a whole number from ${min} to ${max}, not ${shown(v)}`));
}

function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, p) => (v === null ? null : check(v, p));
}

function literal<T extends string>(...values: T[]): Check<T> {
  return (v, p) => (values.includes(v as T) ? (v as T) : fail(p, `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}, not ${shown(v)}`));
}

function array<T>(check: Check<T>, max = 1_000_000): Check<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) return fail(path, `must be an array, not ${shown(value)}`);
    if (value.length > max) return fail(path, `must have at most ${max} entries`);
    return value.map((x, n) => check(x, `${path}[${n}]`));
  };
}

function jsonValue(value: unknown, path: string, depth: number): unknown {
  if (depth > 32) return fail(path, 'is nested too deeply');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : fail(path, `must be a finite number, not ${shown(value)}`);
  if (Array.isArray(value)) return value.map((x, n) => jsonValue(x, `${path}[${n}]`, depth + 1));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, jsonValue(x, `${path}.${k}`, depth + 1)]));
  return fail(path, `must be JSON, not ${shown(value)}`);
}

const jsonObject: Check<Record<string, unknown>> = (v, p) => (isPlainObject(v) ? (jsonValue(v, p, 0) as Record<string, unknown>) : fail(p, `must be an object, not ${shown(v)}`));

type Shape = Record<string, Check<unknown>>;
type Checked<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };

/** An object with exactly these fields (an unknown field is refused too). */
function object<S extends Shape>(shape: S): Check<Checked<S>> {
  return (value, path) => {
    if (!isPlainObject(value)) return fail(path, `must be an object, not ${shown(value)}`);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      if (!Object.hasOwn(value, key)) return fail(`${path}.${key}`, 'is missing');
      out[key] = check(value[key], `${path}.${key}`);
    }
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) return fail(`${path}.${key}`, 'is not a field of this snapshot version');
    return out as Checked<S>;
  };
}

const card: Check<Card> = object({
  type: literal('visa', 'mastercard'),
  last4: matching(/^\d{4}$/, 'the last 4 digits of the card'),
  expiry_month: int(1, 12),
  expiry_year: int(2000, 9999),
  cardholder_name: nullable(string),
});

const interval = literal<IntervalUnit>('month', 'year');
const email = matching(/^[^\s@]{1,64}@[^\s@]{1,255}$/, 'an email address');

const account: Check<AccountRecord> = object({
  id: fsIdCheck,
  email,
  first: nullable(string),
  last: nullable(string),
  created: time,
  global: fsIdCheck,
});

const subscription: Check<SubscriptionRecord> = object({
  id: fsIdCheck,
  accountId: fsIdCheck,
  product: string,
  quantity: int(1, 100),
  unitMinor: int(0),
  currency,
  intervalUnit: interval,
  intervalLength: int(1, 100),
  state: literal<SubscriptionState>('active', 'canceled', 'overdue', 'deactivated'),
  begin: time,
  periodStart: time,
  next: nullable(time),
  changed: time,
  canceledDate: nullable(time),
  deactivationDate: nullable(time),
  sequence: int(0),
  tags: jsonObject,
  initialOrderId: fsIdCheck,
  initialOrderReference: string,
  card,
});

const order: Check<OrderRecord> = object({
  id: fsIdCheck,
  reference: matching(/^[A-Z0-9-]{6,40}$/, 'an order reference such as TKT260115-1234-0001A'),
  accountId: fsIdCheck,
  created: time,
  currency,
  kind: literal('checkout', 'rebill', 'proration'),
  items: array(
    object({ product: string, display: string, quantity: int(1, 100), subtotalMinor: int(0), subscription: fsIdCheck }),
    20,
  ),
  totalMinor: int(0),
  tags: jsonObject,
  invoiceKey: fsIdCheck,
  card,
  email,
  first: nullable(string),
  last: nullable(string),
});

const checkout: Check<FastspringSnapshotCheckout> = object({
  id: fsIdCheck,
  lines: array(object({ path: string, quantity: int(1, 100) }), 20),
  tags: jsonObject,
  email: nullable(email),
  parentOrigin: nullable(matching(/^https?:\/\/[^\s/]+$/, 'an http(s) origin')),
  expiresAt: time,
  result: nullable(object({ orderId: fsIdCheck, reference: string })),
});

const accountLink: Check<AccountSession> = object({ token: fsIdCheck, accountId: fsIdCheck, expiresAt: time });

const snapshotCheck: Check<FastspringSnapshot> = object({
  version: (v, p) => (v === 1 ? 1 : fail(p, `must be 1 (this stand-in's snapshot format), not ${shown(v)}`)),
  takenAt: time,
  sequence: object({ lastChanged: time, orderSeq: int(0) }),
  accounts: array(account),
  subscriptions: array(subscription),
  orders: array(order),
  checkouts: array(checkout),
  accountLinks: array(accountLink),
}) as Check<FastspringSnapshot>;

export function takeSnapshot(engine: FastspringEngine): FastspringSnapshot {
  const now = engine.now();
  return structuredClone({
    version: 1 as const,
    takenAt: now,
    sequence: { lastChanged: engine.lastChanged, orderSeq: engine.orderSeq },
    accounts: [...engine.accounts.values()],
    subscriptions: [...engine.subs.values()],
    orders: [...engine.orders.values()],
    checkouts: [...engine.checkouts.values()]
      .filter((c) => c.expiresAt > now)
      .map((c) => ({ ...c, lines: c.lines.map((l) => ({ path: l.product.path, quantity: l.quantity })) })),
    accountLinks: [...engine.sessions.values()].filter((s) => s.expiresAt > now),
  });
}

/**
 * Checks a snapshot whole (fields, kinds, references between its parts, products the plugin still
 * sells) and only then replaces the engine's state with it. Throws FastspringSnapshotError naming the
 * first bad field; nothing changes then.
 */
export function restoreSnapshot(engine: FastspringEngine, input: unknown): void {
  const snap = snapshotCheck(input, 'snapshot');
  const accountIds = new Set<string>();
  for (const [count, account] of snap.accounts.entries()) {
    if (accountIds.has(account.id)) fail(`snapshot.accounts[${count}].id`, `repeats ${account.id}`);
    accountIds.add(account.id);
  }
  const orderIds = new Set(snap.orders.map((o) => o.id));
  const subIds = new Set(snap.subscriptions.map((s) => s.id));
  for (const [count, subscription] of snap.subscriptions.entries()) {
    if (!accountIds.has(subscription.accountId)) fail(`snapshot.subscriptions[${count}].accountId`, `names no account of the snapshot (${subscription.accountId})`);
    if (!engine.catalog.has(subscription.product)) fail(`snapshot.subscriptions[${count}].product`, `is not one of the plugin's products (${subscription.product})`);
    if (!orderIds.has(subscription.initialOrderId)) fail(`snapshot.subscriptions[${count}].initialOrderId`, `names no order of the snapshot (${subscription.initialOrderId})`);
    if (subscription.state !== 'deactivated' && subscription.next === null) fail(`snapshot.subscriptions[${count}].next`, `must be a time for a ${subscription.state} subscription`);
  }
  for (const [orderIndex, order] of snap.orders.entries()) {
    if (!accountIds.has(order.accountId)) fail(`snapshot.orders[${orderIndex}].accountId`, `names no account of the snapshot (${order.accountId})`);
    for (const [index, line] of order.items.entries()) if (!subIds.has(line.subscription)) fail(`snapshot.orders[${orderIndex}].items[${index}].subscription`, `names no subscription of the snapshot (${line.subscription})`);
  }
  const checkouts: CheckoutSession[] = snap.checkouts.map((checkout, count) => ({
    ...checkout,
    lines: checkout.lines.map((line, index) => {
      const product: CatalogProduct | undefined = engine.catalog.get(line.path);
      if (!product) fail(`snapshot.checkouts[${count}].lines[${index}].path`, `is not one of the plugin's products (${line.path})`);
      return { product, quantity: line.quantity };
    }),
  }));
  for (const [count, accountSession] of snap.accountLinks.entries()) if (!accountIds.has(accountSession.accountId)) fail(`snapshot.accountLinks[${count}].accountId`, `names no account of the snapshot (${accountSession.accountId})`);

  engine.accounts = new Map(snap.accounts.map((a) => [a.id, a]));
  engine.subs = new Map(snap.subscriptions.map((s) => [s.id, s]));
  engine.orders = new Map(snap.orders.map((o) => [o.id, o]));
  engine.checkouts = new Map(checkouts.map((c) => [c.id, c]));
  engine.sessions = new Map(snap.accountLinks.map((l) => [l.token, l]));
  engine.lastChanged = Math.max(engine.lastChanged, snap.sequence.lastChanged, ...snap.subscriptions.map((s) => s.changed));
  engine.orderSeq = Math.max(snap.sequence.orderSeq, engine.orderSeq);
  engine.changed();
}

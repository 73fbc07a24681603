import type { Card } from '../../kit/cards';
import { type Check, type Fail, shown, snapshotChecks } from '../../kit/snapshot';
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

const checks = snapshotChecks((message) => new FastspringSnapshotError(message));
const fail: Fail = checks.fail;
const { matching, string, time, int, nullable, literal, array, object } = checks;
const fsIdCheck = matching(/^[A-Za-z0-9_-]{8,64}$/, 'a FastSpring id (8-64 letters, digits, _ or -)');
const currency = matching(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as USD');
const jsonObject = checks.jsonObject();

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

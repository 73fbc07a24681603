import type { EntitlementRecord, ResolvedSku, SubscriptionRecord } from './engine';

/**
 * The durable state of the monetization stand-in (`MonetizationControl.snapshot()`, the `onChange`
 * option; read back by `restore()` and the `initialState` option). Plain JSON, times in epoch ms.
 * Not kept: webhook events and their deliveries (one pending or retrying is lost), chaos.
 */
export interface MonetizationSnapshot {
  version: 1;
  /** The stand-in's clock when taken (epoch ms). */
  takenAt: number;
  /** The last snowflake made: ids made after a restore sort after it. */
  lastId: string;
  entitlements: MonetizationSnapshotEntitlement[];
  subscriptions: MonetizationSnapshotSubscription[];
}

export type MonetizationSnapshotEntitlement = EntitlementRecord;
export type MonetizationSnapshotSubscription = SubscriptionRecord;

/** A snapshot that cannot be restored; the message names the first bad field. */
export class MonetizationSnapshotError extends Error {
  override name = 'MonetizationSnapshotError';
}

type Check<T> = (value: unknown, path: string) => T;

function fail(path: string, problem: string): never {
  throw new MonetizationSnapshotError(`${path} ${problem}`);
}

function shown(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const snowflake: Check<string> = (v, p) => (typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) < 1n << 64n ? v : fail(p, `must be a snowflake (a decimal string), not ${shown(v)}`));
const time: Check<number> = (v, p) => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15 ? v : fail(p, `must be a time in epoch milliseconds, not ${shown(v)}`));
const bool: Check<boolean> = (v, p) => (typeof v === 'boolean' ? v : fail(p, `must be true or false, not ${shown(v)}`));

function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, p) => (v === null ? null : check(v, p));
}

function oneOf<T extends number>(...values: T[]): Check<T> {
  return (v, p) => (values.includes(v as T) ? (v as T) : fail(p, `must be one of ${values.join(', ')}, not ${shown(v)}`));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function record<T>(shape: { [K in keyof T]: Check<T[K]> }): Check<T> {
  return (value, path) => {
    if (!isObject(value)) return fail(path, `must be an object, not ${shown(value)}`);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape) as Array<[string, Check<unknown>]>) {
      if (!Object.hasOwn(value, key)) return fail(`${path}.${key}`, 'is missing');
      out[key] = check(value[key], `${path}.${key}`);
    }
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) fail(`${path}.${key}`, 'is not a field of this snapshot version');
    return out as T;
  };
}

function list<T>(check: Check<T>): Check<T[]> {
  return (v, p) => (Array.isArray(v) ? v.map((x, n) => check(x, `${p}[${n}]`)) : fail(p, `must be an array, not ${shown(v)}`));
}

const entitlement = record<EntitlementRecord>({
  id: snowflake,
  skuId: snowflake,
  userId: nullable(snowflake),
  guildId: nullable(snowflake),
  type: oneOf(1, 2, 3, 4, 5, 6, 7, 8),
  deleted: bool,
  startsAt: nullable(time),
  endsAt: nullable(time),
  consumed: bool,
  subscriptionId: nullable(snowflake),
});

const subscription = record<SubscriptionRecord>({
  id: snowflake,
  userId: snowflake,
  skuId: snowflake,
  entitlementId: snowflake,
  status: oneOf(0, 1, 2),
  periodStart: time,
  periodEnd: time,
  canceledAt: nullable(time),
});

const snapshot = record<MonetizationSnapshot>({
  version: oneOf(1),
  takenAt: time,
  lastId: snowflake,
  entitlements: list(entitlement),
  subscriptions: list(subscription),
});

/**
 * Checks `input` is a version 1 snapshot whose references hold (configured SKUs, each subscription's
 * entitlement and back) and returns a fresh copy. Throws a MonetizationSnapshotError naming the first bad field.
 */
export function readSnapshot(input: unknown, skuOf: (id: string) => ResolvedSku | undefined): MonetizationSnapshot {
  if (isObject(input) && Object.hasOwn(input, 'version') && input.version !== 1) {
    fail('snapshot.version', `must be 1 (the only snapshot format this stand-in reads), not ${shown(input.version)}`);
  }
  const checked = snapshot(input, 'snapshot');
  const entitlements = new Map<string, EntitlementRecord>();
  for (const [count, entitlement] of checked.entitlements.entries()) {
    const at = `snapshot.entitlements[${count}]`;
    if (entitlements.has(entitlement.id)) fail(`${at}.id`, `repeats the entitlement ${entitlement.id}`);
    entitlements.set(entitlement.id, entitlement);
    if (!skuOf(entitlement.skuId)) fail(`${at}.skuId`, `names the SKU ${entitlement.skuId}, which is not among the monetization.skus option`);
    if (entitlement.userId === null && entitlement.guildId === null) fail(`${at}.userId`, 'and guildId must not both be null');
  }
  const seen = new Set<string>();
  for (const [count, subscription] of checked.subscriptions.entries()) {
    const at = `snapshot.subscriptions[${count}]`;
    if (seen.has(subscription.id)) fail(`${at}.id`, `repeats the subscription ${subscription.id}`);
    seen.add(subscription.id);
    if (skuOf(subscription.skuId)?.type !== 5) fail(`${at}.skuId`, `names the SKU ${subscription.skuId}, which is not a subscription SKU of the monetization.skus option`);
    const entitlement = entitlements.get(subscription.entitlementId);
    if (!entitlement) fail(`${at}.entitlementId`, `names the entitlement ${subscription.entitlementId}, which is not in snapshot.entitlements`);
    if (entitlement.subscriptionId !== subscription.id) fail(`${at}.entitlementId`, `names the entitlement ${subscription.entitlementId}, whose subscriptionId is not ${subscription.id}`);
    if (subscription.periodEnd <= subscription.periodStart) fail(`${at}.periodEnd`, 'must be after periodStart');
  }
  for (const [index, entitlement] of checked.entitlements.entries()) {
    if (entitlement.subscriptionId !== null && !seen.has(entitlement.subscriptionId)) {
      fail(`snapshot.entitlements[${index}].subscriptionId`, `names the subscription ${entitlement.subscriptionId}, which is not in snapshot.subscriptions`);
    }
  }
  return checked;
}

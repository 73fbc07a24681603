import { type Check, type Fail, isPlainObject, type Shape, shown, snapshotChecks } from '../../kit/snapshot';
import type { EntitlementRecord, ResolvedSku, SubscriptionRecord } from './records';

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

const checks = snapshotChecks((message) => new MonetizationSnapshotError(message));
const fail: Fail = checks.fail;
const { time, bool, nullable, literal: oneOf, array: list } = checks;
const snowflake: Check<string> = (value, path) =>
  typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 1n << 64n ? value : fail(path, `must be a snowflake (a decimal string), not ${shown(value)}`);

/** An object with exactly the fields of T. */
function record<T>(shape: { [K in keyof T]: Check<T[K]> }): Check<T> {
  return checks.object(shape as Shape) as Check<T>;
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
  if (isPlainObject(input) && Object.hasOwn(input, 'version') && input.version !== 1) {
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

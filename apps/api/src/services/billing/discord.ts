import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { SNOWFLAKE_PATTERN } from '@tickety/api-contract';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { isoMicros } from './paddle';
import { type PriceBook, storeSubscription } from './subscriptions';
import type { Applier, InboxEvent, SubscriptionState } from './types';

/** The DER prefix of an Ed25519 public key (SubjectPublicKeyInfo): the raw 32 bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** An application's "Public Key" (64 hex characters) as a key object; throws on anything else. */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new RangeError('a Discord public key is 64 hexadecimal characters');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/**
 * Discord's Webhook Events check: Ed25519 over the timestamp header followed by the raw body, with
 * the application's public key (several during a rotation of ours). Discord gives no age rule; we
 * refuse a timestamp further than `toleranceSeconds` from now either way (a replayed old request).
 */
export function verifyDiscordSignature(
  raw: Buffer,
  signature: string | undefined,
  timestamp: string | undefined,
  keys: readonly KeyObject[],
  nowMs: number,
  toleranceSeconds: number,
): string | null {
  if (!signature || !timestamp) return 'the X-Signature-Ed25519 or X-Signature-Timestamp header is missing';
  if (!/^[0-9a-f]{128}$/i.test(signature)) return 'the signature is not 64 bytes of hex';
  if (!/^\d{1,12}$/.test(timestamp)) return 'the timestamp is not a number of seconds';
  const age = nowMs / 1000 - Number(timestamp);
  if (age > toleranceSeconds || age < -toleranceSeconds) return `the signature is ${Math.round(age)} s old (at most ${toleranceSeconds} s)`;
  const message = Buffer.concat([Buffer.from(timestamp), raw]);
  const sig = Buffer.from(signature, 'hex');
  return keys.some((key) => verify(null, message, key, sig)) ? null : 'no signature matches';
}

const Snowflake = z.string().regex(SNOWFLAKE_PATTERN);

export const DiscordEntitlement = z.object({
  id: Snowflake,
  sku_id: Snowflake,
  application_id: Snowflake,
  user_id: Snowflake.nullish(),
  guild_id: Snowflake.nullish(),
  type: z.number().int(),
  deleted: z.boolean(),
  starts_at: z.iso.datetime({ offset: true }).nullish(),
  ends_at: z.iso.datetime({ offset: true }).nullish(),
  consumed: z.boolean().nullish(),
  subscription_id: Snowflake.nullish(),
});
export type DiscordEntitlement = z.infer<typeof DiscordEntitlement>;

/**
 * An event's time. Discord writes it without a zone (`2024-10-07T20:46:10.677000`), meaning UTC: it
 * is read as UTC (a zone, when given, is kept).
 */
const EventTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/, 'must be an ISO date and time')
  .transform((v) => (/(Z|[+-]\d{2}:\d{2})$/.test(v) ? v : `${v}Z`))
  .refine((v) => Number.isFinite(Date.parse(v)), 'must be a real date and time');

/** A Webhook Events body: a PING (type 0) or an event (type 1). */
export const DiscordWebhookBody = z.discriminatedUnion('type', [
  z.object({ version: z.literal(1), application_id: Snowflake, type: z.literal(0) }),
  z.object({
    version: z.literal(1),
    application_id: Snowflake,
    type: z.literal(1),
    event: z.object({ type: z.string().min(1).max(100), timestamp: EventTime, data: z.record(z.string(), z.unknown()) }),
  }),
]);
type DiscordEvent = Extract<z.infer<typeof DiscordWebhookBody>, { type: 1 }>['event'];

/** The entitlement events billing applies; the rest (APPLICATION_AUTHORIZED, …) are acknowledged and ignored. */
const ENTITLEMENT_EVENTS = new Set(['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE', 'ENTITLEMENT_DELETE']);

/**
 * The inbox's view of an event. Discord gives events no id: the key is the event's type, its
 * entitlement and its timestamp (a redelivery repeats all three).
 */
export function discordInboxEvent(event: DiscordEvent): InboxEvent {
  const id = typeof event.data.id === 'string' ? event.data.id : '';
  return { key: `${event.type}:${id}:${event.timestamp}`, type: event.type, subject: id || null, occurredAt: event.timestamp, payload: event };
}

/**
 * An entitlement in the model's terms. Perks follow entitlements (not the subscription's status), so
 * the entitlement is the model's subscription: its id is the provider subscription id, its user the
 * owner (Discord ids are our users' ids), its SKU the plan. `versionMicros` orders descriptions: the
 * event's timestamp, or the time of the API read for reconciliation.
 */
export function discordSubscriptionState(data: unknown, prices: PriceBook, versionMicros: string, nowMs: number): SubscriptionState {
  const entitlement = DiscordEntitlement.parse(data);
  const found = prices.find('discord', entitlement.sku_id);
  const ends = entitlement.ends_at ? Date.parse(entitlement.ends_at) : null;
  const started = !entitlement.starts_at || Date.parse(entitlement.starts_at) <= nowMs;
  const live = !entitlement.deleted && !entitlement.consumed && started && (ends === null || ends > nowMs);
  if (!found && live) throw new Error(`discord SKU ${entitlement.sku_id} is not in the plan catalogue (providerPrices in config/plans.json)`);
  const status = entitlement.deleted ? 'deleted' : !started ? 'scheduled' : !live ? 'ended' : ends !== null ? 'ending' : 'active';
  return {
    provider: 'discord',
    providerSubscriptionId: entitlement.id,
    userId: entitlement.user_id ?? null,
    checkout: null,
    ownerFromCustomer: false,
    // A server subscription gives premium to its server (one slot, fixed there), not a slot to the buyer.
    guildId: entitlement.guild_id ?? null,
    customerId: entitlement.user_id ?? null,
    status,
    // Premium while the entitlement lasts: a set end is kept as `accessEndsAt` (premium stops then
    // even if no event comes); a deleted (refunded) one ends now.
    // One that has not started yet gives nothing now (reconciliation stores it again once it has).
    premium: !entitlement.deleted && !entitlement.consumed && started,
    pastDue: false,
    planId: found?.plan.id ?? null,
    interval: found?.interval ?? null,
    slots: found ? (entitlement.guild_id ? 1 : found.plan.limits.servers) : null,
    currentPeriodEnd: entitlement.ends_at ?? null,
    cancelAtPeriodEnd: ends !== null && !entitlement.deleted,
    accessEndsAt: entitlement.ends_at ?? null,
    version: versionMicros,
  };
}

/** The application's purchases that are not its subscriptions: any other SKU's (a consumable, a durable item), unless it is an app subscription. */
export function sellsAsPlan(data: Record<string, unknown>, prices: PriceBook): boolean {
  const sku = typeof data.sku_id === 'string' ? data.sku_id : '';
  return prices.find('discord', sku) !== null || data.type === 8;
}

/** Applies a stored Discord event: an entitlement event stores the entitlement. */
export function discordApplier(clock: Clock, prices: PriceBook, graceDays: number): Applier {
  return async (tx, event) => {
    const notification = event.payload as DiscordEvent;
    if (!ENTITLEMENT_EVENTS.has(notification.type)) return `ignored: ${notification.type} changes nothing here`;
    // Another kind of purchase of the application (a consumable, say) is none of billing's business.
    if (!sellsAsPlan(notification.data, prices)) return `ignored: SKU ${String(notification.data.sku_id)} is not a plan`;
    // A deletion ends the entitlement whatever its data says (its `deleted` flag, or a SKU gone from
    // the catalogue since): read it as deleted, so it never waits for a plan it no longer needs.
    const data = notification.type === 'ENTITLEMENT_DELETE' ? { ...notification.data, deleted: true } : notification.data;
    return storeSubscription(tx, clock, discordSubscriptionState(data, prices, isoMicros(notification.timestamp), clock()), graceDays);
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { FASTSPRING_CHECKOUT_REFERENCE } from './fastspring-secure';
import { type PriceBook, storeSubscription } from './subscriptions';
import type { Applier, InboxEvent, SubscriptionState } from './types';

/**
 * FastSpring's message security: `X-FS-Signature` is the base64 HMAC-SHA256 of the raw body with
 * the webhook's secret (every configured secret is tried: ours rotate). FastSpring signs no time, so
 * a replay is stopped by the event ids alone (the inbox stores each once).
 */
export function verifyFastspringSignature(raw: Buffer, header: string | undefined, secrets: readonly string[]): string | null {
  if (!header) return 'the X-FS-Signature header is missing';
  let given: Buffer;
  try {
    given = Buffer.from(header.trim(), 'base64');
  } catch {
    return 'the signature is not base64';
  }
  if (given.length !== 32) return 'the signature is not a base64 HMAC-SHA256';
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(raw).digest();
    if (timingSafeEqual(given, expected)) return null;
  }
  return 'no signature matches';
}

const FsEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  live: z.boolean().optional(),
  processed: z.boolean().optional(),
  created: z.number().int().nonnegative(),
  data: z.record(z.string(), z.unknown()),
});
/** A FastSpring POST: several events at once. */
export const FastspringBatch = z.object({ events: z.array(FsEvent).min(1).max(500) });
export type FastspringEvent = z.infer<typeof FsEvent>;

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null);

/** The inbox's view of one event of a batch; the key is FastSpring's event id (its retries keep it). */
export function fastspringInboxEvent(event: FastspringEvent): InboxEvent {
  const subject = event.type.startsWith('subscription.') ? idOf(event.data.id) ?? idOf(event.data.subscription) : null;
  return { key: event.id, type: event.type, subject, occurredAt: new Date(event.created).toISOString(), payload: event };
}

const Subscription = z.object({
  id: z.string().min(1).max(100),
  state: z.enum(['active', 'overdue', 'canceled', 'deactivated', 'trial']),
  changed: z.number().int().nonnegative(),
  account: z.union([z.string(), z.object({ id: z.string() }).passthrough()]),
  product: z.union([z.string(), z.object({ product: z.string() }).passthrough()]),
  quantity: z.number().int().min(0).max(1000).optional(),
  next: z.number().int().nullish(),
  end: z.number().int().nullish(),
  deactivationDate: z.number().int().nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
});

const iso = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

/** FastSpring's subscription object in the model's terms. */
export function fastspringSubscriptionState(data: unknown, prices: PriceBook): SubscriptionState {
  const sub = Subscription.parse(data);
  const product = typeof sub.product === 'string' ? sub.product : sub.product.product;
  const found = prices.find('fastspring', product);
  // Premium until deactivation: a canceled subscription keeps it to the end of its period.
  const premium = sub.state === 'active' || sub.state === 'trial' || sub.state === 'canceled';
  if (!found && (premium || sub.state === 'overdue')) throw new Error(`fastspring product ${product} is not in the plan catalogue (providerPrices in config/plans.json)`);
  // The buyer is the user of the checkout this server made: its reference is in the secure payload's
  // tags. Any tag can also be added in the browser (builder.tag), so no tag names a user here, and a
  // reference counts only as one this server recorded (an unguessable one, sent to its buyer alone).
  const reference = typeof sub.tags?.checkout === 'string' && FASTSPRING_CHECKOUT_REFERENCE.test(sub.tags.checkout) ? sub.tags.checkout : null;
  const canceled = sub.state === 'canceled';
  return {
    provider: 'fastspring',
    providerSubscriptionId: sub.id,
    userId: null,
    checkout: reference,
    ownerFromCustomer: false,
    guildId: null,
    customerId: typeof sub.account === 'string' ? sub.account : sub.account.id,
    status: sub.state,
    premium,
    pastDue: sub.state === 'overdue',
    planId: found?.plan.id ?? null,
    interval: found?.interval ?? null,
    slots: found ? found.plan.limits.servers * Math.max(1, sub.quantity ?? 1) : null,
    currentPeriodEnd: iso(sub.next ?? sub.end),
    cancelAtPeriodEnd: canceled,
    accessEndsAt: canceled ? iso(sub.deactivationDate ?? sub.next ?? sub.end) : null,
    // `changed` is FastSpring's time of this description (ms): microseconds, like the other providers.
    version: (BigInt(sub.changed) * 1000n).toString(),
  };
}

/** Applies a stored FastSpring event: every subscription event carries the whole subscription. */
export function fastspringApplier(clock: Clock, prices: PriceBook, graceDays: number): Applier {
  return async (tx, event) => {
    const notification = FsEvent.parse(event.payload);
    if (!notification.type.startsWith('subscription.')) return `ignored: ${notification.type} changes nothing here`;
    // Reminders and charge results carry the subscription too (as an object or its id); only a whole
    // object is stored.
    const data = notification.data.subscription && typeof notification.data.subscription === 'object' ? notification.data.subscription : notification.data;
    if (typeof (data as { state?: unknown }).state !== 'string') return `ignored: ${notification.type} carries no subscription state`;
    return storeSubscription(tx, clock, fastspringSubscriptionState(data, prices), graceDays);
  };
}

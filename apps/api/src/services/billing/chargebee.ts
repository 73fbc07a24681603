import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { type PriceBook, storePaymentMethod, storeSubscription } from './subscriptions';
import type { Applier, InboxEvent, SubscriptionState } from './types';

/**
 * Chargebee signs nothing: its webhooks are protected by HTTP basic authentication over HTTPS. The
 * `Authorization` header is compared in constant time with each configured `user:password` (hashes of
 * equal length, so neither the length nor the content leaks).
 */
export function verifyChargebeeAuth(header: string | undefined, credentials: readonly string[]): string | null {
  if (!header) return 'the Authorization header is missing';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header.trim());
  if (!match) return 'the Authorization header is not HTTP basic';
  const given = createHash('sha256').update(Buffer.from(match[1]!, 'base64')).digest();
  const ok = credentials.some((c) => timingSafeEqual(given, createHash('sha256').update(c).digest()));
  return ok ? null : 'the user name or password is wrong';
}

/** A Chargebee event (one per POST). */
export const ChargebeeEvent = z.object({
  id: z.string().min(1).max(100),
  occurred_at: z.number().int().nonnegative(),
  object: z.literal('event').optional(),
  api_version: z.string().optional(),
  event_type: z.string().min(1).max(100),
  content: z.record(z.string(), z.unknown()),
});
export type ChargebeeEvent = z.infer<typeof ChargebeeEvent>;

export function chargebeeInboxEvent(event: ChargebeeEvent): InboxEvent {
  const sub = event.content.subscription as { id?: unknown } | undefined;
  return {
    key: event.id,
    type: event.event_type,
    subject: typeof sub?.id === 'string' ? sub.id : null,
    occurredAt: new Date(event.occurred_at * 1000).toISOString(),
    payload: event,
  };
}

const Subscription = z.object({
  id: z.string().min(1).max(100),
  customer_id: z.string().min(1).max(100),
  status: z.enum(['future', 'in_trial', 'active', 'non_renewing', 'paused', 'cancelled', 'transferred']),
  current_term_end: z.number().int().nullish(),
  cancelled_at: z.number().int().nullish(),
  due_invoices_count: z.number().int().nullish(),
  subscription_items: z.array(z.object({ item_price_id: z.string().min(1), item_type: z.string().optional(), quantity: z.number().int().nullish() })).min(1),
  resource_version: z.number().int().nonnegative(),
  deleted: z.boolean().optional(),
});

const iso = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000).toISOString() : null);

/** Chargebee's subscription (Product Catalog 2.0) in the model's terms. */
export function chargebeeSubscriptionState(data: unknown, prices: PriceBook): SubscriptionState {
  const sub = Subscription.parse(data);
  const plan = sub.subscription_items.find((i) => i.item_type === undefined || i.item_type === 'plan') ?? sub.subscription_items[0]!;
  const found = prices.find('chargebee', plan.item_price_id);
  // A deleted subscription gives nothing, whatever status it still carries.
  const live = !sub.deleted && (sub.status === 'in_trial' || sub.status === 'active' || sub.status === 'non_renewing');
  // Unpaid invoices on a live subscription: Chargebee is dunning (premium kept for the grace period).
  const pastDue = live && (sub.due_invoices_count ?? 0) > 0;
  if (!found && live) throw new Error(`chargebee item price ${plan.item_price_id} is not in the plan catalogue (providerPrices in config/plans.json)`);
  const ending = sub.status === 'non_renewing';
  return {
    provider: 'chargebee',
    providerSubscriptionId: sub.id,
    // The owner comes from the customer's link, made by the API before its hosted checkout.
    userId: null,
    checkout: null,
    ownerFromCustomer: true,
    guildId: null,
    customerId: sub.customer_id,
    status: sub.deleted ? 'deleted' : sub.status,
    premium: live && !pastDue,
    pastDue,
    planId: found?.plan.id ?? null,
    interval: found?.interval ?? null,
    slots: found ? found.plan.limits.servers * Math.max(1, plan.quantity ?? 1) : null,
    currentPeriodEnd: iso(sub.current_term_end),
    cancelAtPeriodEnd: ending,
    accessEndsAt: ending ? iso(sub.cancelled_at ?? sub.current_term_end) : null,
    // resource_version is Chargebee's per-change version (milliseconds): as microseconds like the others.
    version: (BigInt(sub.resource_version) * 1000n).toString(),
  };
}

const Invoice = z.object({ id: z.string(), subscription_id: z.string().nullish(), paid_at: z.number().int().nullish(), date: z.number().int().nullish() });
const Transaction = z.object({ payment_method: z.string().nullish(), masked_card_number: z.string().nullish(), date: z.number().int().nullish() });

/** Applies a stored Chargebee event: its subscription (if any) and, for a payment, the card used. */
export function chargebeeApplier(clock: Clock, prices: PriceBook, graceDays: number): Applier {
  return async (tx, event) => {
    const notification = ChargebeeEvent.parse(event.payload);
    const outcomes: string[] = [];
    if (notification.content.subscription) {
      const sub = notification.event_type === 'subscription_deleted' ? { ...(notification.content.subscription as object), deleted: true } : notification.content.subscription;
      outcomes.push(await storeSubscription(tx, clock, chargebeeSubscriptionState(sub, prices), graceDays));
    }
    if (notification.event_type === 'payment_succeeded' && notification.content.transaction && notification.content.invoice) {
      const txn = Transaction.safeParse(notification.content.transaction);
      const inv = Invoice.safeParse(notification.content.invoice);
      if (txn.success && inv.success && inv.data.subscription_id && txn.data.masked_card_number) {
        const last4 = txn.data.masked_card_number.replace(/\D/g, '').slice(-4);
        outcomes.push(await storePaymentMethod(tx, 'chargebee', inv.data.subscription_id, `Card •••• ${last4}`, iso(txn.data.date ?? notification.occurred_at)!));
      }
    }
    return outcomes.length > 0 ? outcomes.join('; ') : `ignored: ${notification.event_type} changes nothing here`;
  };
}

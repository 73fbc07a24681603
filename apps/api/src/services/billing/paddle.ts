import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { type PriceBook, storePaymentMethod, storeSubscription } from './subscriptions';
import type { Applier, InboxEvent, SubscriptionState } from './types';

/**
 * Paddle Billing webhooks (docs/api.md, "Webhooks"). Our own verifier, not the SDK's: it accepts
 * every `h1` of the header (Paddle sends several while a destination's secret rotates; the SDK keeps
 * only the last) and every configured secret (ours rotate too).
 */
export function verifyPaddleSignature(raw: Buffer, header: string | undefined, secrets: readonly string[], nowMs: number, toleranceSeconds: number): string | null {
  if (!header) return 'the Paddle-Signature header is missing';
  let ts: string | null = null;
  const h1: Buffer[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'h1' && /^[0-9a-f]{64}$/i.test(value)) h1.push(Buffer.from(value, 'hex'));
  }
  if (ts === null || !/^\d{1,12}$/.test(ts) || h1.length === 0) return 'the Paddle-Signature header has no ts or h1';
  const age = nowMs / 1000 - Number(ts);
  // A little clock skew the other way is allowed; an old signature is a replay.
  if (age > toleranceSeconds || age < -toleranceSeconds) return `the signature is ${Math.round(age)} s old (at most ${toleranceSeconds} s)`;
  const signed = Buffer.concat([Buffer.from(`${ts}:`), raw]);
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(signed).digest();
    if (h1.some((h) => h.length === expected.length && timingSafeEqual(h, expected))) return null;
  }
  return 'no signature matches';
}

/** The envelope of every Paddle notification. */
export const PaddleEnvelope = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  occurred_at: z.iso.datetime({ offset: true }),
  notification_id: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()),
});

const Subscription = z.object({
  id: z.string().min(1).max(100),
  status: z.enum(['active', 'trialing', 'past_due', 'paused', 'canceled']),
  customer_id: z.string().min(1).max(100).nullish(),
  updated_at: z.iso.datetime({ offset: true }),
  current_billing_period: z.object({ starts_at: z.string(), ends_at: z.iso.datetime({ offset: true }) }).nullish(),
  scheduled_change: z.object({ action: z.enum(['cancel', 'pause', 'resume']), effective_at: z.iso.datetime({ offset: true }) }).nullish(),
  items: z.array(z.object({ quantity: z.number().int().min(0).max(1000), price: z.object({ id: z.string().min(1) }) })).min(1),
  // Only in `subscription.created`: the transaction that made it (ours when the API created it for a checkout).
  transaction_id: z.string().min(1).max(100).nullish(),
});

const Transaction = z.object({
  id: z.string().min(1),
  subscription_id: z.string().min(1).nullish(),
  billed_at: z.iso.datetime({ offset: true }).nullish(),
  updated_at: z.iso.datetime({ offset: true }),
  payments: z
    .array(
      z.object({
        status: z.string().optional(),
        method_details: z.object({ type: z.string(), card: z.object({ type: z.string(), last4: z.string().regex(/^\d{4}$/) }).nullish() }).nullish(),
      }),
    )
    .default([]),
});

/** An ISO time as microseconds since 1970 (Paddle's times carry microseconds), a decimal string. */
export function isoMicros(value: string): string {
  const ms = Date.parse(value);
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  const micros = Number((fraction + '000000').slice(3, 6));
  return (BigInt(Math.floor(ms)) * 1000n + BigInt(micros)).toString();
}

/** The inbox's view of a verified notification. */
export function paddleInboxEvent(envelope: z.infer<typeof PaddleEnvelope>): InboxEvent {
  const data = envelope.data as { id?: unknown; subscription_id?: unknown };
  const subject = envelope.event_type.startsWith('subscription.') ? data.id : data.subscription_id;
  return { key: envelope.event_id, type: envelope.event_type, subject: typeof subject === 'string' ? subject : null, occurredAt: envelope.occurred_at, payload: envelope };
}

const CARD_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', american_express: 'American Express', discover: 'Discover', jcb: 'JCB', maestro: 'Maestro', union_pay: 'UnionPay', diners_club: "Diners Club" };

/** Paddle's subscription object in the model's terms. */
export function paddleSubscriptionState(data: unknown, prices: PriceBook): SubscriptionState {
  const sub = Subscription.parse(data);
  const item = sub.items[0]!;
  const found = prices.find('paddle', item.price.id);
  const premium = sub.status === 'active' || sub.status === 'trialing';
  // A price not in the catalogue cannot give premium (which plan, how many slots?): the event waits,
  // then goes to the dead letters. Ending one still applies (a cancel must never be lost because the
  // price was retired since).
  if (!found && (premium || sub.status === 'past_due')) throw new Error(`paddle price ${item.price.id} is not in the plan catalogue (providerPrices in config/plans.json)`);
  const cancels = sub.scheduled_change?.action === 'cancel';
  return {
    provider: 'paddle',
    providerSubscriptionId: sub.id,
    // The buyer is the user of the transaction the API created for the checkout; `custom_data` comes
    // through the browser (Paddle.js may set it) and names no one here.
    userId: null,
    checkout: sub.transaction_id ?? null,
    ownerFromCustomer: false,
    guildId: null,
    customerId: sub.customer_id ?? null,
    status: sub.status,
    premium,
    pastDue: sub.status === 'past_due',
    planId: found?.plan.id ?? null,
    interval: found?.interval ?? null,
    slots: found ? found.plan.limits.servers * Math.max(1, item.quantity) : null,
    currentPeriodEnd: sub.current_billing_period?.ends_at ?? null,
    cancelAtPeriodEnd: cancels,
    accessEndsAt: cancels ? sub.scheduled_change!.effective_at : null,
    version: isoMicros(sub.updated_at),
  };
}

/** Applies a stored Paddle notification: subscription events store the subscription; a completed transaction its payment method. */
export function paddleApplier(clock: Clock, prices: PriceBook, graceDays: number): Applier {
  return async (tx, event) => {
    const envelope = PaddleEnvelope.parse(event.payload);
    if (envelope.event_type.startsWith('subscription.')) return storeSubscription(tx, clock, paddleSubscriptionState(envelope.data, prices), graceDays);
    if (envelope.event_type === 'transaction.completed') {
      const txn = Transaction.parse(envelope.data);
      const card = txn.payments.find((p) => p.method_details)?.method_details;
      if (!txn.subscription_id || !card) return 'ignored: no subscription or payment method';
      const method = card.card ? `${CARD_NAMES[card.card.type] ?? card.card.type} •••• ${card.card.last4}` : card.type.replace(/_/g, ' ');
      return storePaymentMethod(tx, 'paddle', txn.subscription_id, method, txn.billed_at ?? txn.updated_at);
    }
    return `ignored: ${envelope.event_type} changes nothing here`;
  };
}

import type { Plan } from '@tickety/api-contract';
import { announce, type Queryable } from '../../db/driver';
import { type Clock, iso } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { NotYetError, type Provider, type SubscriptionState } from './types';

const DAY_MS = 86_400_000;

/** A provider's price, product or SKU id → the plan it sells and its interval (the catalogue's `providerPrices`). */
export class PriceBook {
  readonly #prices = new Map<string, { plan: Plan; interval: 'month' | 'year' }>();

  constructor(plans: readonly Plan[]) {
    for (const plan of plans) for (const p of plan.providerPrices) this.#prices.set(`${p.provider}:${p.id}`, { plan, interval: p.interval });
  }

  /** Whether the catalogue sells anything through the provider. */
  sells(provider: Provider): boolean {
    for (const key of this.#prices.keys()) if (key.startsWith(`${provider}:`)) return true;
    return false;
  }

  /** The plan of a price, or null when the catalogue no longer (or never) has it. */
  find(provider: Provider, id: string): { plan: Plan; interval: 'month' | 'year' } | null {
    return this.#prices.get(`${provider}:${id}`) ?? null;
  }
}

/**
 * Stores a subscription as its provider describes it: an upsert that only a newer description (a
 * larger provider version) may change, so events applied in any order, twice, or an old one replayed,
 * leave the newest. The owner is set once and never moved by a webhook: the user the provider names
 * (Discord), else the user of the checkout this server made (`billing_checkouts`), else, where the
 * customer is ours (Chargebee), the customer's link; nothing the browser supplied. The premium slots
 * grow to the plan's count (never shrink: slots beyond it cover nothing); a server subscription's one
 * slot covers its server, for good. Answers what happened, for the event's outcome.
 */
export async function storeSubscription(tx: Queryable, clock: Clock, state: SubscriptionState, graceDays: number): Promise<string> {
  const now = clock();
  // One statement (a webhook's whole effect, one round trip): find the owner (the stored one, else
  // the user the provider names, else the user of our checkout, else, for a customer of ours, its
  // link); link the customer to the owner; the guarded upsert; the slots up to the plan's count.
  const { rows } = await tx.query<{ user_id: string | null; id: string | null; changed: boolean }>(
    `WITH before AS (
       SELECT status, premium, cancel_at_period_end, current_period_end, access_ends_at, plan_id, billing_interval, slots, grace_until
       FROM subscriptions WHERE provider = $3 AND provider_subscription_id = $4),
     owner AS (
       SELECT coalesce(
         (SELECT user_id FROM subscriptions WHERE provider = $3 AND provider_subscription_id = $4),
         $2::text,
         (SELECT user_id FROM billing_checkouts WHERE provider = $3 AND reference = $17::text),
         (SELECT user_id FROM billing_customers WHERE $18::boolean AND provider = $3 AND customer_id = $10::text)) AS user_id),
     link AS (
       INSERT INTO billing_customers (provider, customer_id, user_id, created_at)
       SELECT $3, $10, owner.user_id, $16 FROM owner WHERE owner.user_id IS NOT NULL AND $10::text IS NOT NULL
       ON CONFLICT DO NOTHING),
     up AS (
       INSERT INTO subscriptions AS s (id, user_id, provider, provider_subscription_id, status, premium, plan_id, billing_interval, slots, customer_id,
         cancel_at_period_end, current_period_end, access_ends_at, grace_until, provider_version, provider_updated_at, created_at, updated_at, guild_id)
       SELECT $1, owner.user_id, $3, $4, $5, $6, $7, $8, coalesce($9::int, 0), $10, $11, $12, $13, $14, $15::numeric, $16, $16, $16, $19::text FROM owner WHERE owner.user_id IS NOT NULL
       ON CONFLICT (provider, provider_subscription_id) DO UPDATE SET
         status = EXCLUDED.status, premium = EXCLUDED.premium, guild_id = coalesce(s.guild_id, EXCLUDED.guild_id),
         -- A price gone from the catalogue changes the status, dates and cancel, never the plan and its slots.
         plan_id = coalesce($7, s.plan_id), billing_interval = coalesce($8, s.billing_interval),
         slots = CASE WHEN $9::int IS NULL THEN s.slots ELSE EXCLUDED.slots END, customer_id = coalesce(EXCLUDED.customer_id, s.customer_id), cancel_at_period_end = EXCLUDED.cancel_at_period_end,
         current_period_end = EXCLUDED.current_period_end, access_ends_at = EXCLUDED.access_ends_at,
         grace_until = CASE WHEN EXCLUDED.grace_until IS NULL THEN NULL ELSE coalesce(s.grace_until, EXCLUDED.grace_until) END,
         provider_version = EXCLUDED.provider_version, provider_updated_at = EXCLUDED.provider_updated_at, updated_at = EXCLUDED.updated_at
       WHERE s.provider_version IS NULL OR s.provider_version < EXCLUDED.provider_version
       RETURNING s.id, s.slots),
     -- The slots up to the count; a server subscription's one slot is its server's, put back there if it
     -- was anywhere else (one stored before server subscriptions were told apart).
     slots AS (
       INSERT INTO premium_slots AS p (subscription_id, slot, guild_id, assigned_at)
       SELECT up.id, g, CASE WHEN g = 1 THEN $19::text END, CASE WHEN g = 1 AND $19::text IS NOT NULL THEN $16::timestamptz END
       FROM up, generate_series(1, up.slots) AS g
       ON CONFLICT (subscription_id, slot) DO UPDATE SET guild_id = EXCLUDED.guild_id, assigned_at = EXCLUDED.assigned_at
       WHERE EXCLUDED.guild_id IS NOT NULL AND p.guild_id IS DISTINCT FROM EXCLUDED.guild_id)
     SELECT (SELECT user_id FROM owner) AS user_id, (SELECT id FROM up) AS id,
       -- Whether what the pages show changes (a newer description saying the same only moves the version).
       NOT EXISTS (SELECT 1 FROM before b WHERE b.status = $5 AND b.premium = $6 AND b.cancel_at_period_end = $11
         AND b.current_period_end IS NOT DISTINCT FROM $12::timestamptz AND b.access_ends_at IS NOT DISTINCT FROM $13::timestamptz
         AND b.plan_id IS NOT DISTINCT FROM coalesce($7, b.plan_id) AND b.billing_interval IS NOT DISTINCT FROM coalesce($8, b.billing_interval)
         AND (b.grace_until IS NULL) = ($14::timestamptz IS NULL)) AS changed`,
    [
      `sub_${randomToken(12)}`,
      state.userId,
      state.provider,
      state.providerSubscriptionId,
      state.status,
      state.premium,
      state.planId,
      state.interval,
      state.slots,
      state.customerId,
      state.cancelAtPeriodEnd,
      state.currentPeriodEnd,
      state.accessEndsAt,
      state.pastDue ? iso(now + graceDays * DAY_MS) : null,
      state.version,
      iso(now),
      state.checkout,
      state.ownerFromCustomer,
      state.guildId,
    ],
  );
  const row = rows[0];
  if (!row?.user_id) {
    const from = state.checkout
      ? `checkout ${state.checkout}, not one this server made`
      : state.ownerFromCustomer
        ? `customer ${state.customerId ?? 'none'}`
        : `customer ${state.customerId ?? 'none'}, no checkout of this server named`;
    throw new NotYetError(`no user is known for ${state.provider} subscription ${state.providerSubscriptionId} (${from})`);
  }
  if (!row.id) return `stale: a newer description of ${state.providerSubscriptionId} is stored`;
  // The owner's @me (premium, the servers it covers) and the limits of the servers it covers may change.
  announce(tx, { kind: 'user', id: row.user_id });
  announce(tx, { kind: 'servers' });
  if (!row.changed) return `unchanged: ${state.providerSubscriptionId} is ${state.status} already`;
  return `${state.providerSubscriptionId}: ${state.status}${state.cancelAtPeriodEnd ? ', cancels at period end' : ''}`;
}

/** Sets the payment method a charge used, unless a later charge's is stored. The subscription must be stored first. */
export async function storePaymentMethod(tx: Queryable, provider: Provider, providerSubscriptionId: string, method: string, chargedAt: string): Promise<string> {
  const { rows } = await tx.query<{ id: string; newer: boolean }>(
    `SELECT id, coalesce(payment_method_at >= $3::timestamptz, false) AS newer FROM subscriptions WHERE provider = $1 AND provider_subscription_id = $2 FOR UPDATE`,
    [provider, providerSubscriptionId, chargedAt],
  );
  const row = rows[0];
  if (!row) throw new NotYetError(`${provider} subscription ${providerSubscriptionId} is not stored yet`);
  if (row.newer) return `stale: a later charge's payment method is stored for ${providerSubscriptionId}`;
  await tx.query('UPDATE subscriptions SET payment_method = $2, payment_method_at = $3 WHERE id = $1', [row.id, method, chargedAt]);
  return `${providerSubscriptionId}: paid with ${method}`;
}

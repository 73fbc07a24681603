import type { BillingAction, BillingProvider, BillingSubscription, ConfigActor, Plan, PremiumSlot, ServerPremiumAnswer } from '@tickety/api-contract';
import { announce, type Db, type Queryable } from '../../db/driver';
import { type Clock, iso } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { ApiHttpError } from '../../lib/errors';
import { subscriptionGrants } from '../premium';
import { insertWebLog } from '../server-config';

interface SubscriptionRow {
  id: string;
  user_id: string;
  provider: BillingProvider;
  provider_subscription_id: string;
  status: string;
  premium_now: boolean;
  plan_id: string | null;
  billing_interval: 'month' | 'year' | null;
  grace_until: Date | string | null;
  current_period_end: Date | string | null;
  cancel_at_period_end: boolean;
  payment_method: string | null;
  customer_id: string | null;
  guild_id: string | null;
  updated_at: Date | string;
  slots: Array<{ slot: number; guild_id: string | null; guild_name: string | null; assigned_at: string | null }>;
}

const toIso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** The columns of a subscription with its slots (within its count) and their servers' names, at `$at`. */
const SELECT = (at: string) => `
  SELECT s.id, s.user_id, s.provider, s.provider_subscription_id, s.status, ${subscriptionGrants('s', at)} AS premium_now, s.plan_id, s.billing_interval,
         s.grace_until, s.current_period_end, s.cancel_at_period_end, s.payment_method, s.customer_id, s.guild_id, s.updated_at,
         coalesce((SELECT json_agg(json_build_object('slot', n.slot, 'guild_id', p.guild_id, 'guild_name', g.name, 'assigned_at', p.assigned_at) ORDER BY n.slot)
                   FROM generate_series(1, s.slots) AS n(slot)
                   LEFT JOIN premium_slots p ON p.subscription_id = s.id AND p.slot = n.slot LEFT JOIN guilds g ON g.id = p.guild_id), '[]'::json) AS slots
  FROM subscriptions s`;

/**
 * A user's subscriptions as the billing pages show them, and premium slots: which server each covers,
 * assigning and moving them (a slot that got a server waits `cooldownMs` before it moves again).
 */
export class BillingAccounts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: Plan[],
    private readonly cooldownMs: number,
  ) {}

  get cooldownHours(): number {
    return this.cooldownMs / 3_600_000;
  }

  async list(userId: string, queryable: Queryable = this.db): Promise<BillingSubscription[]> {
    const { rows } = await queryable.query<SubscriptionRow>(`${SELECT('$2::timestamptz')} WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id`, [userId, iso(this.clock())]);
    return rows.map((r) => this.#answer(r));
  }

  /** One subscription by its provider's id, whoever owns it (the route decides who may see it). */
  async find(provider: BillingProvider, providerSubscriptionId: string, queryable: Queryable = this.db): Promise<BillingSubscription | null> {
    const { rows } = await queryable.query<SubscriptionRow>(`${SELECT('$3::timestamptz')} WHERE s.provider = $1 AND s.provider_subscription_id = $2`, [
      provider,
      providerSubscriptionId,
      iso(this.clock()),
    ]);
    return rows[0] ? this.#answer(rows[0]) : null;
  }

  /**
   * The provider's customer of the subscription when it is linked to `userId` and none of its
   * subscriptions is someone else's (for portal sessions, which show all of a customer's), else null.
   * A customer can be shared: the provider matches customers by email, so another user's purchase
   * may have made the link first.
   */
  async customerOf(provider: BillingProvider, providerSubscriptionId: string, userId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ customer_id: string }>(
      `SELECT s.customer_id FROM subscriptions s JOIN billing_customers c ON c.provider = s.provider AND c.customer_id = s.customer_id
       WHERE s.provider = $1 AND s.provider_subscription_id = $2 AND c.user_id = $3
         AND NOT EXISTS (SELECT 1 FROM subscriptions o WHERE o.provider = s.provider AND o.customer_id = s.customer_id AND o.user_id <> $3)`,
      [provider, providerSubscriptionId, userId],
    );
    return rows[0]?.customer_id ?? null;
  }

  /**
   * The user's customer id at a provider whose checkout we start with our own customer id (Chargebee):
   * the one linked before, else a new one linked now. The link is what makes the webhooks' subscription
   * the user's.
   */
  async linkedCustomer(provider: BillingProvider, userId: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      // One at a time per user: two checkouts at once must not make two customers.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('tickety-customer:' || $1 || ':' || $2, 0))`, [provider, userId]);
      return this.#linkedCustomer(tx, provider, userId);
    });
  }

  async #linkedCustomer(tx: Queryable, provider: BillingProvider, userId: string): Promise<string> {
    const { rows } = await tx.query<{ customer_id: string }>(
      `WITH made AS (
         INSERT INTO billing_customers (provider, customer_id, user_id, created_at)
         SELECT $1, $3, $2, $4 WHERE NOT EXISTS (SELECT 1 FROM billing_customers WHERE provider = $1 AND user_id = $2)
         ON CONFLICT DO NOTHING RETURNING customer_id)
       SELECT customer_id FROM made
       UNION ALL (SELECT customer_id FROM billing_customers WHERE provider = $1 AND user_id = $2 ORDER BY created_at, customer_id LIMIT 1)
       LIMIT 1`,
      [provider, userId, `tk_${randomToken(16)}`, iso(this.clock())],
    );
    if (!rows[0]) throw new Error(`no ${provider} customer could be linked to ${userId}`);
    return rows[0].customer_id;
  }

  /**
   * Records a checkout this server made for the user (Paddle's transaction, FastSpring's secure
   * payload's reference): the subscription it makes belongs to that user (`storeSubscription`).
   */
  async recordCheckout(provider: BillingProvider, reference: string, userId: string, priceId: string): Promise<void> {
    await this.db.query('INSERT INTO billing_checkouts (provider, reference, user_id, price_id, created_at) VALUES ($1, $2, $3, $4, $5)', [
      provider,
      reference,
      userId,
      priceId,
      iso(this.clock()),
    ]);
  }

  /** The user a checkout of this server was made for, or null when it made none by that reference. */
  async checkoutUser(provider: BillingProvider, reference: string): Promise<string | null> {
    const { rows } = await this.db.query<{ user_id: string }>('SELECT user_id FROM billing_checkouts WHERE provider = $1 AND reference = $2', [provider, reference]);
    return rows[0]?.user_id ?? null;
  }

  /** Whether the provider's customer is linked to the user. */
  async isLinked(provider: BillingProvider, customerId: string, userId: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM billing_customers WHERE provider = $1 AND customer_id = $2 AND user_id = $3', [provider, customerId, userId]);
    return rows.length > 0;
  }

  /** A server's premium, which slot covers it, and the user's own subscriptions that give premium. */
  async serverPremium(guildId: string, userId: string): Promise<ServerPremiumAnswer> {
    const at = iso(this.clock());
    const { rows } = await this.db.query<{ provider: BillingProvider; provider_subscription_id: string; plan_id: string | null; user_id: string; slot: number }>(
      `SELECT s.provider, s.provider_subscription_id, s.plan_id, s.user_id, p.slot FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id
       WHERE p.guild_id = $1 AND p.slot <= s.slots AND ${subscriptionGrants('s', '$2::timestamptz')} ORDER BY (s.user_id = $3) DESC, s.created_at LIMIT 1`,
      [guildId, at, userId],
    );
    const cover = rows[0];
    // A Discord server subscription's premium is its server's: no slot of it is the user's to place.
    const mine = (await this.list(userId)).filter((s) => s.premium && s.guildId === null);
    return {
      premium: cover !== undefined,
      coveredBy: cover
        ? {
            provider: cover.provider,
            // Another user's subscription is named by its plan only.
            id: cover.user_id === userId ? cover.provider_subscription_id : null,
            planName: this.#planName(cover.plan_id),
            mine: cover.user_id === userId,
            slot: cover.slot,
          }
        : null,
      mine,
      cooldownHours: this.cooldownHours,
    };
  }

  /**
   * Puts the user's slot on the server (assign) and writes it to both servers' Web Logs; the other
   * server's entry does not name where the slot went (its readers need not know that server).
   */
  async assignToServer(actor: ConfigActor, guildId: string, provider: BillingProvider, providerSubscriptionId: string, slot: number): Promise<void> {
    const { from } = await this.assign(actor.id, guildId, provider, providerSubscriptionId, slot);
    if (from === guildId) return;
    const at = iso(this.clock());
    const target = `Premium slot ${slot}`;
    await insertWebLog(this.db, { guildId, at, actor, action: 'premium.assigned', target, version: null, changes: [] });
    if (from) await insertWebLog(this.db, { guildId: from, at, actor, action: 'premium.removed', target, version: null, changes: [] });
  }

  /**
   * Puts the user's slot on the server (moving it from another server when the cooldown allows), in
   * one transaction with the slot's row locked. Answers the server's premium afterwards.
   */
  async assign(userId: string, guildId: string, provider: BillingProvider, providerSubscriptionId: string, slot: number): Promise<{ from: string | null }> {
    const now = this.clock();
    return this.db.transaction(async (tx) => {
      // One assignment at a time per user (a lock for the transaction), and everything read after it:
      // two moves at once would otherwise both pass the cooldown, or put two slots on one server.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('tickety-premium:' || $1, 0))`, [userId]);
      const { rows } = await tx.query<{
        id: string;
        user_id: string;
        slots: number;
        premium_now: boolean;
        guild_id: string | null;
        assigned_at: Date | string | null;
        server: string | null;
        server_name: string | null;
      }>(
        `SELECT s.id, s.user_id, s.slots, ${subscriptionGrants('s', '$3::timestamptz')} AS premium_now, p.guild_id, p.assigned_at, s.guild_id AS server, g.name AS server_name
         FROM subscriptions s LEFT JOIN premium_slots p ON p.subscription_id = s.id AND p.slot = $4 LEFT JOIN guilds g ON g.id = s.guild_id
         WHERE s.provider = $1 AND s.provider_subscription_id = $2`,
        [provider, providerSubscriptionId, iso(now), slot],
      );
      const row = rows[0];
      if (!row || row.user_id !== userId) throw new ApiHttpError('NOT_FOUND', { message: 'You have no such subscription.' });
      // A Discord server subscription gives its server premium: its slot is not the buyer's to move.
      if (row.server !== null && row.server !== guildId) {
        throw new ApiHttpError('VALIDATION_FAILED', { message: `This is a Discord server subscription of ${row.server_name ?? row.server}: its premium stays on that server.` });
      }
      if (!row.premium_now) throw new ApiHttpError('VALIDATION_FAILED', { message: 'This subscription does not give premium now: its slots cannot be assigned.' });
      if (slot > row.slots) throw new ApiHttpError('VALIDATION_FAILED', { message: `This subscription has ${row.slots} premium slot${row.slots === 1 ? '' : 's'}.` });
      if (row.guild_id === guildId) return { from: guildId };
      const { rows: covered } = await tx.query<{ n: number }>(
        `SELECT 1 AS n FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id
         WHERE p.guild_id = $1 AND p.slot <= s.slots AND s.user_id = $2 AND ${subscriptionGrants('s', '$3::timestamptz')} LIMIT 1`,
        [guildId, userId, iso(now)],
      );
      if (covered.length > 0) throw new ApiHttpError('PREMIUM_ALREADY_COVERED');
      if (row.guild_id && row.assigned_at) {
        const movable = new Date(row.assigned_at).getTime() + this.cooldownMs;
        if (movable > now) {
          throw new ApiHttpError('PREMIUM_SLOT_COOLDOWN', { message: `This premium slot moved recently: it can move again at ${new Date(movable).toISOString()}.` });
        }
      }
      await tx.query(
        `INSERT INTO premium_slots (subscription_id, slot, guild_id, assigned_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (subscription_id, slot) DO UPDATE SET guild_id = EXCLUDED.guild_id, assigned_at = EXCLUDED.assigned_at`,
        [row.id, slot, guildId, iso(now)],
      );
      // The user's @me lists the servers their premium covers; both servers' limits change.
      announce(tx, { kind: 'user', id: userId });
      announce(tx, { kind: 'server', id: guildId });
      if (row.guild_id) announce(tx, { kind: 'server', id: row.guild_id });
      return { from: row.guild_id };
    });
  }

  #planName(planId: string | null): string | null {
    return this.plans.find((p) => p.id === planId)?.name ?? null;
  }

  #answer(row: SubscriptionRow): BillingSubscription {
    const slots: PremiumSlot[] = row.slots.map((slotRow) => {
      const assignedAt = toIso(slotRow.assigned_at);
      // A server subscription's slot never moves: no time to wait for.
      const movable = slotRow.guild_id && assignedAt && row.guild_id === null ? new Date(assignedAt).getTime() + this.cooldownMs : null;
      return {
        slot: slotRow.slot,
        guildId: slotRow.guild_id,
        guildName: slotRow.guild_name,
        assignedAt,
        movableAt: movable !== null && movable > this.clock() ? new Date(movable).toISOString() : null,
      };
    });
    const graceUntil = toIso(row.grace_until);
    return {
      provider: row.provider,
      id: row.provider_subscription_id,
      userId: row.user_id,
      planId: row.plan_id,
      planName: this.#planName(row.plan_id),
      interval: row.billing_interval,
      status: row.status,
      premium: row.premium_now,
      graceUntil: graceUntil && new Date(graceUntil).getTime() > this.clock() ? graceUntil : null,
      currentPeriodEnd: toIso(row.current_period_end),
      cancelAtPeriodEnd: row.cancel_at_period_end,
      paymentMethod: row.payment_method,
      guildId: row.guild_id,
      slots,
      actions: actionsOf(row),
      updatedAt: toIso(row.updated_at)!,
    };
  }
}

/**
 * What the provider offers on a subscription in its state (only what this service implements).
 * Discord's app subscriptions are managed in Discord: none here.
 */
function actionsOf(row: SubscriptionRow): BillingAction[] {
  const actions: BillingAction[] = [];
  const portal = row.customer_id !== null;
  switch (row.provider) {
    case 'paddle': {
      const live = row.status === 'active' || row.status === 'trialing' || row.status === 'past_due';
      if (live && !row.cancel_at_period_end) actions.push('cancel');
      if (live && row.cancel_at_period_end) actions.push('resume');
      if (row.status === 'active' || row.status === 'past_due') actions.push('updatePaymentMethod');
      if (row.status === 'active' && !row.cancel_at_period_end) actions.push('changePlan');
      break;
    }
    case 'fastspring':
      if (row.status === 'active' || row.status === 'trial' || row.status === 'overdue') actions.push('cancel');
      if (row.status === 'canceled') actions.push('resume');
      if (row.status === 'active') actions.push('changePlan');
      break;
    case 'chargebee':
      if (row.status === 'active' || row.status === 'in_trial') actions.push('cancel');
      if (row.status === 'non_renewing') actions.push('resume');
      if (row.status === 'active') actions.push('changePlan');
      break;
    case 'discord':
      return [];
  }
  if (portal) actions.push('portal');
  return actions;
}

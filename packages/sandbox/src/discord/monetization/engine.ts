import { discordTimestamp } from '../snowflake';
import { compareIds } from '../util';
import type { EventQueue } from './delivery';
import type { EntitlementRecord, ResolvedSku, SubscriptionRecord } from './records';
import { type MonetizationSnapshot, readSnapshot } from './snapshot';
import {
  type DiscordEntitlement,
  type DiscordEventType,
  type DiscordSku,
  type DiscordSubscription,
  ENTITLEMENT_TYPE,
  type InitialEntitlement,
  SKU_FLAGS,
  SKU_TYPE,
  SUBSCRIPTION_STATUS,
} from './types';

export type { EntitlementRecord, ResolvedSku, SubscriptionRecord } from './records';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An error the API answers with Discord's `{ message, code }` (and the pages show as `message`). */
export class MonetizationError extends Error {
  override name = 'MonetizationError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface EngineConfig {
  applicationId: string;
  skus: ReadonlyMap<string, ResolvedSku>;
  now: () => number;
  queue: EventQueue;
  initial: readonly InitialEntitlement[];
}

/** Whether it grants access now (Discord: not deleted, started, not ended, not consumed). */
export function isActive(entitlement: EntitlementRecord, now: number): boolean {
  return !entitlement.deleted && !entitlement.consumed && (entitlement.startsAt === null || entitlement.startsAt <= now) && (entitlement.endsAt === null || entitlement.endsAt > now);
}

/** One registration's SKUs, entitlements and subscriptions, and the rules that change them. */
export class MonetizationEngine {
  readonly applicationId: string;
  readonly skus: ReadonlyMap<string, ResolvedSku>;
  readonly now: () => number;
  entitlements = new Map<string, EntitlementRecord>();
  subscriptions = new Map<string, SubscriptionRecord>();
  /** Called after every change of the state (debounced by the caller). */
  onChange: (() => void) | null = null;
  #lastId = 0n;
  readonly #queue: EventQueue;
  readonly #initial: readonly InitialEntitlement[];

  constructor(config: EngineConfig) {
    this.applicationId = config.applicationId;
    this.skus = config.skus;
    this.now = config.now;
    this.#queue = config.queue;
    this.#initial = config.initial;
    this.#seed();
  }

  /** A new snowflake for now, after every id made or restored before. */
  nextId(): string {
    const since = BigInt(Math.max(0, Math.floor(this.now()))) - 1_420_070_400_000n;
    let id = (since < 0n ? 0n : since) << 22n;
    if (id <= this.#lastId) id = this.#lastId + 1n;
    this.#lastId = id;
    return String(id);
  }

  #bump(id: string): void {
    const bits = BigInt(id);
    if (bits > this.#lastId) this.#lastId = bits;
  }

  sku(id: string): ResolvedSku | undefined {
    return this.skus.get(id);
  }

  /** GET /applications/{app}/skus: each SKU, and after a subscription its SUBSCRIPTION_GROUP twin. */
  skuList(): DiscordSku[] {
    const one = (id: string, type: number, sku: ResolvedSku): DiscordSku => ({
      id,
      type,
      dependent_sku_id: null,
      application_id: this.applicationId,
      manifest_labels: null,
      access_type: 1,
      name: sku.name,
      features: [],
      release_date: null,
      premium: false,
      slug: sku.slug,
      flags: sku.flags,
      show_age_gate: false,
    });
    return [...this.skus.values()].flatMap((s) => (s.groupId ? [one(s.id, s.type, s), one(s.groupId, SKU_TYPE.SUBSCRIPTION_GROUP, s)] : [one(s.id, s.type, s)]));
  }

  /**
   * Discord's entitlement object. `form`: `rest` (GET and list: test entitlements have null dates),
   * `sent` (POST answer and webhook events: a test entitlement has no dates and no subscription_id).
   */
  entitlementJson(entitlement: EntitlementRecord, form: 'rest' | 'sent'): DiscordEntitlement {
    const test = entitlement.type === ENTITLEMENT_TYPE.TEST_MODE_PURCHASE;
    const out: DiscordEntitlement = {
      id: entitlement.id,
      sku_id: entitlement.skuId,
      application_id: this.applicationId,
      ...(entitlement.userId !== null ? { user_id: entitlement.userId } : {}),
      ...(entitlement.guildId !== null ? { guild_id: entitlement.guildId } : {}),
      promotion_id: null,
      type: entitlement.type,
      deleted: entitlement.deleted,
      gift_code_flags: 0,
      consumed: entitlement.consumed,
    };
    if (!(test && form === 'sent')) {
      out.starts_at = entitlement.startsAt === null ? null : discordTimestamp(entitlement.startsAt);
      out.ends_at = entitlement.endsAt === null ? null : discordTimestamp(entitlement.endsAt);
    }
    if (entitlement.subscriptionId !== null) out.subscription_id = entitlement.subscriptionId;
    return out;
  }

  subscriptionJson(subscription: SubscriptionRecord): DiscordSubscription {
    return {
      id: subscription.id,
      user_id: subscription.userId,
      sku_ids: [subscription.skuId],
      entitlement_ids: [subscription.entitlementId],
      // Discord sets it only while a change of plan waits for the renewal (none here).
      renewal_sku_ids: null,
      current_period_start: discordTimestamp(subscription.periodStart),
      current_period_end: discordTimestamp(subscription.periodEnd),
      status: subscription.status,
      canceled_at: subscription.canceledAt === null ? null : discordTimestamp(subscription.canceledAt),
    };
  }

  /** Entitlements in id order. */
  entitlementList(): EntitlementRecord[] {
    return [...this.entitlements.values()].sort((a, b) => compareIds(a.id, b.id));
  }

  subscriptionList(): SubscriptionRecord[] {
    return [...this.subscriptions.values()].sort((a, b) => compareIds(a.id, b.id));
  }

  /** The owner's entitlement that gives access to the SKU now, if any. */
  activeFor(skuId: string, owner: { userId: string | null; guildId: string | null }): EntitlementRecord | undefined {
    const now = this.now();
    return [...this.entitlements.values()].find(
      (e) => e.skuId === skuId && isActive(e, now) && (owner.guildId !== null ? e.guildId === owner.guildId : e.userId === owner.userId && e.guildId === null),
    );
  }

  #emit(type: DiscordEventType, entitlement: EntitlementRecord): void {
    this.#queue.enqueue(type, this.entitlementJson(entitlement, 'sent'), this.now());
  }

  #changed(): void {
    this.onChange?.();
  }

  /** A store purchase: an ACTIVE subscription for one period and its entitlement (type 8), ENTITLEMENT_CREATE. */
  purchase(userId: string, skuId: string, guildId: string | null): { entitlement: EntitlementRecord; subscription: SubscriptionRecord } {
    this.tick();
    const sku = this.skus.get(skuId);
    if (!sku || sku.type !== SKU_TYPE.SUBSCRIPTION || (sku.flags & SKU_FLAGS.AVAILABLE) === 0) throw new MonetizationError(404, 10027, 'Unknown SKU');
    const guildSku = (sku.flags & SKU_FLAGS.GUILD_SUBSCRIPTION) !== 0;
    if (guildSku && guildId === null) throw new MonetizationError(400, 50035, 'Choose the server this subscription is for.');
    const owner = { userId, guildId: guildSku ? guildId : null };
    if (this.activeFor(skuId, owner)) {
      throw new MonetizationError(400, 40074, guildSku ? 'This server already has this subscription.' : 'You already have this subscription.');
    }
    const now = this.now();
    const subscriptionId = this.nextId();
    const entitlementId = this.nextId();
    const entitlement: EntitlementRecord = {
      id: entitlementId,
      skuId,
      userId,
      guildId: owner.guildId,
      type: ENTITLEMENT_TYPE.APPLICATION_SUBSCRIPTION,
      deleted: false,
      startsAt: now,
      endsAt: null,
      consumed: false,
      subscriptionId,
    };
    const subscription: SubscriptionRecord = {
      id: subscriptionId,
      userId,
      skuId,
      entitlementId,
      status: SUBSCRIPTION_STATUS.ACTIVE,
      periodStart: now,
      periodEnd: now + sku.periodMs,
      canceledAt: null,
    };
    this.entitlements.set(entitlementId, entitlement);
    this.subscriptions.set(subscriptionId, subscription);
    this.#emit('ENTITLEMENT_CREATE', entitlement);
    this.#changed();
    return { entitlement, subscription };
  }

  #subscription(id: string, userId?: string): SubscriptionRecord {
    const subscription = this.subscriptions.get(id);
    if (!subscription || (userId !== undefined && subscription.userId !== userId)) throw new MonetizationError(404, 0, 'Unknown subscription');
    return subscription;
  }

  /** The user cancels: ENDING with canceled_at; access lasts until the period ends. No event (as Discord). */
  cancel(subscriptionId: string, userId?: string): SubscriptionRecord {
    this.tick();
    const subscription = this.#subscription(subscriptionId, userId);
    if (subscription.status !== SUBSCRIPTION_STATUS.ACTIVE) throw new MonetizationError(400, 0, subscription.status === SUBSCRIPTION_STATUS.ENDING ? 'This subscription is already canceled.' : 'This subscription has ended.');
    subscription.status = SUBSCRIPTION_STATUS.ENDING;
    subscription.canceledAt = this.now();
    this.#changed();
    return subscription;
  }

  /** The user takes the cancel back before the period ends: ACTIVE, canceled_at null. No event. */
  resume(subscriptionId: string, userId?: string): SubscriptionRecord {
    this.tick();
    const subscription = this.#subscription(subscriptionId, userId);
    if (subscription.status !== SUBSCRIPTION_STATUS.ENDING) throw new MonetizationError(400, 0, subscription.status === SUBSCRIPTION_STATUS.ACTIVE ? 'This subscription is not canceled.' : 'This subscription has ended.');
    subscription.status = SUBSCRIPTION_STATUS.ACTIVE;
    subscription.canceledAt = null;
    this.#changed();
    return subscription;
  }

  #entitlement(id: string): EntitlementRecord {
    const entitlement = this.entitlements.get(id);
    if (!entitlement) throw new MonetizationError(404, 10029, 'Unknown Entitlement');
    return entitlement;
  }

  /** Staff refund: the entitlement is deleted (ENTITLEMENT_DELETE) and its subscription INACTIVE. */
  refund(entitlementId: string): EntitlementRecord {
    this.tick();
    const entitlement = this.#entitlement(entitlementId);
    if (entitlement.deleted) throw new MonetizationError(400, 0, 'This entitlement is already deleted.');
    entitlement.deleted = true;
    const subscription = entitlement.subscriptionId ? this.subscriptions.get(entitlement.subscriptionId) : undefined;
    if (subscription) subscription.status = SUBSCRIPTION_STATUS.INACTIVE;
    this.#emit('ENTITLEMENT_DELETE', entitlement);
    this.#changed();
    return entitlement;
  }

  /** POST /applications/{app}/entitlements: a test entitlement (type 4, no dates), ENTITLEMENT_CREATE. */
  grantTest(skuId: string, ownerId: string, ownerType: 1 | 2): EntitlementRecord {
    this.tick();
    if (!this.skus.has(skuId)) throw new MonetizationError(404, 10027, 'Unknown SKU');
    const owner = ownerType === 1 ? { userId: null, guildId: ownerId } : { userId: ownerId, guildId: null };
    if (this.activeFor(skuId, owner)) throw new MonetizationError(400, 40074, 'An entitlement has already been granted for this resource');
    const entitlement: EntitlementRecord = {
      id: this.nextId(),
      skuId,
      ...owner,
      type: ENTITLEMENT_TYPE.TEST_MODE_PURCHASE,
      deleted: false,
      startsAt: null,
      endsAt: null,
      consumed: false,
      subscriptionId: null,
    };
    this.entitlements.set(entitlement.id, entitlement);
    this.#emit('ENTITLEMENT_CREATE', entitlement);
    this.#changed();
    return entitlement;
  }

  /** DELETE /applications/{app}/entitlements/{id}: test entitlements only (else 40019), ENTITLEMENT_DELETE. */
  deleteTest(entitlementId: string): void {
    this.tick();
    const entitlement = this.#entitlement(entitlementId);
    if (entitlement.deleted) throw new MonetizationError(404, 10029, 'Unknown Entitlement');
    if (entitlement.type !== ENTITLEMENT_TYPE.TEST_MODE_PURCHASE) throw new MonetizationError(400, 40019, 'You can only delete sandbox entitlements.');
    entitlement.deleted = true;
    this.#emit('ENTITLEMENT_DELETE', entitlement);
    this.#changed();
  }

  /** POST …/entitlements/{id}/consume: consumable SKUs only (else 40018). */
  consume(entitlementId: string): void {
    const entitlement = this.#entitlement(entitlementId);
    if (this.skus.get(entitlement.skuId)?.type !== SKU_TYPE.CONSUMABLE) throw new MonetizationError(400, 40018, 'Only consumable SKUs can be consumed.');
    if (!entitlement.consumed) {
      entitlement.consumed = true;
      this.#changed();
    }
  }

  /**
   * What the clock made due: an ACTIVE subscription past its period renews (new period; no event, the
   * entitlement keeps ends_at null); an ENDING one ends (entitlement ends_at = period end,
   * ENTITLEMENT_UPDATE, subscription INACTIVE).
   */
  tick(): void {
    const now = this.now();
    let changed = false;
    for (const subscription of this.subscriptionList()) {
      if (subscription.periodEnd > now || subscription.status === SUBSCRIPTION_STATUS.INACTIVE) continue;
      const sku = this.skus.get(subscription.skuId)!;
      if (subscription.status === SUBSCRIPTION_STATUS.ACTIVE) {
        const periods = Math.floor((now - subscription.periodEnd) / sku.periodMs);
        subscription.periodStart = subscription.periodEnd + periods * sku.periodMs;
        subscription.periodEnd = subscription.periodStart + sku.periodMs;
      } else {
        subscription.status = SUBSCRIPTION_STATUS.INACTIVE;
        const entitlement = this.entitlements.get(subscription.entitlementId);
        if (entitlement && !entitlement.deleted) {
          entitlement.endsAt = subscription.periodEnd;
          this.#emit('ENTITLEMENT_UPDATE', entitlement);
        }
      }
      changed = true;
    }
    if (changed) this.#changed();
  }

  /** The seeded app subscriptions (initialEntitlements): active, renewing, their period reaching now. */
  #seed(): void {
    const now = this.now();
    for (const initialEntitlement of this.#initial) {
      const sku = this.skus.get(initialEntitlement.skuId)!;
      const startsAt = typeof initialEntitlement.startsAt === 'number' ? initialEntitlement.startsAt : Date.parse(initialEntitlement.startsAt);
      const periods = startsAt <= now ? Math.floor((now - startsAt) / sku.periodMs) : 0;
      const periodStart = startsAt + periods * sku.periodMs;
      this.entitlements.set(initialEntitlement.id, {
        id: initialEntitlement.id,
        skuId: initialEntitlement.skuId,
        userId: initialEntitlement.userId,
        guildId: initialEntitlement.guildId ?? null,
        type: ENTITLEMENT_TYPE.APPLICATION_SUBSCRIPTION,
        deleted: false,
        startsAt,
        endsAt: null,
        consumed: false,
        subscriptionId: initialEntitlement.subscriptionId,
      });
      this.subscriptions.set(initialEntitlement.subscriptionId, {
        id: initialEntitlement.subscriptionId,
        userId: initialEntitlement.userId,
        skuId: initialEntitlement.skuId,
        entitlementId: initialEntitlement.id,
        status: SUBSCRIPTION_STATUS.ACTIVE,
        periodStart,
        periodEnd: periodStart + sku.periodMs,
        canceledAt: null,
      });
      this.#bump(initialEntitlement.id);
      this.#bump(initialEntitlement.subscriptionId);
    }
  }

  /** Back to the state at registration without initialState: the seeded initialEntitlements only. */
  reset(): void {
    this.entitlements.clear();
    this.subscriptions.clear();
    this.#seed();
    this.#changed();
  }

  snapshot(): MonetizationSnapshot {
    return {
      version: 1,
      takenAt: this.now(),
      lastId: String(this.#lastId),
      entitlements: this.entitlementList().map((e) => ({ ...e })),
      subscriptions: this.subscriptionList().map((s) => ({ ...s })),
    };
  }

  /** Replaces the state with a checked snapshot's (a MonetizationSnapshotError names the first bad field). */
  restore(input: unknown): void {
    const snapshot = readSnapshot(input, (id) => this.skus.get(id));
    this.entitlements = new Map(snapshot.entitlements.map((e) => [e.id, e]));
    this.subscriptions = new Map(snapshot.subscriptions.map((x) => [x.id, x]));
    this.#bump(snapshot.lastId);
    this.#changed();
  }
}

export function periodMsOf(days: number): number {
  return days * DAY_MS;
}

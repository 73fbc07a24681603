import { discordTimestamp } from '../snowflake';
import { compareIds } from '../util';
import type { EventQueue } from './delivery';
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
  type SubscriptionStatus,
} from './types';

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

export interface ResolvedSku {
  id: string;
  groupId: string | null;
  name: string;
  slug: string;
  type: 2 | 3 | 5;
  flags: number;
  amount: number;
  currency: string;
  periodMs: number;
  periodDays: number;
}

/** An entitlement as kept (times in epoch ms). */
export interface EntitlementRecord {
  id: string;
  skuId: string;
  userId: string | null;
  guildId: string | null;
  type: number;
  deleted: boolean;
  startsAt: number | null;
  endsAt: number | null;
  consumed: boolean;
  subscriptionId: string | null;
}

/** A subscription as kept (times in epoch ms). */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  skuId: string;
  entitlementId: string;
  status: SubscriptionStatus;
  periodStart: number;
  periodEnd: number;
  canceledAt: number | null;
}

export interface EngineConfig {
  applicationId: string;
  skus: ReadonlyMap<string, ResolvedSku>;
  now: () => number;
  queue: EventQueue;
  initial: readonly InitialEntitlement[];
}

/** Whether it grants access now (Discord: not deleted, started, not ended, not consumed). */
export function isActive(e: EntitlementRecord, now: number): boolean {
  return !e.deleted && !e.consumed && (e.startsAt === null || e.startsAt <= now) && (e.endsAt === null || e.endsAt > now);
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
    const n = BigInt(id);
    if (n > this.#lastId) this.#lastId = n;
  }

  sku(id: string): ResolvedSku | undefined {
    return this.skus.get(id);
  }

  /** GET /applications/{app}/skus: each SKU, and after a subscription its SUBSCRIPTION_GROUP twin. */
  skuList(): DiscordSku[] {
    const one = (id: string, type: number, s: ResolvedSku): DiscordSku => ({
      id,
      type,
      dependent_sku_id: null,
      application_id: this.applicationId,
      manifest_labels: null,
      access_type: 1,
      name: s.name,
      features: [],
      release_date: null,
      premium: false,
      slug: s.slug,
      flags: s.flags,
      show_age_gate: false,
    });
    return [...this.skus.values()].flatMap((s) => (s.groupId ? [one(s.id, s.type, s), one(s.groupId, SKU_TYPE.SUBSCRIPTION_GROUP, s)] : [one(s.id, s.type, s)]));
  }

  /**
   * Discord's entitlement object. `form`: `rest` (GET and list: test entitlements have null dates),
   * `sent` (POST answer and webhook events: a test entitlement has no dates and no subscription_id).
   */
  entitlementJson(e: EntitlementRecord, form: 'rest' | 'sent'): DiscordEntitlement {
    const test = e.type === ENTITLEMENT_TYPE.TEST_MODE_PURCHASE;
    const out: DiscordEntitlement = {
      id: e.id,
      sku_id: e.skuId,
      application_id: this.applicationId,
      ...(e.userId !== null ? { user_id: e.userId } : {}),
      ...(e.guildId !== null ? { guild_id: e.guildId } : {}),
      promotion_id: null,
      type: e.type,
      deleted: e.deleted,
      gift_code_flags: 0,
      consumed: e.consumed,
    };
    if (!(test && form === 'sent')) {
      out.starts_at = e.startsAt === null ? null : discordTimestamp(e.startsAt);
      out.ends_at = e.endsAt === null ? null : discordTimestamp(e.endsAt);
    }
    if (e.subscriptionId !== null) out.subscription_id = e.subscriptionId;
    return out;
  }

  subscriptionJson(s: SubscriptionRecord): DiscordSubscription {
    return {
      id: s.id,
      user_id: s.userId,
      sku_ids: [s.skuId],
      entitlement_ids: [s.entitlementId],
      // Discord sets it only while a change of plan waits for the renewal (none here).
      renewal_sku_ids: null,
      current_period_start: discordTimestamp(s.periodStart),
      current_period_end: discordTimestamp(s.periodEnd),
      status: s.status,
      canceled_at: s.canceledAt === null ? null : discordTimestamp(s.canceledAt),
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

  #emit(type: DiscordEventType, e: EntitlementRecord): void {
    this.#queue.enqueue(type, this.entitlementJson(e, 'sent'), this.now());
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
    const s = this.subscriptions.get(id);
    if (!s || (userId !== undefined && s.userId !== userId)) throw new MonetizationError(404, 0, 'Unknown subscription');
    return s;
  }

  /** The user cancels: ENDING with canceled_at; access lasts until the period ends. No event (as Discord). */
  cancel(subscriptionId: string, userId?: string): SubscriptionRecord {
    this.tick();
    const s = this.#subscription(subscriptionId, userId);
    if (s.status !== SUBSCRIPTION_STATUS.ACTIVE) throw new MonetizationError(400, 0, s.status === SUBSCRIPTION_STATUS.ENDING ? 'This subscription is already canceled.' : 'This subscription has ended.');
    s.status = SUBSCRIPTION_STATUS.ENDING;
    s.canceledAt = this.now();
    this.#changed();
    return s;
  }

  /** The user takes the cancel back before the period ends: ACTIVE, canceled_at null. No event. */
  resume(subscriptionId: string, userId?: string): SubscriptionRecord {
    this.tick();
    const s = this.#subscription(subscriptionId, userId);
    if (s.status !== SUBSCRIPTION_STATUS.ENDING) throw new MonetizationError(400, 0, s.status === SUBSCRIPTION_STATUS.ACTIVE ? 'This subscription is not canceled.' : 'This subscription has ended.');
    s.status = SUBSCRIPTION_STATUS.ACTIVE;
    s.canceledAt = null;
    this.#changed();
    return s;
  }

  #entitlement(id: string): EntitlementRecord {
    const e = this.entitlements.get(id);
    if (!e) throw new MonetizationError(404, 10029, 'Unknown Entitlement');
    return e;
  }

  /** Staff refund: the entitlement is deleted (ENTITLEMENT_DELETE) and its subscription INACTIVE. */
  refund(entitlementId: string): EntitlementRecord {
    this.tick();
    const e = this.#entitlement(entitlementId);
    if (e.deleted) throw new MonetizationError(400, 0, 'This entitlement is already deleted.');
    e.deleted = true;
    const s = e.subscriptionId ? this.subscriptions.get(e.subscriptionId) : undefined;
    if (s) s.status = SUBSCRIPTION_STATUS.INACTIVE;
    this.#emit('ENTITLEMENT_DELETE', e);
    this.#changed();
    return e;
  }

  /** POST /applications/{app}/entitlements: a test entitlement (type 4, no dates), ENTITLEMENT_CREATE. */
  grantTest(skuId: string, ownerId: string, ownerType: 1 | 2): EntitlementRecord {
    this.tick();
    if (!this.skus.has(skuId)) throw new MonetizationError(404, 10027, 'Unknown SKU');
    const owner = ownerType === 1 ? { userId: null, guildId: ownerId } : { userId: ownerId, guildId: null };
    if (this.activeFor(skuId, owner)) throw new MonetizationError(400, 40074, 'An entitlement has already been granted for this resource');
    const e: EntitlementRecord = {
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
    this.entitlements.set(e.id, e);
    this.#emit('ENTITLEMENT_CREATE', e);
    this.#changed();
    return e;
  }

  /** DELETE /applications/{app}/entitlements/{id}: test entitlements only (else 40019), ENTITLEMENT_DELETE. */
  deleteTest(entitlementId: string): void {
    this.tick();
    const e = this.#entitlement(entitlementId);
    if (e.deleted) throw new MonetizationError(404, 10029, 'Unknown Entitlement');
    if (e.type !== ENTITLEMENT_TYPE.TEST_MODE_PURCHASE) throw new MonetizationError(400, 40019, 'You can only delete sandbox entitlements.');
    e.deleted = true;
    this.#emit('ENTITLEMENT_DELETE', e);
    this.#changed();
  }

  /** POST …/entitlements/{id}/consume: consumable SKUs only (else 40018). */
  consume(entitlementId: string): void {
    const e = this.#entitlement(entitlementId);
    if (this.skus.get(e.skuId)?.type !== SKU_TYPE.CONSUMABLE) throw new MonetizationError(400, 40018, 'Only consumable SKUs can be consumed.');
    if (!e.consumed) {
      e.consumed = true;
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
    for (const s of this.subscriptionList()) {
      if (s.periodEnd > now || s.status === SUBSCRIPTION_STATUS.INACTIVE) continue;
      const sku = this.skus.get(s.skuId)!;
      if (s.status === SUBSCRIPTION_STATUS.ACTIVE) {
        const periods = Math.floor((now - s.periodEnd) / sku.periodMs);
        s.periodStart = s.periodEnd + periods * sku.periodMs;
        s.periodEnd = s.periodStart + sku.periodMs;
      } else {
        s.status = SUBSCRIPTION_STATUS.INACTIVE;
        const e = this.entitlements.get(s.entitlementId);
        if (e && !e.deleted) {
          e.endsAt = s.periodEnd;
          this.#emit('ENTITLEMENT_UPDATE', e);
        }
      }
      changed = true;
    }
    if (changed) this.#changed();
  }

  /** The seeded app subscriptions (initialEntitlements): active, renewing, their period reaching now. */
  #seed(): void {
    const now = this.now();
    for (const i of this.#initial) {
      const sku = this.skus.get(i.skuId)!;
      const startsAt = typeof i.startsAt === 'number' ? i.startsAt : Date.parse(i.startsAt);
      const periods = startsAt <= now ? Math.floor((now - startsAt) / sku.periodMs) : 0;
      const periodStart = startsAt + periods * sku.periodMs;
      this.entitlements.set(i.id, {
        id: i.id,
        skuId: i.skuId,
        userId: i.userId,
        guildId: i.guildId ?? null,
        type: ENTITLEMENT_TYPE.APPLICATION_SUBSCRIPTION,
        deleted: false,
        startsAt,
        endsAt: null,
        consumed: false,
        subscriptionId: i.subscriptionId,
      });
      this.subscriptions.set(i.subscriptionId, {
        id: i.subscriptionId,
        userId: i.userId,
        skuId: i.skuId,
        entitlementId: i.id,
        status: SUBSCRIPTION_STATUS.ACTIVE,
        periodStart,
        periodEnd: periodStart + sku.periodMs,
        canceledAt: null,
      });
      this.#bump(i.id);
      this.#bump(i.subscriptionId);
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
    const s = readSnapshot(input, (id) => this.skus.get(id));
    this.entitlements = new Map(s.entitlements.map((e) => [e.id, e]));
    this.subscriptions = new Map(s.subscriptions.map((x) => [x.id, x]));
    this.#bump(s.lastId);
    this.#changed();
  }
}

export function periodMsOf(days: number): number {
  return days * DAY_MS;
}

import type { SubscriptionStatus } from './types';

/** A SKU as the stand-in sells it (price and period resolved from the options). */
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

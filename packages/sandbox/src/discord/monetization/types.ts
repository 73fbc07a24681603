/** Discord's monetization objects as the API answers them (field names and types are Discord's). */

/** SKU types (Discord): 2 DURABLE, 3 CONSUMABLE, 5 SUBSCRIPTION, 6 SUBSCRIPTION_GROUP (the automatic twin of a subscription). */
export const SKU_TYPE = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;
/** SKU flags (Discord): AVAILABLE 1<<2, GUILD_SUBSCRIPTION 1<<7, USER_SUBSCRIPTION 1<<8. */
export const SKU_FLAGS = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;
/** Entitlement types (Discord). Purchases in the store are 8; test grants 4. */
export const ENTITLEMENT_TYPE = {
  PURCHASE: 1,
  PREMIUM_SUBSCRIPTION: 2,
  DEVELOPER_GIFT: 3,
  TEST_MODE_PURCHASE: 4,
  FREE_PURCHASE: 5,
  USER_GIFT: 6,
  PREMIUM_PURCHASE: 7,
  APPLICATION_SUBSCRIPTION: 8,
} as const;
/**
 * Subscription statuses (Discord, as corrected in discord-api-docs PR #8388, 2026; older docs and
 * discord-api-types before 0.38.x had 1 and 2 swapped): 0 ACTIVE, 1 INACTIVE, 2 ENDING.
 */
export const SUBSCRIPTION_STATUS = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUS)[keyof typeof SUBSCRIPTION_STATUS];

/** A SKU the stand-in sells (the `monetization.skus` option). */
export interface MonetizationSkuOption {
  /** A snowflake. */
  id: string;
  name: string;
  slug: string;
  /** 5 SUBSCRIPTION (sold in the store). 2 DURABLE and 3 CONSUMABLE are accepted for test entitlements and consume. */
  type: 5 | 2 | 3;
  /** E.g. USER_SUBSCRIPTION | AVAILABLE (1<<8 | 1<<2 = 260); GUILD_SUBSCRIPTION (1<<7) makes the buyer pick a server. */
  flags: number;
  /** The price shown in the store, in minor units (cents). */
  price: { amount: number; currency: string };
  /** Length of a subscription period in days. Default 30. */
  periodDays?: number;
  /** Id of the automatic SUBSCRIPTION_GROUP twin (type 6). Default: the id + 1 (must not be another SKU's). */
  groupId?: string;
}

/** `GET /applications/{app}/skus` items. */
export interface DiscordSku {
  id: string;
  type: number;
  dependent_sku_id: null;
  application_id: string;
  manifest_labels: null;
  access_type: number;
  name: string;
  features: [];
  release_date: null;
  premium: false;
  slug: string;
  flags: number;
  show_age_gate: false;
}

/**
 * An entitlement as Discord sends it. Test entitlements (type 4) carry no `subscription_id`, and no
 * `starts_at`/`ends_at` in the POST answer and webhook events (`null` in GET and list answers).
 */
export interface DiscordEntitlement {
  id: string;
  sku_id: string;
  application_id: string;
  user_id?: string;
  guild_id?: string;
  promotion_id: null;
  type: number;
  deleted: boolean;
  gift_code_flags: 0;
  consumed: boolean;
  starts_at?: string | null;
  ends_at?: string | null;
  subscription_id?: string;
}

export interface DiscordSubscription {
  id: string;
  user_id: string;
  sku_ids: string[];
  entitlement_ids: string[];
  renewal_sku_ids: string[] | null;
  current_period_start: string;
  current_period_end: string;
  status: SubscriptionStatus;
  canceled_at: string | null;
}

export type DiscordEventType = 'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE';

/** The body of a webhook event (`type: 1`). A PING is `{ version: 1, application_id, type: 0 }`. */
export interface DiscordWebhookEventBody {
  version: 1;
  application_id: string;
  type: 1;
  event: { type: DiscordEventType; timestamp: string; data: DiscordEntitlement };
}

/** A seeded app subscription (the `monetization.initialEntitlements` option), active and renewing. */
export interface InitialEntitlement {
  /** The entitlement's id (a snowflake). */
  id: string;
  skuId: string;
  userId: string;
  /** For a guild subscription SKU: the server it applies to. */
  guildId?: string;
  /** The subscription's id (a snowflake). */
  subscriptionId: string;
  /** When it was bought: ISO 8601 or epoch ms. Its periods follow from it (renewed up to now). */
  startsAt: string | number;
}

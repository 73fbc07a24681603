/**
 * Discord app subscriptions (monetization) for the Discord sandbox, on loopback, for the offline demo
 * and tests, enabled by the `monetization` option of `discordSandbox`.
 * Routes, options and behaviour: docs/sandbox.md#app-subscriptions.
 */

export type { DeliveryState as MonetizationDeliveryState } from '../../kit/webhooks/delivery';
export { createMonetizationControl, type MonetizationControl } from './control';
export type { EndpointCheck, MonetizationChaos, MonetizationDelivery } from './delivery';
export { type DiscordKeyPair, discordKeyPair, discordPublicKeyHex, signDiscordEvent, verifyDiscordEvent } from './keys';
export type { MonetizationOptions } from './plugin';
export {
  type MonetizationSnapshot,
  type MonetizationSnapshotEntitlement,
  MonetizationSnapshotError,
  type MonetizationSnapshotSubscription,
} from './snapshot';
export {
  type DiscordEntitlement,
  type DiscordEventType,
  type DiscordSku,
  type DiscordSubscription,
  type DiscordWebhookEventBody,
  ENTITLEMENT_TYPE,
  type InitialEntitlement,
  type MonetizationSkuOption,
  SKU_FLAGS,
  SKU_TYPE,
  SUBSCRIPTION_STATUS,
  type SubscriptionStatus,
} from './types';

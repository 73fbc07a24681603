/**
 * Discord app subscriptions (monetization) for the Discord sandbox, on loopback, for the offline demo
 * and tests. Enabled by the `monetization` option of `discordSandbox`:
 *
 *   const monetization = createMonetizationControl();
 *   await app.register(discordSandbox, {
 *     prefix: '/sandbox/discord',
 *     monetization: {
 *       control: monetization,
 *       privateKeySeed: '9d61b1…7f60', // the app's "Public Key" is discordPublicKeyHex(seed)
 *       webhookUrl: 'http://localhost:3000/api/webhooks/discord',
 *       skus: [{ id: '1300000000000000801', name: 'Tickety Premium', slug: 'tickety-premium', type: 5,
 *                flags: SKU_FLAGS.USER_SUBSCRIPTION | SKU_FLAGS.AVAILABLE, price: { amount: 499, currency: 'USD' } }],
 *     },
 *   });
 *
 * Routes (under the prefix):
 * - Bot API (`Authorization: Bot <token>`, rate-limit headers, `{ message, code }` errors):
 *   `GET /api/v10/applications/{app}/skus`, `GET|POST /api/v10/applications/{app}/entitlements`,
 *   `GET|DELETE /api/v10/applications/{app}/entitlements/{id}`, `POST …/entitlements/{id}/consume`,
 *   `GET /api/v10/skus/{sku}/subscriptions[?user_id&before&after&limit]`, `GET /api/v10/skus/{sku}/subscriptions/{id}`.
 * - Store: `GET|POST /application-directory/{app}/store/{sku}[?login_hint=<demo user>]` (Discord's
 *   `https://discord.com/application-directory/{app}/store/{sku}`), test cards as the Paddle stand-in's.
 * - Settings: `GET /settings/subscriptions[?login_hint=<demo user>]`, `POST /settings/subscriptions/{id}/cancel|uncancel`.
 *
 * Webhook events `{ version: 1, application_id, type: 1, event: { type, timestamp, data: entitlement } }`
 * (ENTITLEMENT_CREATE | ENTITLEMENT_UPDATE | ENTITLEMENT_DELETE) are POSTed to `webhookUrl` with
 * `X-Signature-Ed25519` = hex Ed25519(timestamp + raw body) and `X-Signature-Timestamp` = unix seconds,
 * signed anew per attempt; 204 is success, anything else is retried (retryBaseMs × 2^(n−1), 10 attempts).
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

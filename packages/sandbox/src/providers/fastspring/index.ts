/**
 * A stand-in for FastSpring (Store Builder Library popup checkout, the REST API subset, signed
 * batched webhooks), on loopback, for the offline demo and tests. Production never mounts it.
 *
 *   const control = createFastspringSandboxControl();
 *   await app.register(fastspringSandbox, {
 *     prefix: '/sandbox/fastspring', control,
 *     apiUsername: 'fs_api_user', apiPassword: 'fs_api_pass', webhookSecret: 'fs_hmac_secret',
 *     webhookUrl: 'http://localhost:3000/api/webhooks/fastspring',
 *     storefront: 'tickety.test.onfastspring.com/popup-tickety',
 *     products: [{ path: 'tickety-premium-monthly', display: 'Premium', price: 4.99, currency: 'USD', intervalUnit: 'month', intervalLength: 1 }],
 *     securePayloadPublicKey: '-----BEGIN PUBLIC KEY-----…', // the store's, for secure payloads
 *   });
 *
 * Routes (under the prefix):
 * - `GET /sbl/fastspring-builder.js` (also `.min.js`): the Store Builder Library stand-in
 *   (`fastspring.builder.push/add/remove/tag/reset/secure/checkout`), loaded with
 *   `<script id="fsc-api" src=… data-storefront=… data-popup-closed="fnName">`.
 * - `GET /popup?storefront&products&tags&email&parent_origin[&secure_payload&secure_key]`, `POST /popup`,
 *   `GET /popup.js`: the popup checkout. A secure payload (`fastspring.builder.secure(securePayload,
 *   secureKey)`: AES-128-ECB JSON, its key RSA-encrypted with the store's private key) is decrypted
 *   with `securePayloadPublicKey` as FastSpring does; one that does not decrypt (changed, another key)
 *   is refused with a 400 page. Its products replace the cart's (`reset`), its tags win over the
 *   browser's (which still reach the order). `encryptSecurePayload` (src/fastspring/secure.ts) makes one.
 * - `GET /account/:accountId/:token` (+ `POST …/subscriptions/:id/cancel|uncancel`): the account page;
 *   `GET /account/order/:reference/invoice/:key`: printable invoices (`invoiceUrl`).
 * - API (HTTP Basic): `GET /subscriptions`, `GET /subscriptions/:ids`, `GET /subscriptions/:id/entries`,
 *   `DELETE /subscriptions/:ids[?billingPeriod=0]`, `POST /subscriptions` (plan change, prorate, preview,
 *   `deactivation: null` = uncancel), `POST /subscriptions/estimate`, `GET /orders/:ids`, `GET /accounts/:id`,
 *   `GET /accounts/:id/authenticate`, `GET /events/unprocessed`, `GET /events/processed`, `POST /events/:id`.
 *
 * Webhooks: one POST `{"events":[{id, type, live:false, processed:false, created, data}, …]}` per batch,
 * header `X-FS-Signature: base64(HMAC-SHA256(webhookSecret, rawBody))`. 200 acknowledges all, 202 with
 * the processed ids one per line acknowledges those, anything else none; the rest is retried with the
 * same ids (retryBaseMs × 2^(n−1), 10 attempts), then "permanently failed" (still unprocessed).
 */

export { TEST_CARDS as FASTSPRING_TEST_CARDS } from '../../kit/cards';
export { createFastspringSandboxControl, type FastspringSandboxControl } from './control';
export type { EventDeliveryState, FastspringChaos, FastspringEventDelivery, FastspringPost } from './delivery';
export { type FastspringSandboxOptions, fastspringSandbox } from './plugin';
export { signFastspring } from './signature';
export {
  type FastspringSnapshot,
  type FastspringSnapshotAccount,
  type FastspringSnapshotCheckout,
  FastspringSnapshotError,
  type FastspringSnapshotOrder,
  type FastspringSnapshotSubscription,
} from './snapshot';
export type {
  FastspringAccount,
  FastspringEvent,
  FastspringOrder,
  FastspringOrderItem,
  FastspringProductOption,
  FastspringSubscription,
  IntervalUnit,
  SubscriptionState,
} from './types';

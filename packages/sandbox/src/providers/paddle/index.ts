/**
 * A stand-in for Paddle Billing (v2), on loopback, for the offline demo and tests. Production never mounts it.
 *
 *   const control = createPaddleSandboxControl();
 *   await app.register(paddleSandbox, {
 *     prefix: '/sandbox/paddle', control,
 *     apiKey: 'pdl_sdbx_apikey_demo', clientToken: 'test_demo', webhookSecret: 'pdl_ntfset_demo',
 *     webhookUrl: 'http://localhost:3000/api/webhooks/paddle',
 *     prices: [{ id: 'pri_premium_month', productName: 'Premium', amount: 4.99, currency: 'USD', interval: 'month' }],
 *   });
 *
 * Routes (under the prefix):
 * - `GET /paddle.js`: Paddle.js v2 stand-in (`Paddle.Environment.set`, `Initialize`, `Update`,
 *   `Initialized`, `Checkout.open/close`), an accessible overlay around `/checkout`, events relayed to
 *   `eventCallback` (checkout.loaded, checkout.completed, checkout.payment.failed, checkout.closed).
 * - `GET /checkout?items=[{priceId,quantity}]&custom_data={…}&email=…&token=…` (a purchase made in the
 *   browser), `GET /checkout?txn=txn_…&token=…` (a purchase of a transaction the API created: its items
 *   and custom data; custom data given beside it replaces the transaction's, as Paddle's does; paid
 *   once) or `GET /checkout?txn=txn_…` (pays a card-update or past-due transaction); `POST /checkout` (the form);
 *   `GET /checkout.js` (the page's script). Test cards: 4242 4242 4242 4242 (Visa) and
 *   5555 5555 5555 4444 (Mastercard) succeed, 4000 0000 0000 0002 is declined.
 * - API (`Authorization: Bearer <apiKey>`): `GET /subscriptions`, `GET /subscriptions/:id`,
 *   `POST /subscriptions/:id/cancel`, `PATCH /subscriptions/:id`, `PATCH|POST /subscriptions/:id/preview`,
 *   `GET /subscriptions/:id/update-payment-method-transaction`, `POST /transactions` (items of its
 *   prices, custom data: a `draft` transaction of origin `api`, 201; paying it makes the subscription,
 *   whose `subscription.created` names it in `transaction_id`), `GET /transactions` (Paddle's filters,
 *   id[DESC] by default, cursor pages of at most 30), `GET /transactions/:id`,
 *   `GET /transactions/:id/invoice` (`{ url }` of a completed, non-zero transaction's invoice, for an
 *   hour), `GET /customers/:id`, `POST /customers/:id/portal-sessions`.
 * - `GET /invoices/:token`: the printable HTML invoice an invoice link points to (404 page once expired);
 *   `GET /invoice.js` (its print button).
 * - `GET /portal/:session` (and its cancel, resume and payment-method pages): the customer portal.
 *
 * Notifications `{event_id, event_type, occurred_at, notification_id, data}` go to `webhookUrl`, signed
 * with `signPaddle(raw, webhookSecret, floor(clock()/1000))` at each attempt, in the background, retried
 * with backoff (retryBaseMs × 2^(attempt−1), 10 attempts). The clock also drives scheduled cancels
 * (subscription.canceled at effective_at) and renewals (transaction.paid/completed + subscription.updated
 * at next_billed_at), applied on every request and by `control.tick()`; `control.markPastDue(id)` fakes
 * a failed renewal payment (past_due until a card update pays it).
 *
 * Durable state: `control.snapshot()` (and the `onChange` option, debounced, flushed on close) gives a
 * JSON `PaddleSnapshot` of customers, subscriptions, transactions, live checkout and portal sessions and
 * the id/time/invoice counters; `control.restore(snapshot)` or the `initialState` option carries on from
 * it after a restart (validated first, refused whole with an error naming the first bad field). Events
 * and notifications are not kept: one still pending or retrying when the process stopped is lost.
 */

export { TEST_CARDS as PADDLE_TEST_CARDS } from '../../kit/cards';
export type { DeliveryState } from '../../kit/webhooks/delivery';
export { createPaddleSandboxControl, type PaddleSandboxControl } from './control';
export type { PaddleChaos, PaddleDelivery, PaddleEvent } from './delivery';
export type { PaddlePriceOption } from './engine';
export { type PaddleSandboxOptions, paddleSandbox } from './plugin';
export { signPaddle } from './signature';
export {
  type PaddleSnapshot,
  type PaddleSnapshotCheckout,
  type PaddleSnapshotCheckoutResult,
  type PaddleSnapshotCustomer,
  PaddleSnapshotError,
  type PaddleSnapshotItem,
  type PaddleSnapshotPortal,
  type PaddleSnapshotSubscription,
} from './snapshot';
export type {
  PaddleCard,
  PaddleCustomer,
  PaddlePortalSession,
  PaddlePreviewDetails,
  PaddlePreviewTransaction,
  PaddlePrice,
  PaddleProduct,
  PaddleSubscription,
  PaddleSubscriptionItem,
  PaddleTransaction,
  PaddleUpdateSummary,
} from './types';

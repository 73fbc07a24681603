/**
 * A stand-in for Chargebee (API v2, Product Catalog 2.0), on loopback, for the offline demo and tests.
 * Production never mounts it.
 *
 *   const control = createChargebeeSandboxControl();
 *   await app.register(chargebeeSandbox, {
 *     prefix: '/sandbox/chargebee', control, site: 'tickety-test', apiKey: 'test_demo_key',
 *     webhookUsername: 'cb_user', webhookPassword: 'cb_pass',
 *     webhookUrl: 'http://localhost:3000/api/webhooks/chargebee',
 *     itemPrices: [{ id: 'premium-USD-monthly', itemId: 'premium', name: 'Premium Monthly', price: 499,
 *                    currencyCode: 'USD', periodUnit: 'month', period: 1 }],
 *   });
 *
 * The `chargebee` SDK reaches it with a custom httpClient that sends `https://{site}.chargebee.com/api/v2/…`
 * to `<prefix>/api/v2/…` unchanged otherwise. Routes (under the prefix):
 * - API (`Authorization: Basic base64(apiKey:)`): POST /api/v2/hosted_pages/checkout_new_for_items,
 *   GET /api/v2/hosted_pages/{id}, GET /api/v2/subscriptions, GET /api/v2/subscriptions/{id},
 *   POST /api/v2/subscriptions/{id}/cancel_for_items | remove_scheduled_cancellation | reactivate |
 *   update_for_items, POST /api/v2/estimates/update_subscription_for_items, POST /api/v2/portal_sessions,
 *   GET /api/v2/portal_sessions/{id}, GET /api/v2/customers/{id}, GET /api/v2/invoices,
 *   GET /api/v2/invoices/{id}, POST /api/v2/invoices/{id}/pdf, GET /api/v2/events, GET /api/v2/events/{id}.
 * - Hosted checkout `GET /pages/v3/{id}/` (POST …/pay, POST …/cancel, GET /pages/v3/checkout.js).
 * - Portal `GET /portal/v2/access/{token}` (single use) → `/portal/v2/home` (cookie), cancel at term end,
 *   remove the scheduled cancellation, invoices, sign out.
 * - Invoice documents `GET /invoices/download/{token}` (printable HTML, `mime_type: text/html`).
 */

export type { DeliveryState as ChargebeeDeliveryState } from '../../kit/webhooks/delivery';
export { type ChargebeeSandboxControl, createChargebeeSandboxControl } from './control';
export { type ChargebeeChaos, type ChargebeeDelivery, RETRY_DELAYS_MIN as CHARGEBEE_RETRY_DELAYS_MIN, webhookAuthorization as chargebeeWebhookAuthorization } from './delivery';
export type { ChargebeeItemPriceOption } from './engine';
export { ChargebeeApiError } from './errors';
export { type ChargebeeSandboxOptions, chargebeeSandbox } from './plugin';
export {
  type ChargebeeSnapshot,
  type ChargebeeSnapshotCustomer,
  ChargebeeSnapshotError,
  type ChargebeeSnapshotHostedPage,
  type ChargebeeSnapshotItem,
  type ChargebeeSnapshotPortal,
  type ChargebeeSnapshotSubscription,
} from './snapshot';
export type {
  ChargebeeCreditNoteEstimate,
  ChargebeeCustomer,
  ChargebeeEstimate,
  ChargebeeEvent,
  ChargebeeEventContent,
  ChargebeeHostedPage,
  ChargebeeInvoice,
  ChargebeeInvoiceEstimate,
  ChargebeeLineItem,
  ChargebeePortalSession,
  ChargebeeSubscription,
  ChargebeeSubscriptionItem,
  ChargebeeTransaction,
} from './types';

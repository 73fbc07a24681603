/**
 * A stand-in for Chargebee (API v2, Product Catalog 2.0), on loopback, for the offline demo and tests.
 * Production never mounts it.
 * Routes, options and behaviour: docs/sandbox.md#chargebee.
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

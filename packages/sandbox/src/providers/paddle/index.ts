/**
 * A stand-in for Paddle Billing (v2), on loopback, for the offline demo and tests. Production never
 * mounts it.
 * Routes, options and behaviour: docs/sandbox.md#paddle.
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

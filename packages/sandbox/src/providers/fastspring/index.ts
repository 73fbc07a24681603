/**
 * A stand-in for FastSpring (Store Builder Library popup checkout, the REST API subset, signed batched
 * webhooks), on loopback, for the offline demo and tests. Production never mounts it.
 * Routes, options and behaviour: docs/sandbox.md#fastspring.
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

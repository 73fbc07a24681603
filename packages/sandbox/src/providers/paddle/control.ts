import { ControlRegistry, type WebhookControlMethods } from '../../kit/webhooks/control';
import type { PaddleChaos, PaddleDelivery, PaddleEvent, WebhookQueue } from './delivery';
import type { PaddleEngine } from './engine';
import { type PaddleSnapshot, PaddleSnapshotError } from './snapshot';
import type { PaddleCustomer, PaddleSubscription, PaddleTransaction } from './types';

/**
 * Drives one `paddleSandbox` registration from tests and the demo: webhook chaos and delivery, state,
 * time. Make it with `createPaddleSandboxControl()` and pass it as the option `control`; the methods
 * that read or change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface PaddleSandboxControl extends WebhookControlMethods<PaddleChaos, PaddleDelivery, string, PaddleSnapshot> {
  /** Every notification (a replay adds one), oldest first. */
  deliveries(): PaddleDelivery[];
  /** Every event made (its data as notified), oldest first. */
  events(): PaddleEvent[];
  /** Paddle's replay: a new notification (new notification_id, same event_id and data). Returns its notification_id. */
  replay(eventId: string): string;
  /** Never deliver this event's pending notifications (for reconciliation tests); replay() still can. */
  drop(eventId: string): void;
  /** The subscriptions as notified (no management_urls), oldest first. */
  subscriptions(): PaddleSubscription[];
  transactions(): PaddleTransaction[];
  customers(): PaddleCustomer[];
  /**
   * As if the current period's payment had failed: a past-due transaction, the subscription past_due,
   * and transaction.payment_failed, transaction.past_due, subscription.past_due. A card update (its
   * update-payment-method-transaction checkout) collects it and makes the subscription active again.
   */
  markPastDue(subscriptionId: string): PaddleTransaction;
  /**
   * A JSON copy of the state to carry on from later (customers, subscriptions with their scheduled
   * changes, transactions, live checkout pages and portal sessions, the id, time and invoice counters).
   * Events and notifications are not in it: a notification still pending or retrying is lost.
   */
  snapshot(): PaddleSnapshot;
  /**
   * Replaces the state with a snapshot's (made by `snapshot()` or the `onChange` option, possibly by
   * another process, after JSON). Checks all of it first: anything malformed (another `version`, a
   * field missing or of the wrong kind, an unknown field, a subscription naming a price the plugin's
   * `prices` no longer has...) throws a PaddleSnapshotError naming the first bad field, and nothing
   * changes. Ids, updated_at times and invoice numbers made afterwards sort after the snapshot's.
   * Events, notifications and chaos are left as they are. Calls `onChange`.
   */
  restore(snapshot: unknown): void;
}

const registry = new ControlRegistry<PaddleSandboxControl, PaddleEngine, WebhookQueue, PaddleChaos, PaddleDelivery, string, PaddleSnapshot>({
  control: 'PaddleSandboxControl',
  plugin: 'paddleSandbox',
  snapshot: (engine) => engine.snapshot(),
  restore: (engine, snapshot) => engine.restore(snapshot),
  SnapshotError: PaddleSnapshotError,
});

/** What the plugin reaches through a control. */
export const controlInternals = (control: PaddleSandboxControl) => registry.internals(control);

export function createPaddleSandboxControl(): PaddleSandboxControl {
  return registry.create((need, shared) => ({
    ...shared,
    events: () => need('events').queue.events(),
    replay: (eventId) => need('replay').queue.replay(eventId),
    subscriptions: () => need('subscriptions').engine.subscriptions(),
    transactions: () => need('transactions').engine.transactions(),
    customers: () => need('customers').engine.customers(),
    markPastDue: (id) => need('markPastDue').engine.markPastDue(id),
  }));
}

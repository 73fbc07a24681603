import { ControlRegistry, type WebhookControlMethods } from '../../kit/webhooks/control';
import type { FastspringChaos, FastspringEventDelivery, FastspringPost, WebhookQueue } from './delivery';
import type { FastspringEngine } from './engine';
import { type FastspringSnapshot, FastspringSnapshotError, restoreSnapshot, takeSnapshot } from './snapshot';
import type { FastspringAccount, FastspringEvent, FastspringOrder, FastspringSubscription } from './types';

/**
 * Drives one `fastspringSandbox` registration from tests and the demo: webhook chaos and delivery,
 * state, time. Make it with `createFastspringSandboxControl()` and pass it as the option `control`;
 * the methods that read or change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface FastspringSandboxControl extends WebhookControlMethods<FastspringChaos, FastspringEventDelivery, string, FastspringSnapshot> {
  /** Webhook chaos; the fields given replace the current ones (`reset()` clears it). `failFirst` sets how many of the next POSTs fail. */
  setChaos(chaos: FastspringChaos): void;
  /** Every POST made to the webhook URL (attempts, duplicates, failFirst failures), oldest first. */
  posts(): FastspringPost[];
  /** Every event made (as POSTed; `processed` as it stands now), oldest first. */
  events(): FastspringEvent[];
  /** Never send this event again (for reconciliation tests); it stays listed by GET /events/unprocessed. */
  drop(eventId: string): void;
  subscriptions(): FastspringSubscription[];
  orders(): FastspringOrder[];
  accounts(): FastspringAccount[];
  /** As if the rebill had failed: subscription.charge.failed + subscription.payment.overdue; state overdue. */
  markOverdue(subscriptionId: string): FastspringSubscription;
  /** The overdue payment succeeds: an order, subscription.charge.completed + subscription.updated; state active. */
  recover(subscriptionId: string): FastspringSubscription;
  /** Forgets all state, events and posts, clears the chaos and resumes delivery. */
  reset(): void;
}

const registry = new ControlRegistry<FastspringSandboxControl, FastspringEngine, WebhookQueue, FastspringChaos, FastspringEventDelivery, string, FastspringSnapshot>({
  control: 'FastspringSandboxControl',
  plugin: 'fastspringSandbox',
  probabilities: ['reorder'],
  snapshot: takeSnapshot,
  restore: restoreSnapshot,
  SnapshotError: FastspringSnapshotError,
});

/** What the plugin reaches through a control. */
export const controlInternals = (control: FastspringSandboxControl) => registry.internals(control);

export function createFastspringSandboxControl(): FastspringSandboxControl {
  return registry.create((need, shared) => ({
    ...shared,
    posts: () => need('posts').queue.posts(),
    events: () => need('events').queue.events(),
    subscriptions: () => need('subscriptions').engine.subscriptions(),
    orders() {
      const { engine } = need('orders');
      return engine.ordersOf({}).map((o) => engine.orderJson(o));
    },
    accounts() {
      const { engine } = need('accounts');
      return [...engine.accounts.values()].map((a) => engine.accountJson(a));
    },
    markOverdue: (id) => need('markOverdue').engine.markOverdue(id),
    recover: (id) => need('recover').engine.recover(id),
  }));
}

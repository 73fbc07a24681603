import type { PaddleChaos, PaddleDelivery, PaddleEvent, WebhookQueue } from './delivery';
import type { PaddleEngine } from './engine';
import { type PaddleSnapshot, PaddleSnapshotError } from './snapshot';
import type { PaddleCustomer, PaddleSubscription, PaddleTransaction } from './types';

/**
 * Drives one `paddleSandbox` registration from tests and the demo: webhook chaos and delivery, state,
 * time. Make it with `createPaddleSandboxControl()` and pass it as the option `control`; the methods
 * that read or change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface PaddleSandboxControl {
  /**
   * Webhook chaos; the fields given replace the current ones (`setChaos({})` changes nothing,
   * `reset()` clears it). `failFirst` sets how many of the next attempts fail.
   */
  setChaos(chaos: PaddleChaos): void;
  /** Every notification (a replay adds one), oldest first. */
  deliveries(): PaddleDelivery[];
  /** Every event made (its data as notified), oldest first. */
  events(): PaddleEvent[];
  /**
   * Sends every notification due now and waits for the attempts (those under way too). With
   * `ignoreBackoff`, notifications waiting for a retry are sent at once, again until none is pending.
   * Works while paused.
   */
  flush(options?: { ignoreBackoff?: boolean }): Promise<void>;
  /** Paddle's replay: a new notification (new notification_id, same event_id and data). Returns its notification_id. */
  replay(eventId: string): string;
  /** Never deliver this event's pending notifications (for reconciliation tests); replay() still can. */
  drop(eventId: string): void;
  /** Stops background delivery (events queue up until resume() or flush()). */
  pause(): void;
  resume(): void;
  /** The subscriptions as notified (no management_urls), oldest first. */
  subscriptions(): PaddleSubscription[];
  transactions(): PaddleTransaction[];
  customers(): PaddleCustomer[];
  /** Applies the changes due by the clock (scheduled cancels, renewals); requests do it too. */
  tick(): void;
  /**
   * As if the current period's payment had failed: a past-due transaction, the subscription past_due,
   * and transaction.payment_failed, transaction.past_due, subscription.past_due. A card update (its
   * update-payment-method-transaction checkout) collects it and makes the subscription active again.
   */
  markPastDue(subscriptionId: string): PaddleTransaction;
  /** Forgets all state, events and notifications, clears the chaos and resumes delivery. */
  reset(): void;
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

interface Bound {
  engine: PaddleEngine;
  queue: WebhookQueue;
}

/** What the plugin reaches through a control. */
export interface ControlInternals {
  bind(bound: Bound): void;
  unbind(bound: Bound): void;
  chaos(): PaddleChaos;
  /** Consumes one failFirst attempt: true when the attempt must fail. */
  takeFailure(): boolean;
}

const internals = new WeakMap<PaddleSandboxControl, ControlInternals>();

export function controlInternals(control: PaddleSandboxControl): ControlInternals {
  const found = internals.get(control);
  if (!found) throw new TypeError('paddleSandbox: control must come from createPaddleSandboxControl()');
  return found;
}

function checkChaos(chaos: PaddleChaos): void {
  if (chaos === null || typeof chaos !== 'object') throw new TypeError('setChaos: expects an object');
  if (chaos.duplicate !== undefined && !(typeof chaos.duplicate === 'number' && chaos.duplicate >= 0 && chaos.duplicate <= 1)) {
    throw new RangeError(`setChaos: duplicate must be a probability from 0 to 1, not ${chaos.duplicate}`);
  }
  if (chaos.failFirst !== undefined && !(Number.isInteger(chaos.failFirst) && chaos.failFirst >= 0)) {
    throw new RangeError(`setChaos: failFirst must be a whole number >= 0, not ${chaos.failFirst}`);
  }
  if (chaos.shuffle !== undefined && typeof chaos.shuffle !== 'boolean') throw new TypeError('setChaos: shuffle must be a boolean');
}

export function createPaddleSandboxControl(): PaddleSandboxControl {
  let bound: Bound | null = null;
  let chaos: { duplicate: number; shuffle: boolean } = { duplicate: 0, shuffle: false };
  let failuresLeft = 0;
  const need = (what: string): Bound => {
    if (!bound) throw new Error(`PaddleSandboxControl.${what}: the control is not attached to a registered paddleSandbox yet (await app.ready()).`);
    return bound;
  };
  const control: PaddleSandboxControl = {
    setChaos(next) {
      checkChaos(next);
      chaos = { duplicate: next.duplicate ?? chaos.duplicate, shuffle: next.shuffle ?? chaos.shuffle };
      if (next.failFirst !== undefined) failuresLeft = next.failFirst;
    },
    deliveries: () => need('deliveries').queue.list(),
    events: () => need('events').queue.events(),
    flush: (options) => need('flush').queue.flush(options?.ignoreBackoff === true),
    replay: (eventId) => need('replay').queue.replay(eventId),
    drop: (eventId) => need('drop').queue.drop(eventId),
    pause: () => need('pause').queue.pause(),
    resume: () => need('resume').queue.resume(),
    subscriptions: () => need('subscriptions').engine.subscriptions(),
    transactions: () => need('transactions').engine.transactions(),
    customers: () => need('customers').engine.customers(),
    tick: () => need('tick').engine.tick(),
    markPastDue: (id) => need('markPastDue').engine.markPastDue(id),
    reset() {
      const b = need('reset');
      chaos = { duplicate: 0, shuffle: false };
      failuresLeft = 0;
      b.queue.reset();
      b.engine.reset();
      b.queue.resume();
    },
    snapshot: () => need('snapshot').engine.snapshot(),
    restore(snapshot) {
      const b = need('restore');
      try {
        b.engine.restore(snapshot);
      } catch (err) {
        if (err instanceof PaddleSnapshotError) throw new PaddleSnapshotError(`PaddleSandboxControl.restore: ${err.message}`);
        throw err;
      }
    },
  };
  internals.set(control, {
    bind(next) {
      if (bound && bound !== next) throw new Error('This PaddleSandboxControl already drives another live paddleSandbox registration: create one control per registration.');
      bound = next;
    },
    unbind(old) {
      if (bound === old) bound = null;
    },
    chaos: () => ({ ...chaos, failFirst: failuresLeft }),
    takeFailure() {
      if (failuresLeft <= 0) return false;
      failuresLeft--;
      return true;
    },
  });
  return control;
}

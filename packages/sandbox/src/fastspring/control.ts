import type { FastspringChaos, FastspringEventDelivery, FastspringPost, WebhookQueue } from './delivery';
import type { FastspringEngine } from './engine';
import { type FastspringSnapshot, FastspringSnapshotError, restoreSnapshot, takeSnapshot } from './snapshot';
import type { FastspringAccount, FastspringEvent, FastspringOrder, FastspringSubscription } from './types';

/**
 * Drives one `fastspringSandbox` registration from tests and the demo: webhook chaos and delivery,
 * state, time. Make it with `createFastspringSandboxControl()` and pass it as the option `control`;
 * the methods that read or change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface FastspringSandboxControl {
  /** Webhook chaos; the fields given replace the current ones (`reset()` clears it). `failFirst` sets how many of the next POSTs fail. */
  setChaos(chaos: FastspringChaos): void;
  /** Where every event stands (attempts, state), oldest first. */
  deliveries(): FastspringEventDelivery[];
  /** Every POST made to the webhook URL (attempts, duplicates, failFirst failures), oldest first. */
  posts(): FastspringPost[];
  /** Every event made (as POSTed; `processed` as it stands now), oldest first. */
  events(): FastspringEvent[];
  /**
   * Sends every event due now and waits for the POSTs (those under way too). With `ignoreBackoff`,
   * events waiting for a retry are sent at once, again until none is pending. Works while paused.
   */
  flush(options?: { ignoreBackoff?: boolean }): Promise<void>;
  /** Never send this event again (for reconciliation tests); it stays listed by GET /events/unprocessed. */
  drop(eventId: string): void;
  /** Stops background delivery (events queue up until resume() or flush()). */
  pause(): void;
  resume(): void;
  subscriptions(): FastspringSubscription[];
  orders(): FastspringOrder[];
  accounts(): FastspringAccount[];
  /** Applies what is due by the clock (renewals, deactivations); every request does it too. */
  tick(): void;
  /** As if the rebill had failed: subscription.charge.failed + subscription.payment.overdue; state overdue. */
  markOverdue(subscriptionId: string): FastspringSubscription;
  /** The overdue payment succeeds: an order, subscription.charge.completed + subscription.updated; state active. */
  recover(subscriptionId: string): FastspringSubscription;
  /** Forgets all state, events and posts, clears the chaos and resumes delivery. */
  reset(): void;
  /** A JSON copy of the state to carry on from later (events and their delivery are not in it). */
  snapshot(): FastspringSnapshot;
  /**
   * Replaces the state with a snapshot's, checked whole first: anything malformed throws a
   * FastspringSnapshotError naming the first bad field, and nothing changes. Calls `onChange`.
   */
  restore(snapshot: unknown): void;
}

interface Bound {
  engine: FastspringEngine;
  queue: WebhookQueue;
}

export interface ControlInternals {
  bind(bound: Bound): void;
  unbind(bound: Bound): void;
  chaos(): FastspringChaos;
  takeFailure(): boolean;
}

const internals = new WeakMap<FastspringSandboxControl, ControlInternals>();

export function controlInternals(control: FastspringSandboxControl): ControlInternals {
  const found = internals.get(control);
  if (!found) throw new TypeError('fastspringSandbox: control must come from createFastspringSandboxControl()');
  return found;
}

function probability(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= 1)) throw new RangeError(`setChaos: ${name} must be a probability from 0 to 1, not ${value}`);
}

function checkChaos(chaos: FastspringChaos): void {
  if (chaos === null || typeof chaos !== 'object') throw new TypeError('setChaos: expects an object');
  probability('duplicate', chaos.duplicate);
  probability('reorder', chaos.reorder);
  if (chaos.failFirst !== undefined && !(Number.isInteger(chaos.failFirst) && chaos.failFirst >= 0)) throw new RangeError(`setChaos: failFirst must be a whole number >= 0, not ${chaos.failFirst}`);
  if (chaos.shuffle !== undefined && typeof chaos.shuffle !== 'boolean') throw new TypeError('setChaos: shuffle must be a boolean');
}

export function createFastspringSandboxControl(): FastspringSandboxControl {
  let bound: Bound | null = null;
  let chaos = { duplicate: 0, shuffle: false, reorder: 0 };
  let failuresLeft = 0;
  const need = (what: string): Bound => {
    if (!bound) throw new Error(`FastspringSandboxControl.${what}: the control is not attached to a registered fastspringSandbox yet (await app.ready()).`);
    return bound;
  };
  const control: FastspringSandboxControl = {
    setChaos(next) {
      checkChaos(next);
      chaos = { duplicate: next.duplicate ?? chaos.duplicate, shuffle: next.shuffle ?? chaos.shuffle, reorder: next.reorder ?? chaos.reorder };
      if (next.failFirst !== undefined) failuresLeft = next.failFirst;
    },
    deliveries: () => need('deliveries').queue.deliveries(),
    posts: () => need('posts').queue.posts(),
    events: () => need('events').queue.events(),
    flush: (options) => need('flush').queue.flush(options?.ignoreBackoff === true),
    drop: (id) => need('drop').queue.drop(id),
    pause: () => need('pause').queue.pause(),
    resume: () => need('resume').queue.resume(),
    subscriptions: () => need('subscriptions').engine.subscriptions(),
    orders() {
      const { engine } = need('orders');
      return engine.ordersOf({}).map((o) => engine.orderJson(o));
    },
    accounts() {
      const { engine } = need('accounts');
      return [...engine.accounts.values()].map((a) => engine.accountJson(a));
    },
    tick: () => need('tick').engine.tick(),
    markOverdue: (id) => need('markOverdue').engine.markOverdue(id),
    recover: (id) => need('recover').engine.recover(id),
    reset() {
      const b = need('reset');
      chaos = { duplicate: 0, shuffle: false, reorder: 0 };
      failuresLeft = 0;
      b.queue.reset();
      b.engine.reset();
      b.queue.resume();
    },
    snapshot: () => takeSnapshot(need('snapshot').engine),
    restore(snapshot) {
      const b = need('restore');
      try {
        restoreSnapshot(b.engine, snapshot);
      } catch (err) {
        if (err instanceof FastspringSnapshotError) throw new FastspringSnapshotError(`FastspringSandboxControl.restore: ${err.message}`);
        throw err;
      }
    },
  };
  internals.set(control, {
    bind(next) {
      if (bound && bound !== next) throw new Error('This FastspringSandboxControl already drives another live fastspringSandbox registration: create one control per registration.');
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

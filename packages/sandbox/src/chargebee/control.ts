import type { ChargebeeChaos, ChargebeeDelivery, WebhookQueue } from './delivery';
import type { ChargebeeEngine } from './engine';
import { type ChargebeeSnapshot, ChargebeeSnapshotError } from './snapshot';
import type { ChargebeeCustomer, ChargebeeEvent, ChargebeeInvoice, ChargebeeSubscription } from './types';

/**
 * Drives one `chargebeeSandbox` registration from tests and the demo. Make it with
 * `createChargebeeSandboxControl()` and pass it as the option `control`; the methods that read or
 * change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface ChargebeeSandboxControl {
  /** Webhook chaos; the fields given replace the current ones. `failFirst` sets how many of the next attempts fail. */
  setChaos(chaos: ChargebeeChaos): void;
  /** Every event's delivery, oldest first. */
  deliveries(): ChargebeeDelivery[];
  /** Every event as sent (webhook_status `scheduled`), oldest first. */
  events(): ChargebeeEvent[];
  /** Sends every event due now and waits; with `ignoreBackoff`, retries too, until none is pending. Works while paused. */
  flush(options?: { ignoreBackoff?: boolean }): Promise<void>;
  /** Never deliver this event (GET /events/{id} still answers it, webhook_status `skipped`). */
  drop(eventId: string): void;
  /** Stops background delivery (events queue up until resume() or flush()). */
  pause(): void;
  resume(): void;
  subscriptions(): ChargebeeSubscription[];
  customers(): ChargebeeCustomer[];
  invoices(): ChargebeeInvoice[];
  /** Applies what the clock says is due (renewals, scheduled cancellations); every request does it too. */
  tick(): void;
  /** The current term's payment fails: an unpaid invoice, due_invoices_count 1, payment_failed. */
  failPayment(subscriptionId: string): ChargebeeInvoice;
  /** The failed payment is collected: the invoice paid, due_invoices_count 0, payment_succeeded. */
  recover(subscriptionId: string): ChargebeeInvoice;
  /** Forgets all state and events, clears the chaos and resumes delivery. */
  reset(): void;
  /** A JSON copy of the state (see ChargebeeSnapshot). */
  snapshot(): ChargebeeSnapshot;
  /** Replaces the state with a snapshot's after checking all of it (ChargebeeSnapshotError naming the first bad field; nothing changes then). */
  restore(snapshot: unknown): void;
}

interface Bound {
  engine: ChargebeeEngine;
  queue: WebhookQueue;
}

export interface ControlInternals {
  bind(bound: Bound): void;
  unbind(bound: Bound): void;
  chaos(): ChargebeeChaos;
  takeFailure(): boolean;
}

const internals = new WeakMap<ChargebeeSandboxControl, ControlInternals>();

export function controlInternals(control: ChargebeeSandboxControl): ControlInternals {
  const found = internals.get(control);
  if (!found) throw new TypeError('chargebeeSandbox: control must come from createChargebeeSandboxControl()');
  return found;
}

function checkChaos(chaos: ChargebeeChaos): void {
  if (chaos === null || typeof chaos !== 'object') throw new TypeError('setChaos: expects an object');
  if (chaos.duplicate !== undefined && !(typeof chaos.duplicate === 'number' && chaos.duplicate >= 0 && chaos.duplicate <= 1)) {
    throw new RangeError(`setChaos: duplicate must be a probability from 0 to 1, not ${chaos.duplicate}`);
  }
  if (chaos.failFirst !== undefined && !(Number.isInteger(chaos.failFirst) && chaos.failFirst >= 0)) {
    throw new RangeError(`setChaos: failFirst must be a whole number >= 0, not ${chaos.failFirst}`);
  }
  if (chaos.shuffle !== undefined && typeof chaos.shuffle !== 'boolean') throw new TypeError('setChaos: shuffle must be a boolean');
}

export function createChargebeeSandboxControl(): ChargebeeSandboxControl {
  let bound: Bound | null = null;
  let chaos = { duplicate: 0, shuffle: false };
  let failuresLeft = 0;
  const need = (what: string): Bound => {
    if (!bound) throw new Error(`ChargebeeSandboxControl.${what}: the control is not attached to a registered chargebeeSandbox yet (await app.ready()).`);
    return bound;
  };
  const control: ChargebeeSandboxControl = {
    setChaos(next) {
      checkChaos(next);
      chaos = { duplicate: next.duplicate ?? chaos.duplicate, shuffle: next.shuffle ?? chaos.shuffle };
      if (next.failFirst !== undefined) failuresLeft = next.failFirst;
    },
    deliveries: () => need('deliveries').queue.list(),
    events: () => need('events').queue.events().map(({ webhooks: _w, ...e }) => ({ ...e, webhook_status: 'scheduled' as const })),
    flush: (options) => need('flush').queue.flush(options?.ignoreBackoff === true),
    drop: (eventId) => need('drop').queue.drop(eventId),
    pause: () => need('pause').queue.pause(),
    resume: () => need('resume').queue.resume(),
    subscriptions: () => need('subscriptions').engine.subscriptions().map((x) => x.subscription).reverse(),
    customers: () => need('customers').engine.customers(),
    invoices: () => need('invoices').engine.invoices().reverse(),
    tick: () => need('tick').engine.tick(),
    failPayment: (id) => need('failPayment').engine.failPayment(id),
    recover: (id) => need('recover').engine.recover(id),
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
        if (err instanceof ChargebeeSnapshotError) throw new ChargebeeSnapshotError(`ChargebeeSandboxControl.restore: ${err.message}`);
        throw err;
      }
    },
  };
  internals.set(control, {
    bind(next) {
      if (bound && bound !== next) throw new Error('This ChargebeeSandboxControl already drives another live chargebeeSandbox registration: create one control per registration.');
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

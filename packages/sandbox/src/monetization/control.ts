import type { EndpointCheck, EventQueue, MonetizationChaos, MonetizationDelivery } from './delivery';
import type { MonetizationEngine } from './engine';
import { type MonetizationSnapshot, MonetizationSnapshotError } from './snapshot';
import type { DiscordEntitlement, DiscordSubscription } from './types';

/**
 * Drives the monetization part of one `discordSandbox` registration (the `monetization.control`
 * option): webhook chaos and delivery, endpoint checks, time-driven changes, refunds, state. Make it
 * with `createMonetizationControl()`; the methods that read or change state throw until the plugin is
 * registered (after `await app.ready()`). Time is the Discord sandbox's (its `clock` option plus
 * `SandboxControl.advanceTime`); `SandboxControl.reset()` does not touch monetization (use `reset()` here).
 */
export interface MonetizationControl {
  /** Webhook chaos; the fields given replace the current ones. `failFirst` sets how many of the next attempts fail. */
  setChaos(chaos: MonetizationChaos): void;
  /** Every webhook event made and its delivery (attempts, state, last status, exact body), oldest first. */
  deliveries(): MonetizationDelivery[];
  /** Sends what is due now and waits (with ignoreBackoff: retries too, until none is pending). Works while paused. */
  flush(options?: { ignoreBackoff?: boolean }): Promise<void>;
  /** Never deliver this event (by its `deliveries()` id) unless already delivered. */
  drop(id: number): void;
  /** Stops background delivery (events queue up until resume() or flush()). */
  pause(): void;
  resume(): void;
  /** Applies what the clock made due (renewals, ends of canceled subscriptions); every request does it too. */
  tick(): void;
  /** Staff refund: the entitlement is deleted (ENTITLEMENT_DELETE), its subscription INACTIVE. Returns it as sent. */
  refund(entitlementId: string): DiscordEntitlement;
  /** As the user would in Discord's settings: cancel (ENDING, canceled_at) or take the cancel back. */
  cancelSubscription(subscriptionId: string): DiscordSubscription;
  uncancelSubscription(subscriptionId: string): DiscordSubscription;
  /** Sends a PING, validly signed, now: Discord requires 204 (empty body). */
  ping(): Promise<EndpointCheck>;
  /** Sends a PING with an invalid signature, now: Discord requires 401 (else it removes the URL). */
  probe(): Promise<EndpointCheck>;
  /** The entitlements (GET form, deleted ones included) and subscriptions, in id order. */
  entitlements(): DiscordEntitlement[];
  subscriptions(): DiscordSubscription[];
  /** State back to the registration's start (the seeded initialEntitlements only); forgets deliveries, clears chaos, resumes. */
  reset(): void;
  /** A JSON copy of the entitlements, subscriptions and id counter (deliveries are not kept). */
  snapshot(): MonetizationSnapshot;
  /** Replaces the state with a checked snapshot's; a MonetizationSnapshotError names the first bad field and nothing changes. */
  restore(snapshot: unknown): void;
}

interface Bound {
  engine: MonetizationEngine;
  queue: EventQueue;
}

export interface MonetizationControlInternals {
  bind(bound: Bound): void;
  unbind(bound: Bound): void;
  chaos(): MonetizationChaos;
  takeFailure(): boolean;
}

const internals = new WeakMap<MonetizationControl, MonetizationControlInternals>();

export function monetizationInternals(control: MonetizationControl): MonetizationControlInternals {
  const found = internals.get(control);
  if (!found) throw new TypeError('discordSandbox: monetization.control must come from createMonetizationControl()');
  return found;
}

function checkChaos(chaos: MonetizationChaos): void {
  if (chaos === null || typeof chaos !== 'object') throw new TypeError('setChaos: expects an object');
  if (chaos.duplicate !== undefined && !(typeof chaos.duplicate === 'number' && chaos.duplicate >= 0 && chaos.duplicate <= 1)) {
    throw new RangeError(`setChaos: duplicate must be a probability from 0 to 1, not ${chaos.duplicate}`);
  }
  if (chaos.failFirst !== undefined && !(Number.isInteger(chaos.failFirst) && chaos.failFirst >= 0)) {
    throw new RangeError(`setChaos: failFirst must be a whole number >= 0, not ${chaos.failFirst}`);
  }
  if (chaos.shuffle !== undefined && typeof chaos.shuffle !== 'boolean') throw new TypeError('setChaos: shuffle must be a boolean');
}

export function createMonetizationControl(): MonetizationControl {
  let bound: Bound | null = null;
  let chaos = { duplicate: 0, shuffle: false };
  let failuresLeft = 0;
  const need = (what: string): Bound => {
    if (!bound) throw new Error(`MonetizationControl.${what}: the control is not attached to a registered discordSandbox with the monetization option yet (await app.ready()).`);
    return bound;
  };
  const control: MonetizationControl = {
    setChaos(next) {
      checkChaos(next);
      chaos = { duplicate: next.duplicate ?? chaos.duplicate, shuffle: next.shuffle ?? chaos.shuffle };
      if (next.failFirst !== undefined) failuresLeft = next.failFirst;
    },
    deliveries: () => need('deliveries').queue.list(),
    flush: (options) => need('flush').queue.flush(options?.ignoreBackoff === true),
    drop: (id) => need('drop').queue.drop(id),
    pause: () => need('pause').queue.pause(),
    resume: () => need('resume').queue.resume(),
    tick: () => need('tick').engine.tick(),
    refund(entitlementId) {
      const { engine } = need('refund');
      return engine.entitlementJson(engine.refund(entitlementId), 'rest');
    },
    cancelSubscription(subscriptionId) {
      const { engine } = need('cancelSubscription');
      return engine.subscriptionJson(engine.cancel(subscriptionId));
    },
    uncancelSubscription(subscriptionId) {
      const { engine } = need('uncancelSubscription');
      return engine.subscriptionJson(engine.resume(subscriptionId));
    },
    ping: () => need('ping').queue.ping(),
    probe: () => need('probe').queue.probe(),
    entitlements() {
      const { engine } = need('entitlements');
      engine.tick();
      return engine.entitlementList().map((e) => engine.entitlementJson(e, 'rest'));
    },
    subscriptions() {
      const { engine } = need('subscriptions');
      engine.tick();
      return engine.subscriptionList().map((s) => engine.subscriptionJson(s));
    },
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
        if (err instanceof MonetizationSnapshotError) throw new MonetizationSnapshotError(`MonetizationControl.restore: ${err.message}`);
        throw err;
      }
    },
  };
  internals.set(control, {
    bind(next) {
      if (bound && bound !== next) throw new Error('This MonetizationControl already drives another live discordSandbox registration: create one control per registration.');
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

import { ControlRegistry, type WebhookControlMethods } from '../../kit/webhooks/control';
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
export interface MonetizationControl extends WebhookControlMethods<MonetizationChaos, MonetizationDelivery, number, MonetizationSnapshot> {
  /** Every webhook event made and its delivery (attempts, state, last status, exact body), oldest first. */
  deliveries(): MonetizationDelivery[];
  /** Never deliver this event (by its `deliveries()` id) unless already delivered. */
  drop(id: number): void;
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
}

const registry = new ControlRegistry<MonetizationControl, MonetizationEngine, EventQueue, MonetizationChaos, MonetizationDelivery, number, MonetizationSnapshot>({
  control: 'MonetizationControl',
  plugin: 'discordSandbox',
  option: 'monetization.control',
  attachedTo: 'a registered discordSandbox with the monetization option',
  snapshot: (engine) => engine.snapshot(),
  restore: (engine, snapshot) => engine.restore(snapshot),
  SnapshotError: MonetizationSnapshotError,
});

/** What the plugin reaches through a control. */
export const monetizationInternals = (control: MonetizationControl) => registry.internals(control);

export function createMonetizationControl(): MonetizationControl {
  return registry.create((need, shared) => ({
    ...shared,
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
  }));
}

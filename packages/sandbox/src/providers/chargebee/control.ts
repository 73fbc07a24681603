import { ControlRegistry, type WebhookControlMethods } from '../../kit/webhooks/control';
import type { ChargebeeChaos, ChargebeeDelivery, WebhookQueue } from './delivery';
import type { ChargebeeEngine } from './engine';
import { type ChargebeeSnapshot, ChargebeeSnapshotError } from './snapshot';
import type { ChargebeeCustomer, ChargebeeEvent, ChargebeeInvoice, ChargebeeSubscription } from './types';

/**
 * Drives one `chargebeeSandbox` registration from tests and the demo. Make it with
 * `createChargebeeSandboxControl()` and pass it as the option `control`; the methods that read or
 * change state throw until the plugin is registered (after `await app.ready()`).
 */
export interface ChargebeeSandboxControl extends WebhookControlMethods<ChargebeeChaos, ChargebeeDelivery, string, ChargebeeSnapshot> {
  /** Every event as sent (webhook_status `scheduled`), oldest first. */
  events(): ChargebeeEvent[];
  /** Never deliver this event (GET /events/{id} still answers it, webhook_status `skipped`). */
  drop(eventId: string): void;
  subscriptions(): ChargebeeSubscription[];
  customers(): ChargebeeCustomer[];
  invoices(): ChargebeeInvoice[];
  /** The current term's payment fails: an unpaid invoice, due_invoices_count 1, payment_failed. */
  failPayment(subscriptionId: string): ChargebeeInvoice;
  /** The failed payment is collected: the invoice paid, due_invoices_count 0, payment_succeeded. */
  recover(subscriptionId: string): ChargebeeInvoice;
  /** A JSON copy of the state (see ChargebeeSnapshot). */
  snapshot(): ChargebeeSnapshot;
}

const registry = new ControlRegistry<ChargebeeSandboxControl, ChargebeeEngine, WebhookQueue, ChargebeeChaos, ChargebeeDelivery, string, ChargebeeSnapshot>({
  control: 'ChargebeeSandboxControl',
  plugin: 'chargebeeSandbox',
  snapshot: (engine) => engine.snapshot(),
  restore: (engine, snapshot) => engine.restore(snapshot),
  SnapshotError: ChargebeeSnapshotError,
});

/** What the plugin reaches through a control. */
export const controlInternals = (control: ChargebeeSandboxControl) => registry.internals(control);

export function createChargebeeSandboxControl(): ChargebeeSandboxControl {
  return registry.create((need, shared) => ({
    ...shared,
    events: () => need('events').queue.events().map(({ webhooks: _webhooks, ...event }) => ({ ...event, webhook_status: 'scheduled' as const })),
    subscriptions: () => need('subscriptions').engine.subscriptions().map((x) => x.subscription).reverse(),
    customers: () => need('customers').engine.customers(),
    invoices: () => need('invoices').engine.invoices().reverse(),
    failPayment: (id) => need('failPayment').engine.failPayment(id),
    recover: (id) => need('recover').engine.recover(id),
  }));
}

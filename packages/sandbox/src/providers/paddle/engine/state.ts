import type { WebhookQueue } from '../delivery';
import { type IdSequence, idParts, isoMicros, isoMs, microsOf } from '../ids';
import { type PaddleSnapshot, readSnapshot } from '../snapshot';
import type { PaddleTransaction } from '../types';
import { type CatalogPrice, type CheckoutSession, type CustomerRecord, type EngineOptions, type PortalRecord, resolvePrices, type SubscriptionRecord, sameApartFromTimes } from './model';

/** The records (customers, subscriptions, transactions, sessions), the clock and the snapshot: the layer every resource builds on. */
export class PaddleState {
  readonly catalog: Map<string, CatalogPrice>;
  readonly clock: () => number;
  protected customerRecords = new Map<string, CustomerRecord>();
  protected subscriptionRecords = new Map<string, SubscriptionRecord>();
  protected transactionRecords = new Map<string, PaddleTransaction>();
  protected checkoutSessions = new Map<string, CheckoutSession>();
  protected portalRecords = new Map<string, PortalRecord>();
  protected lastMicros = 0;
  protected invoiceNumber = 0;

  /** Called after every change of the state (the plugin's onChange, debounced there). */
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
    /** Every id the registration makes (shared with its webhook queue). */
    readonly ids: IdSequence,
  ) {
    this.clock = options.clock;
    this.catalog = resolvePrices(options.prices, isoMs(options.clock()));
  }

  now(): number {
    return this.clock();
  }

  /**
   * A time for `updated_at`/`occurred_at`: the clock with microseconds, strictly increasing across the
   * whole stand-in (two changes in the same millisecond are 1 µs apart), so every subscription's
   * `updated_at` grows with each change even under a frozen test clock.
   */
  stamp(): string {
    this.lastMicros = Math.max(Math.floor(this.now()) * 1000, this.lastMicros + 1);
    return isoMicros(this.lastMicros);
  }

  reset(): void {
    this.customerRecords.clear();
    this.subscriptionRecords.clear();
    this.transactionRecords.clear();
    this.checkoutSessions.clear();
    this.portalRecords.clear();
    this.lastMicros = 0;
    this.invoiceNumber = 0;
    this.changed();
  }

  /** A JSON copy of the state (see PaddleSnapshot); expired checkout pages and portal links are left out. */
  snapshot(): PaddleSnapshot {
    const now = this.now();
    const ids = this.ids.state();
    return {
      version: 1,
      takenAt: now,
      sequence: { idTime: ids.time, idRandom: ids.random, lastMicros: this.lastMicros, invoiceNumber: this.invoiceNumber },
      catalog: [...this.catalog.values()].map((c) => ({ price: structuredClone(c.price), product: structuredClone(c.product) })),
      customers: [...this.customerRecords.values()].map((customer) => ({
        customer: structuredClone(customer.customer),
        addressId: customer.addressId,
        userId: customer.userId,
        credit: Object.fromEntries(customer.credit),
      })),
      subscriptions: [...this.subscriptionRecords.values()].map((sub) => structuredClone(sub)),
      transactions: [...this.transactionRecords.values()].map((t) => structuredClone(t)),
      checkouts: [...this.checkoutSessions.values()]
        .filter((c) => c.expiresAt > now)
        .map((checkoutSession) => ({
          id: checkoutSession.id,
          kind: checkoutSession.kind,
          lines: checkoutSession.lines.map((l) => ({ priceId: l.price.id, quantity: l.quantity })),
          customData: checkoutSession.customData === null ? null : structuredClone(checkoutSession.customData),
          email: checkoutSession.email,
          successUrl: checkoutSession.successUrl,
          parentOrigin: checkoutSession.parentOrigin,
          transactionId: checkoutSession.transactionId,
          dueMinor: checkoutSession.dueMinor,
          expiresAt: checkoutSession.expiresAt,
          result: checkoutSession.result === null ? null : structuredClone(checkoutSession.result),
        })),
      portals: [...this.portalRecords.values()].filter((x) => x.expiresAt > now).map((x) => structuredClone(x)),
    };
  }

  /**
   * Replaces the state with a snapshot's, after checking all of it (a PaddleSnapshotError names the
   * first bad field; nothing changes then). The id sequence, the updated_at microseconds and the invoice
   * number only move forward: later ids, times and numbers follow both the snapshot's and this
   * registration's. Configured prices named in the snapshot's catalog get their created_at back (and
   * updated_at too when nothing else about them changed). Events and notifications are left alone.
   */
  restore(input: unknown): void {
    const snap = readSnapshot(input, this.catalog);
    // Everything below only builds new values from the checked copy, then swaps them in.
    const catalogTimes = new Map(snap.catalog.map((c) => [c.price.id, c]));
    const customers = new Map<string, CustomerRecord>(
      snap.customers.map((c) => [c.customer.id, { customer: c.customer, addressId: c.addressId, userId: c.userId, credit: new Map(Object.entries(c.credit)) }]),
    );
    const subscriptions = new Map(snap.subscriptions.map((sub) => [sub.id, sub]));
    const transactions = new Map(snap.transactions.map((t) => [t.id, t]));
    const checkouts = new Map<string, CheckoutSession>(
      snap.checkouts.map((c) => [c.id, { ...c, lines: c.lines.map((l) => ({ price: this.catalog.get(l.priceId)!, quantity: l.quantity })) }]),
    );
    const portals = new Map(snap.portals.map((x) => [x.session.id, x]));

    let micros = snap.sequence.lastMicros;
    const seen = (iso: string | null) => {
      const months = iso === null ? Number.NaN : microsOf(iso);
      if (Number.isFinite(months) && months > micros) micros = months;
    };
    for (const customer of snap.customers) seen(customer.customer.updated_at);
    for (const sub of snap.subscriptions) {
      seen(sub.updatedAt);
      seen(sub.canceledAt);
      for (const item of sub.items) seen(item.updatedAt);
    }
    for (const transaction of snap.transactions) {
      seen(transaction.updated_at);
      for (const pay of transaction.payments) seen(pay.created_at);
    }
    let invoiceNumber = snap.sequence.invoiceNumber;
    for (const transaction of snap.transactions) {
      const match = /-(\d{1,15})$/.exec(transaction.invoice_number ?? '');
      if (match) invoiceNumber = Math.max(invoiceNumber, Number(match[1]));
    }

    for (const [priceId, catalogPrice] of this.catalog) {
      const old = catalogTimes.get(priceId);
      if (!old) continue;
      const priceSame = sameApartFromTimes(old.price, catalogPrice.price);
      const productSame = old.product.id === catalogPrice.product.id && sameApartFromTimes(old.product, catalogPrice.product);
      catalogPrice.price.created_at = old.price.created_at;
      if (priceSame) catalogPrice.price.updated_at = old.price.updated_at;
      if (old.product.id === catalogPrice.product.id) {
        catalogPrice.product.created_at = old.product.created_at;
        if (productSame) catalogPrice.product.updated_at = old.product.updated_at;
      }
    }
    this.customerRecords = customers;
    this.subscriptionRecords = subscriptions;
    this.transactionRecords = transactions;
    this.checkoutSessions = checkouts;
    this.portalRecords = portals;
    this.lastMicros = Math.max(this.lastMicros, micros);
    this.invoiceNumber = Math.max(this.invoiceNumber, invoiceNumber);
    this.ids.raise({ time: snap.sequence.idTime, random: BigInt(snap.sequence.idRandom) });
    const raiseTo = (id: string | null) => {
      const parts = id === null ? null : idParts(id);
      if (parts) this.ids.raise(parts);
    };
    for (const customer of snap.customers) {
      raiseTo(customer.customer.id);
      raiseTo(customer.addressId);
    }
    for (const sub of snap.subscriptions) raiseTo(sub.id);
    for (const transaction of snap.transactions) {
      raiseTo(transaction.id);
      raiseTo(transaction.invoice_id);
    }
    for (const checkout of snap.checkouts) raiseTo(checkout.id);
    for (const portal of snap.portals) raiseTo(portal.session.id);
    this.changed();
  }

  protected changed(): void {
    this.onChange?.();
  }

  protected emit(type: string, data: unknown): string {
    const id = this.queue.enqueue(type, data, this.stamp());
    this.changed();
    return id;
  }

  protected touch(sub: SubscriptionRecord): void {
    sub.updatedAt = this.stamp();
  }
}

import { randomId, type WebhookQueue } from '../delivery';
import { type ChargebeeSnapshot, readSnapshot } from '../snapshot';
import type { ChargebeeEventContent, ChargebeeInvoice, EventSource } from '../types';
import { type ChargebeeItemPriceOption, type CustomerRecord, type Download, type EngineOptions, type HostedPageRecord, type PortalRecord, resolveCatalog, type SubscriptionRecord } from './model';

/** The records, the clock, the resource versions, events and the snapshot: the layer every resource builds on. */
export class ChargebeeState {
  readonly catalog: Map<string, ChargebeeItemPriceOption>;
  protected customerRecords = new Map<string, CustomerRecord>();
  protected subscriptionRecords = new Map<string, SubscriptionRecord>();
  protected invoiceRecords = new Map<string, ChargebeeInvoice>();
  protected hostedPages = new Map<string, HostedPageRecord>();
  protected portalRecords = new Map<string, PortalRecord>();
  protected downloadTokens = new Map<string, Download>();
  protected lastVersion = 0;
  protected invoiceNumber = 0;
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
  ) {
    this.catalog = resolveCatalog(options.itemPrices);
  }

  now(): number {
    return this.options.clock();
  }

  /** The clock in Unix seconds. */
  sec(): number {
    return Math.floor(this.now() / 1000);
  }

  /** A resource_version: the clock in ms, strictly increasing across the registration. */
  protected version(): number {
    this.lastVersion = Math.max(Math.floor(this.now()), this.lastVersion + 1);
    return this.lastVersion;
  }

  protected changed(): void {
    this.onChange?.();
  }

  protected emit(type: string, source: EventSource, content: ChargebeeEventContent): void {
    this.queue.enqueue({
      id: randomId('ev_'),
      occurred_at: this.sec(),
      source,
      object: 'event',
      api_version: 'v2',
      event_type: type,
      webhook_status: 'scheduled',
      content: structuredClone(content),
    });
  }

  reset(): void {
    this.customerRecords.clear();
    this.subscriptionRecords.clear();
    this.invoiceRecords.clear();
    this.hostedPages.clear();
    this.portalRecords.clear();
    this.downloadTokens.clear();
    this.lastVersion = 0;
    this.invoiceNumber = 0;
    this.changed();
  }

  snapshot(): ChargebeeSnapshot {
    const nowS = this.sec();
    return {
      version: 1,
      takenAt: this.now(),
      sequence: { lastVersion: this.lastVersion, invoiceNumber: this.invoiceNumber },
      customers: [...this.customerRecords.values()].map((c) => structuredClone(c)),
      subscriptions: [...this.subscriptionRecords.values()].map((s) => structuredClone(s)),
      invoices: [...this.invoiceRecords.values()].map((i) => structuredClone(i)),
      hostedPages: [...this.hostedPages.values()].filter((p) => p.expiresAt > nowS || p.state === 'succeeded').map((p) => structuredClone(p)),
      portals: [...this.portalRecords.values()].filter((p) => p.expiresAt > nowS).map((p) => structuredClone(p)),
    };
  }

  restore(input: unknown): void {
    const snapshot = readSnapshot(input, this.catalog);
    let last = snapshot.sequence.lastVersion;
    for (const customer of [...snapshot.customers, ...snapshot.subscriptions, ...snapshot.hostedPages]) last = Math.max(last, customer.version);
    for (const inv of snapshot.invoices) last = Math.max(last, inv.resource_version);
    let number = snapshot.sequence.invoiceNumber;
    for (const inv of snapshot.invoices) if (/^\d{1,15}$/.test(inv.id)) number = Math.max(number, Number(inv.id));
    this.customerRecords = new Map(snapshot.customers.map((c) => [c.id, c]));
    this.subscriptionRecords = new Map(snapshot.subscriptions.map((x) => [x.id, x]));
    this.invoiceRecords = new Map(snapshot.invoices.map((x) => [x.id, x]));
    this.hostedPages = new Map(snapshot.hostedPages.map((x) => [x.id, x]));
    this.portalRecords = new Map(snapshot.portals.map((x) => [x.id, x]));
    this.downloadTokens.clear();
    this.lastVersion = Math.max(this.lastVersion, last);
    this.invoiceNumber = Math.max(this.invoiceNumber, number);
    this.changed();
  }
}

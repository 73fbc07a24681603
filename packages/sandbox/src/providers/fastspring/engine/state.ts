import { randomBytes } from 'node:crypto';
import { toMinor } from '../../../kit/money';
import type { WebhookQueue } from '../delivery';
import { type AccountRecord, type AccountSession, type CatalogProduct, type CheckoutSession, type EngineOptions, type OrderRecord, REFERENCE_PREFIX, type SubscriptionRecord } from './model';

/** The records, the clock and the order references: the layer every resource builds on. */
export class FastspringState {
  readonly catalog = new Map<string, CatalogProduct>();
  accounts = new Map<string, AccountRecord>();
  subs = new Map<string, SubscriptionRecord>();
  orders = new Map<string, OrderRecord>();
  checkouts = new Map<string, CheckoutSession>();
  sessions = new Map<string, AccountSession>();

  /** The last `changed` handed out (every change gets a larger one, even when the clock stands still). */
  lastChanged = 0;

  /** The last order reference number. */
  orderSeq = 0;

  /** The stand-in's public base (absolute links in API answers and webhooks). */
  base = 'http://localhost';
  onChange: (() => void) | null = null;

  constructor(
    readonly options: EngineOptions,
    readonly queue: WebhookQueue,
  ) {
    for (const productOption of options.products) {
      if (this.catalog.has(productOption.path)) throw new RangeError(`fastspringSandbox: products has the path "${productOption.path}" twice`);
      this.catalog.set(productOption.path, {
        path: productOption.path,
        display: productOption.display,
        unitMinor: toMinor(productOption.price, productOption.currency),
        currency: productOption.currency,
        intervalUnit: productOption.intervalUnit,
        intervalLength: productOption.intervalLength,
      });
    }
  }

  now(): number {
    return this.options.clock();
  }

  changed(): void {
    this.onChange?.();
  }

  reset(): void {
    this.accounts.clear();
    this.subs.clear();
    this.orders.clear();
    this.checkouts.clear();
    this.sessions.clear();
    this.lastChanged = 0;
    this.orderSeq = 0;
    this.changed();
  }

  protected stamp(): number {
    this.lastChanged = Math.max(this.now(), this.lastChanged + 1);
    return this.lastChanged;
  }

  protected touch(sub: SubscriptionRecord): void {
    sub.changed = this.stamp();
  }

  protected reference(at: number): string {
    this.orderSeq++;
    const moment = new Date(at);
    const date = `${String(moment.getUTCFullYear() % 100).padStart(2, '0')}${String(moment.getUTCMonth() + 1).padStart(2, '0')}${String(moment.getUTCDate()).padStart(2, '0')}`;
    const rand = String(randomBytes(2).readUInt16BE(0) % 10000).padStart(4, '0');
    const seq = String(this.orderSeq % 10000).padStart(4, '0');
    const check = 'ABCDEFGHJKLMNPQRSTUVWXYZ'[(this.orderSeq + Number(rand)) % 24];
    return `${REFERENCE_PREFIX}${date}-${rand}-${seq}${check}`;
  }

  protected evictCheckouts(now: number): void {
    for (const [id, checkoutSession] of this.checkouts) if (checkoutSession.expiresAt <= now) this.checkouts.delete(id);
    for (const [id, accountSession] of this.sessions) if (accountSession.expiresAt <= now) this.sessions.delete(id);
  }
}

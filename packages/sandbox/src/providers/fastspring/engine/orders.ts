import { display, isoDate, major, stamps } from '../format';
import type { FastspringOrder } from '../types';
import { FastspringAccounts } from './accounts';
import { fsId, type OrderItemRecord, type OrderRecord, type SubscriptionRecord, token } from './model';

/** Orders: their JSON, their reads and the orders a subscription's charges create. */
export class FastspringOrders extends FastspringAccounts {
  invoicePath(order: OrderRecord): string {
    return `/account/order/${encodeURIComponent(order.reference)}/invoice/${order.invoiceKey}`;
  }

  orderJson(o: OrderRecord): FastspringOrder {
    const c = o.currency;
    const money = (key: string, minor: number) => ({
      [key]: major(minor, c),
      [`${key}Display`]: display(minor, c),
      [`${key}InPayoutCurrency`]: major(minor, c),
      [`${key}InPayoutCurrencyDisplay`]: display(minor, c),
    });
    return {
      order: o.id,
      id: o.id,
      reference: o.reference,
      buyerReference: null,
      ipAddress: '127.0.0.1',
      completed: true,
      ...(stamps('changed', o.created) as { changed: number; changedValue: number; changedInSeconds: number; changedDisplay: string }),
      changedDisplayISO8601: isoDate(o.created),
      language: 'en',
      live: false,
      currency: c,
      payoutCurrency: c,
      quote: null,
      invoiceUrl: `${this.base}${this.invoicePath(o)}`,
      account: o.accountId,
      ...(money('total', o.totalMinor) as { total: number; totalDisplay: string; totalInPayoutCurrency: number; totalInPayoutCurrencyDisplay: string }),
      ...(money('tax', 0) as { tax: number; taxDisplay: string; taxInPayoutCurrency: number; taxInPayoutCurrencyDisplay: string }),
      ...(money('subtotal', o.totalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
      ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
      payment: { type: 'test', creditcard: o.card.type, cardEnding: o.card.last4 },
      customer: { first: o.first, last: o.last, email: o.email, company: null, phone: null, subscribed: true },
      address: { country: 'US', display: 'US' },
      recipients: [],
      notes: [],
      rebill: o.kind !== 'checkout',
      tags: structuredClone(o.tags),
      items: o.items.map((i) => ({
        product: i.product,
        quantity: i.quantity,
        display: i.display,
        sku: null,
        imageUrl: null,
        ...(money('subtotal', i.subtotalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
        ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
        subscription: i.subscription,
      })),
    };
  }

  order(id: string): OrderRecord | undefined {
    return this.orders.get(id);
  }

  orderByReference(reference: string): OrderRecord | undefined {
    for (const o of this.orders.values()) if (o.reference === reference) return o;
    return undefined;
  }

  ordersOf(filter: { accountId?: string; subscriptionId?: string }): OrderRecord[] {
    return [...this.orders.values()]
      .filter((o) => (!filter.accountId || o.accountId === filter.accountId) && (!filter.subscriptionId || o.items.some((i) => i.subscription === filter.subscriptionId)))
      .sort((a, b) => a.created - b.created);
  }

  protected addOrder(sub: SubscriptionRecord, kind: OrderRecord['kind'], items: OrderItemRecord[]): OrderRecord {
    const account = this.accounts.get(sub.accountId)!;
    const now = this.now();
    const order: OrderRecord = {
      id: fsId(),
      reference: this.reference(now),
      accountId: sub.accountId,
      created: now,
      currency: sub.currency,
      kind,
      items,
      totalMinor: items.reduce((t, i) => t + i.subtotalMinor, 0),
      tags: {},
      invoiceKey: token(),
      card: sub.card,
      email: account.email,
      first: account.first,
      last: account.last,
    };
    this.orders.set(order.id, order);
    return order;
  }
}

import { display, isoDate, major, stamps } from '../format';
import type { FastspringOrder } from '../types';
import { FastspringAccounts } from './accounts';
import { fsId, type OrderItemRecord, type OrderRecord, type SubscriptionRecord, token } from './model';

/** Orders: their JSON, their reads and the orders a subscription's charges create. */
export class FastspringOrders extends FastspringAccounts {
  invoicePath(order: OrderRecord): string {
    return `/account/order/${encodeURIComponent(order.reference)}/invoice/${order.invoiceKey}`;
  }

  orderJson(order: OrderRecord): FastspringOrder {
    const char = order.currency;
    const money = (key: string, minor: number) => ({
      [key]: major(minor, char),
      [`${key}Display`]: display(minor, char),
      [`${key}InPayoutCurrency`]: major(minor, char),
      [`${key}InPayoutCurrencyDisplay`]: display(minor, char),
    });
    return {
      order: order.id,
      id: order.id,
      reference: order.reference,
      buyerReference: null,
      ipAddress: '127.0.0.1',
      completed: true,
      ...(stamps('changed', order.created) as { changed: number; changedValue: number; changedInSeconds: number; changedDisplay: string }),
      changedDisplayISO8601: isoDate(order.created),
      language: 'en',
      live: false,
      currency: char,
      payoutCurrency: char,
      quote: null,
      invoiceUrl: `${this.base}${this.invoicePath(order)}`,
      account: order.accountId,
      ...(money('total', order.totalMinor) as { total: number; totalDisplay: string; totalInPayoutCurrency: number; totalInPayoutCurrencyDisplay: string }),
      ...(money('tax', 0) as { tax: number; taxDisplay: string; taxInPayoutCurrency: number; taxInPayoutCurrencyDisplay: string }),
      ...(money('subtotal', order.totalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
      ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
      payment: { type: 'test', creditcard: order.card.type, cardEnding: order.card.last4 },
      customer: { first: order.first, last: order.last, email: order.email, company: null, phone: null, subscribed: true },
      address: { country: 'US', display: 'US' },
      recipients: [],
      notes: [],
      rebill: order.kind !== 'checkout',
      tags: structuredClone(order.tags),
      items: order.items.map((orderItem) => ({
        product: orderItem.product,
        quantity: orderItem.quantity,
        display: orderItem.display,
        sku: null,
        imageUrl: null,
        ...(money('subtotal', orderItem.subtotalMinor) as { subtotal: number; subtotalDisplay: string; subtotalInPayoutCurrency: number; subtotalInPayoutCurrencyDisplay: string }),
        ...(money('discount', 0) as { discount: number; discountDisplay: string; discountInPayoutCurrency: number; discountInPayoutCurrencyDisplay: string }),
        subscription: orderItem.subscription,
      })),
    };
  }

  order(id: string): OrderRecord | undefined {
    return this.orders.get(id);
  }

  orderByReference(reference: string): OrderRecord | undefined {
    for (const order of this.orders.values()) if (order.reference === reference) return order;
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

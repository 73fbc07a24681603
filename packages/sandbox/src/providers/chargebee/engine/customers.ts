import type { Card } from '../../../kit/cards';
import { notFound } from '../errors';
import type { ChargebeeSnapshotItem } from '../snapshot';
import type { ChargebeeCustomer, ChargebeeSubscription } from '../types';
import type { CustomerRecord, SubscriptionRecord } from './model';
import { ChargebeeState } from './state';

/** Customers and subscriptions as the API answers them, and their reads. */
export class ChargebeeCustomers extends ChargebeeState {
  protected customerJson(c: CustomerRecord): ChargebeeCustomer {
    return {
      id: c.id,
      ...(c.email ? { email: c.email } : {}),
      auto_collection: 'on',
      net_term_days: 0,
      allow_direct_debit: false,
      created_at: c.createdAt,
      taxability: 'taxable',
      updated_at: Math.floor(c.version / 1000),
      pii_cleared: 'active',
      channel: 'web',
      resource_version: c.version,
      deleted: false,
      object: 'customer',
      card_status: c.hasCard ? 'valid' : 'no_card',
      promotional_credits: 0,
      refundable_credits: c.refundableCredits,
      excess_payments: 0,
      unbilled_charges: 0,
      ...(c.currency ? { preferred_currency_code: c.currency } : {}),
    };
  }

  protected total(items: ChargebeeSnapshotItem[]): number {
    return items.reduce((t, i) => t + this.catalog.get(i.itemPriceId)!.price * i.quantity, 0);
  }

  protected subscriptionJson(s: SubscriptionRecord): ChargebeeSubscription {
    const total = this.total(s.items);
    const months = s.periodUnit === 'year' ? 12 * s.period : s.period;
    const due = s.dueInvoiceId ? this.invoiceRecords.get(s.dueInvoiceId) : undefined;
    return {
      id: s.id,
      customer_id: s.customerId,
      status: s.status,
      currency_code: s.currency,
      billing_period: s.period,
      billing_period_unit: s.periodUnit,
      current_term_start: s.termStart,
      current_term_end: s.termEnd,
      ...(s.nextBillingAt !== null ? { next_billing_at: s.nextBillingAt } : {}),
      started_at: s.startedAt,
      activated_at: s.activatedAt,
      created_at: s.createdAt,
      updated_at: Math.floor(s.version / 1000),
      ...(s.cancelledAt !== null ? { cancelled_at: s.cancelledAt } : {}),
      ...(s.cancelScheduleCreatedAt !== null ? { cancel_schedule_created_at: s.cancelScheduleCreatedAt } : {}),
      due_invoices_count: due ? 1 : 0,
      ...(due && s.dueSince !== null ? { due_since: s.dueSince, total_dues: due.amount_due } : {}),
      mrr: s.status === 'cancelled' ? 0 : Math.round(total / months),
      has_scheduled_changes: false,
      has_scheduled_advance_invoices: false,
      auto_collection: 'on',
      channel: 'web',
      subscription_items: s.items.map((i) => {
        const price = this.catalog.get(i.itemPriceId)!;
        return { item_price_id: i.itemPriceId, item_type: 'plan', quantity: i.quantity, unit_price: price.price, amount: price.price * i.quantity, free_quantity: 0, object: 'subscription_item' };
      }),
      resource_version: s.version,
      deleted: false,
      object: 'subscription',
    };
  }

  protected subscriptionRecord(id: string): SubscriptionRecord {
    const s = this.subscriptionRecords.get(id);
    if (!s) throw notFound('Subscription', id);
    return s;
  }

  subscription(id: string): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const s = this.subscriptionRecord(id);
    return { subscription: this.subscriptionJson(s), customer: this.customerJson(this.customerRecords.get(s.customerId)!) };
  }

  /** Newest first, like Chargebee's default order (created_at descending). */
  subscriptions(filter: { customerId?: string; status?: string } = {}): Array<{ subscription: ChargebeeSubscription; customer: ChargebeeCustomer }> {
    return [...this.subscriptionRecords.values()]
      .filter((s) => (filter.customerId === undefined || s.customerId === filter.customerId) && (filter.status === undefined || s.status === filter.status))
      .reverse()
      .map((s) => ({ subscription: this.subscriptionJson(s), customer: this.customerJson(this.customerRecords.get(s.customerId)!) }));
  }

  customer(id: string): ChargebeeCustomer {
    const c = this.customerRecords.get(id);
    if (!c) throw notFound('Customer', id);
    return this.customerJson(c);
  }

  customers(): ChargebeeCustomer[] {
    return [...this.customerRecords.values()].map((c) => this.customerJson(c));
  }

  hasCustomer(id: string): boolean {
    return this.customerRecords.has(id);
  }

  card(subscriptionId: string): Card {
    return structuredClone(this.subscriptionRecord(subscriptionId).card);
  }
}

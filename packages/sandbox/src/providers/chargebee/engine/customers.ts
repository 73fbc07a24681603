import type { Card } from '../../../kit/cards';
import { notFound } from '../errors';
import type { ChargebeeSnapshotItem } from '../snapshot';
import type { ChargebeeCustomer, ChargebeeSubscription } from '../types';
import type { CustomerRecord, SubscriptionRecord } from './model';
import { ChargebeeState } from './state';

/** Customers and subscriptions as the API answers them, and their reads. */
export class ChargebeeCustomers extends ChargebeeState {
  protected customerJson(customer: CustomerRecord): ChargebeeCustomer {
    return {
      id: customer.id,
      ...(customer.email ? { email: customer.email } : {}),
      auto_collection: 'on',
      net_term_days: 0,
      allow_direct_debit: false,
      created_at: customer.createdAt,
      taxability: 'taxable',
      updated_at: Math.floor(customer.version / 1000),
      pii_cleared: 'active',
      channel: 'web',
      resource_version: customer.version,
      deleted: false,
      object: 'customer',
      card_status: customer.hasCard ? 'valid' : 'no_card',
      promotional_credits: 0,
      refundable_credits: customer.refundableCredits,
      excess_payments: 0,
      unbilled_charges: 0,
      ...(customer.currency ? { preferred_currency_code: customer.currency } : {}),
    };
  }

  protected total(items: ChargebeeSnapshotItem[]): number {
    return items.reduce((t, i) => t + this.catalog.get(i.itemPriceId)!.price * i.quantity, 0);
  }

  protected subscriptionJson(subscription: SubscriptionRecord): ChargebeeSubscription {
    const total = this.total(subscription.items);
    const months = subscription.periodUnit === 'year' ? 12 * subscription.period : subscription.period;
    const due = subscription.dueInvoiceId ? this.invoiceRecords.get(subscription.dueInvoiceId) : undefined;
    return {
      id: subscription.id,
      customer_id: subscription.customerId,
      status: subscription.status,
      currency_code: subscription.currency,
      billing_period: subscription.period,
      billing_period_unit: subscription.periodUnit,
      current_term_start: subscription.termStart,
      current_term_end: subscription.termEnd,
      ...(subscription.nextBillingAt !== null ? { next_billing_at: subscription.nextBillingAt } : {}),
      started_at: subscription.startedAt,
      activated_at: subscription.activatedAt,
      created_at: subscription.createdAt,
      updated_at: Math.floor(subscription.version / 1000),
      ...(subscription.cancelledAt !== null ? { cancelled_at: subscription.cancelledAt } : {}),
      ...(subscription.cancelScheduleCreatedAt !== null ? { cancel_schedule_created_at: subscription.cancelScheduleCreatedAt } : {}),
      due_invoices_count: due ? 1 : 0,
      ...(due && subscription.dueSince !== null ? { due_since: subscription.dueSince, total_dues: due.amount_due } : {}),
      mrr: subscription.status === 'cancelled' ? 0 : Math.round(total / months),
      has_scheduled_changes: false,
      has_scheduled_advance_invoices: false,
      auto_collection: 'on',
      channel: 'web',
      subscription_items: subscription.items.map((item) => {
        const price = this.catalog.get(item.itemPriceId)!;
        return { item_price_id: item.itemPriceId, item_type: 'plan', quantity: item.quantity, unit_price: price.price, amount: price.price * item.quantity, free_quantity: 0, object: 'subscription_item' };
      }),
      resource_version: subscription.version,
      deleted: false,
      object: 'subscription',
    };
  }

  protected subscriptionRecord(id: string): SubscriptionRecord {
    const subscription = this.subscriptionRecords.get(id);
    if (!subscription) throw notFound('Subscription', id);
    return subscription;
  }

  subscription(id: string): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const subscription = this.subscriptionRecord(id);
    return { subscription: this.subscriptionJson(subscription), customer: this.customerJson(this.customerRecords.get(subscription.customerId)!) };
  }

  /** Newest first, like Chargebee's default order (created_at descending). */
  subscriptions(filter: { customerId?: string; status?: string } = {}): Array<{ subscription: ChargebeeSubscription; customer: ChargebeeCustomer }> {
    return [...this.subscriptionRecords.values()]
      .filter((s) => (filter.customerId === undefined || s.customerId === filter.customerId) && (filter.status === undefined || s.status === filter.status))
      .reverse()
      .map((s) => ({ subscription: this.subscriptionJson(s), customer: this.customerJson(this.customerRecords.get(s.customerId)!) }));
  }

  customer(id: string): ChargebeeCustomer {
    const customer = this.customerRecords.get(id);
    if (!customer) throw notFound('Customer', id);
    return this.customerJson(customer);
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

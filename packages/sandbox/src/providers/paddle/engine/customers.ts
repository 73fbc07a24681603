import { isoMs } from '../ids';
import type { PaddleCard, PaddleCustomer, PaddleSubscription } from '../types';
import { type CustomerRecord, notFound, type SubscriptionRecord } from './model';
import { PaddleState } from './state';

/** Customers and the reads of subscriptions and transactions the API routes answer with. */
export class PaddleCustomers extends PaddleState {
  customer(id: string): PaddleCustomer {
    const customer = this.customerRecords.get(id);
    if (!customer) throw notFound('Customer', id);
    return structuredClone(customer.customer);
  }

  customers(): PaddleCustomer[] {
    return [...this.customerRecords.values()].map((c) => structuredClone(c.customer));
  }

  /** The customer of a new purchase: the one with the same custom_data.userId, else the same email, else a new one. */
  protected customerFor(email: string, userId: string | null): CustomerRecord {
    const lower = email.toLowerCase();
    const all = [...this.customerRecords.values()];
    const found = (userId !== null ? all.find((c) => c.userId === userId) : undefined) ?? all.find((c) => c.customer.email.toLowerCase() === lower);
    if (found) {
      if (found.userId === null && userId !== null) found.userId = userId;
      return found;
    }
    const at = this.stamp();
    const record: CustomerRecord = {
      customer: {
        id: this.ids.next('ctm', this.now()),
        name: null,
        email,
        marketing_consent: false,
        status: 'active',
        custom_data: null,
        locale: 'en',
        created_at: at,
        updated_at: at,
        import_meta: null,
      },
      addressId: this.ids.next('add', this.now()),
      userId,
      credit: new Map(),
    };
    this.customerRecords.set(record.customer.id, record);
    return record;
  }

  hasSubscription(id: string): boolean {
    return this.subscriptionRecords.has(id);
  }

  subscription(id: string): PaddleSubscription {
    return this.json(this.subscriptionRecord(id));
  }

  /** Subscriptions in id order (oldest first), optionally filtered. */
  subscriptions(filter: { customerIds?: string[]; statuses?: string[]; ids?: string[]; priceIds?: string[] } = {}): PaddleSubscription[] {
    return [...this.subscriptionRecords.values()]
      .filter((s) => !filter.customerIds || filter.customerIds.includes(s.customerId))
      .filter((s) => !filter.statuses || filter.statuses.includes(s.status))
      .filter((s) => !filter.ids || filter.ids.includes(s.id))
      .filter((s) => !filter.priceIds || s.items.some((i) => filter.priceIds!.includes(i.priceId)))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((s) => this.json(s));
  }

  card(subscriptionId: string): PaddleCard {
    return { ...this.subscriptionRecord(subscriptionId).card };
  }

  protected subscriptionRecord(id: string): SubscriptionRecord {
    const subscription = this.subscriptionRecords.get(id);
    if (!subscription) throw notFound('Subscription', id);
    return subscription;
  }

  protected json(record: SubscriptionRecord): PaddleSubscription {
    const nextBilled = record.nextBilledAt === null ? null : isoMs(record.nextBilledAt);
    return {
      id: record.id,
      status: record.status,
      customer_id: record.customerId,
      address_id: record.addressId,
      business_id: null,
      currency_code: record.currency,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      started_at: record.startedAt,
      first_billed_at: record.firstBilledAt,
      next_billed_at: nextBilled,
      paused_at: null,
      canceled_at: record.canceledAt,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: record.periodStart === null || record.periodEnd === null ? null : { starts_at: isoMs(record.periodStart), ends_at: isoMs(record.periodEnd) },
      billing_cycle: { interval: record.interval, frequency: 1 },
      scheduled_change: record.scheduledCancelAt === null ? null : { action: 'cancel', effective_at: isoMs(record.scheduledCancelAt), resume_at: null },
      items: record.items.map((item) => {
        const catalogPrice = this.catalog.get(item.priceId)!;
        return {
          status: 'active',
          quantity: item.quantity,
          recurring: true,
          created_at: item.createdAt,
          updated_at: item.updatedAt,
          previously_billed_at: item.previouslyBilledAt,
          next_billed_at: nextBilled,
          trial_dates: null,
          price: structuredClone(catalogPrice.price),
          product: structuredClone(catalogPrice.product),
        };
      }),
      custom_data: record.customData === null ? null : structuredClone(record.customData),
      discount: null,
      import_meta: null,
    };
  }
}

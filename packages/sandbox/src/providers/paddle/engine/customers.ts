import { isoMs } from '../ids';
import type { PaddleCard, PaddleCustomer, PaddleSubscription } from '../types';
import { type CustomerRecord, notFound, type SubscriptionRecord } from './model';
import { PaddleState } from './state';

/** Customers and the reads of subscriptions and transactions the API routes answer with. */
export class PaddleCustomers extends PaddleState {
  customer(id: string): PaddleCustomer {
    const c = this.customerRecords.get(id);
    if (!c) throw notFound('Customer', id);
    return structuredClone(c.customer);
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
    const s = this.subscriptionRecords.get(id);
    if (!s) throw notFound('Subscription', id);
    return s;
  }

  protected json(s: SubscriptionRecord): PaddleSubscription {
    const nextBilled = s.nextBilledAt === null ? null : isoMs(s.nextBilledAt);
    return {
      id: s.id,
      status: s.status,
      customer_id: s.customerId,
      address_id: s.addressId,
      business_id: null,
      currency_code: s.currency,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      started_at: s.startedAt,
      first_billed_at: s.firstBilledAt,
      next_billed_at: nextBilled,
      paused_at: null,
      canceled_at: s.canceledAt,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: s.periodStart === null || s.periodEnd === null ? null : { starts_at: isoMs(s.periodStart), ends_at: isoMs(s.periodEnd) },
      billing_cycle: { interval: s.interval, frequency: 1 },
      scheduled_change: s.scheduledCancelAt === null ? null : { action: 'cancel', effective_at: isoMs(s.scheduledCancelAt), resume_at: null },
      items: s.items.map((i) => {
        const c = this.catalog.get(i.priceId)!;
        return {
          status: 'active',
          quantity: i.quantity,
          recurring: true,
          created_at: i.createdAt,
          updated_at: i.updatedAt,
          previously_billed_at: i.previouslyBilledAt,
          next_billed_at: nextBilled,
          trial_dates: null,
          price: structuredClone(c.price),
          product: structuredClone(c.product),
        };
      }),
      custom_data: s.customData === null ? null : structuredClone(s.customData),
      discount: null,
      import_meta: null,
    };
  }
}

import type { Card } from '../../../kit/cards';
import { addInterval } from '../../../kit/dates';
import { randomId } from '../delivery';
import { ChargebeeApiError, invalidState, notFound } from '../errors';
import type { ChargebeeHostedPage } from '../types';
import { ChargebeeInvoices } from './invoices';
import { type ChargebeeItemPriceOption, type CheckoutInput, evict, type HostedPageRecord, type SubscriptionRecord } from './model';

/** Hosted checkout pages: created by the API, paid or canceled on the page. */
export class ChargebeeHostedPages extends ChargebeeInvoices {
  protected pageJson(hostedPage: HostedPageRecord): ChargebeeHostedPage {
    const result = hostedPage.result;
    const sub = result ? this.subscriptionRecords.get(result.subscriptionId) : undefined;
    return {
      id: hostedPage.id,
      type: 'checkout_new',
      url: hostedPage.url,
      state: hostedPage.state,
      ...(hostedPage.passThruContent !== null ? { pass_thru_content: hostedPage.passThruContent } : {}),
      embed: false,
      created_at: hostedPage.createdAt,
      expires_at: hostedPage.expiresAt,
      updated_at: Math.floor(hostedPage.version / 1000),
      resource_version: hostedPage.version,
      ...(result && sub
        ? {
            content: {
              subscription: this.subscriptionJson(sub),
              customer: this.customerJson(this.customerRecords.get(result.customerId)!),
              invoice: structuredClone(this.invoiceRecords.get(result.invoiceId)!),
            },
          }
        : {}),
      object: 'hosted_page',
    };
  }

  protected priceOf(itemPriceId: string, param: string): ChargebeeItemPriceOption {
    const price = this.catalog.get(itemPriceId);
    if (!price) throw new ChargebeeApiError(404, 'resource_not_found', `${param} : item price ${itemPriceId} is not present`, param);
    return price;
  }

  createHostedPage(input: CheckoutInput, urlOf: (id: string) => string): ChargebeeHostedPage {
    this.priceOf(input.lines[0]!.itemPriceId, 'subscription_items[item_price_id][0]');
    if (input.subscriptionId !== null && this.subscriptionRecords.has(input.subscriptionId)) {
      throw new ChargebeeApiError(400, 'duplicate_entry', `subscription[id] : The value ${input.subscriptionId} is already present.`, 'subscription[id]');
    }
    const nowS = this.sec();
    evict(this.hostedPages, nowS);
    const id = randomId('', 32);
    const page: HostedPageRecord = {
      id,
      url: urlOf(id),
      state: 'created',
      createdAt: nowS,
      expiresAt: nowS + Math.floor(this.options.hostedPageTtlMs / 1000),
      version: this.version(),
      ...structuredClone(input),
      result: null,
    };
    this.hostedPages.set(id, page);
    this.changed();
    return this.pageJson(page);
  }

  hostedPage(id: string): ChargebeeHostedPage {
    const hostedPage = this.hostedPages.get(id);
    if (!hostedPage) throw notFound('Hosted page', id);
    return this.pageJson(hostedPage);
  }

  /** The hosted page record for the page routes (null when unknown); `open` marks a created page requested. */
  page(id: string, open = false): Readonly<HostedPageRecord> | null {
    const hostedPage = this.hostedPages.get(id);
    if (!hostedPage) return null;
    if (open && hostedPage.state === 'created' && hostedPage.expiresAt > this.sec()) {
      hostedPage.state = 'requested';
      hostedPage.version = this.version();
      this.changed();
    }
    return structuredClone(hostedPage);
  }

  cancelPage(id: string): Readonly<HostedPageRecord> {
    const hostedPage = this.hostedPages.get(id);
    if (!hostedPage) throw notFound('Hosted page', id);
    if (hostedPage.state === 'created' || hostedPage.state === 'requested') {
      hostedPage.state = 'cancelled';
      hostedPage.version = this.version();
      this.changed();
    }
    return structuredClone(hostedPage);
  }

  /** Pays a hosted page: the customer (made or reused), the subscription, its first invoice; customer_created, subscription_created, payment_succeeded. */
  purchase(id: string, email: string, card: Card): Readonly<HostedPageRecord> {
    const hostedPage = this.hostedPages.get(id);
    if (!hostedPage) throw notFound('Hosted page', id);
    if (hostedPage.state === 'succeeded') return structuredClone(hostedPage);
    if (hostedPage.state === 'cancelled') throw invalidState('This checkout was cancelled.');
    const nowS = this.sec();
    if (hostedPage.expiresAt <= nowS) throw invalidState('This checkout has expired.');
    const price = this.catalog.get(hostedPage.lines[0]!.itemPriceId)!;
    if (hostedPage.subscriptionId !== null && this.subscriptionRecords.has(hostedPage.subscriptionId)) throw invalidState(`Subscription ${hostedPage.subscriptionId} already exists.`);
    const customerId = hostedPage.customerId ?? randomId();
    let customer = this.customerRecords.get(customerId);
    const newCustomer = !customer;
    if (!customer) {
      customer = { id: customerId, email, createdAt: nowS, version: this.version(), refundableCredits: 0, currency: price.currencyCode, hasCard: true };
      this.customerRecords.set(customerId, customer);
    } else {
      customer.email ??= email;
      customer.hasCard = true;
      customer.currency ??= price.currencyCode;
      customer.version = this.version();
    }
    const end = Math.floor(addInterval(nowS * 1000, price.periodUnit, price.period) / 1000);
    const sub: SubscriptionRecord = {
      id: hostedPage.subscriptionId ?? randomId(),
      customerId,
      status: 'active',
      currency: price.currencyCode,
      periodUnit: price.periodUnit,
      period: price.period,
      items: structuredClone(hostedPage.lines),
      termStart: nowS,
      termEnd: end,
      nextBillingAt: end,
      startedAt: nowS,
      activatedAt: nowS,
      createdAt: nowS,
      cancelledAt: null,
      cancelScheduleCreatedAt: null,
      dueInvoiceId: null,
      dueSince: null,
      version: 0,
      card,
    };
    this.subscriptionRecords.set(sub.id, sub);
    const inv = this.addInvoice(sub, [this.line(sub, sub.items[0]!, nowS, end, price.price)]);
    sub.version = this.version();
    hostedPage.state = 'succeeded';
    hostedPage.result = { subscriptionId: sub.id, customerId, invoiceId: inv.id };
    hostedPage.version = this.version();
    if (newCustomer) this.emit('customer_created', 'hosted_page', { customer: this.customerJson(customer) });
    this.emit('subscription_created', 'hosted_page', this.content(sub, inv));
    this.emit('payment_succeeded', 'hosted_page', this.payment(sub, inv, 'success'));
    this.changed();
    return structuredClone(hostedPage);
  }
}

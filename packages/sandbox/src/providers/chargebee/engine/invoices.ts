import { randomBytes } from 'node:crypto';
import { randomId } from '../delivery';
import { notFound } from '../errors';
import type { ChargebeeSnapshotItem } from '../snapshot';
import type { ChargebeeEventContent, ChargebeeInvoice, ChargebeeLineItem, ChargebeeTransaction } from '../types';
import { ChargebeeCustomers } from './customers';
import { evict, type SubscriptionRecord } from './model';

/** Invoices: their lines, the events that carry them, and the signed download links. */
export class ChargebeeInvoices extends ChargebeeCustomers {
  invoice(id: string): ChargebeeInvoice {
    const inv = this.invoiceRecords.get(id);
    if (!inv) throw notFound('Invoice', id);
    return structuredClone(inv);
  }

  /** Newest first. */
  invoices(filter: { subscriptionId?: string; customerId?: string } = {}): ChargebeeInvoice[] {
    return [...this.invoiceRecords.values()]
      .filter((i) => (filter.subscriptionId === undefined || i.subscription_id === filter.subscriptionId) && (filter.customerId === undefined || i.customer_id === filter.customerId))
      .reverse()
      .map((i) => structuredClone(i));
  }

  protected line(sub: SubscriptionRecord, item: ChargebeeSnapshotItem, from: number, to: number, unit: number): ChargebeeLineItem {
    const price = this.catalog.get(item.itemPriceId)!;
    return {
      id: randomId('li_'),
      date_from: from,
      date_to: to,
      unit_amount: unit,
      quantity: item.quantity,
      amount: unit * item.quantity,
      pricing_model: 'per_unit',
      is_taxed: false,
      tax_amount: 0,
      discount_amount: 0,
      item_level_discount_amount: 0,
      description: price.name,
      entity_type: 'plan_item_price',
      entity_id: price.id,
      subscription_id: sub.id,
      customer_id: sub.customerId,
      object: 'line_item',
    };
  }

  /** An invoice for these lines, its credits taken from the customer's refundable credits; paid unless `unpaid`. */
  protected addInvoice(sub: SubscriptionRecord, lines: ChargebeeLineItem[], opts: { unpaid?: boolean; creditsApplied?: number } = {}): ChargebeeInvoice {
    const customer = this.customerRecords.get(sub.customerId)!;
    const total = lines.reduce((t, l) => t + l.amount, 0);
    let credits = opts.creditsApplied ?? 0;
    if (!opts.unpaid) {
      const fromBalance = Math.min(customer.refundableCredits, total - credits);
      customer.refundableCredits -= fromBalance;
      if (fromBalance > 0) customer.version = this.version();
      credits += fromBalance;
    }
    const nowS = this.sec();
    const version = this.version();
    const paid = opts.unpaid ? 0 : total - credits;
    this.invoiceNumber++;
    const inv: ChargebeeInvoice = {
      id: String(this.invoiceNumber),
      customer_id: sub.customerId,
      subscription_id: sub.id,
      recurring: true,
      status: opts.unpaid ? 'payment_due' : 'paid',
      price_type: 'tax_exclusive',
      date: nowS,
      due_date: nowS,
      net_term_days: 0,
      exchange_rate: 1,
      currency_code: sub.currency,
      total,
      amount_paid: paid,
      amount_adjusted: 0,
      write_off_amount: 0,
      credits_applied: credits,
      amount_due: opts.unpaid ? total - credits : 0,
      ...(opts.unpaid ? { dunning_status: 'in_progress' as const } : { paid_at: nowS }),
      resource_version: version,
      updated_at: Math.floor(version / 1000),
      sub_total: total,
      tax: 0,
      first_invoice: ![...this.invoiceRecords.values()].some((i) => i.subscription_id === sub.id),
      term_finalized: true,
      is_gifted: false,
      generated_at: nowS,
      amount_to_collect: opts.unpaid ? total - credits : 0,
      round_off_amount: 0,
      line_items: lines,
      deleted: false,
      object: 'invoice',
    };
    this.invoiceRecords.set(inv.id, inv);
    return inv;
  }

  protected content(sub: SubscriptionRecord, invoice?: ChargebeeInvoice): ChargebeeEventContent {
    return {
      subscription: this.subscriptionJson(sub),
      customer: this.customerJson(this.customerRecords.get(sub.customerId)!),
      ...(invoice ? { invoice: structuredClone(invoice) } : {}),
    };
  }

  /**
   * A payment event's content: as Chargebee's, the subscription, customer and invoice with the
   * `transaction` that paid (or failed to pay) the invoice, on the subscription's card.
   */
  protected payment(sub: SubscriptionRecord, invoice: ChargebeeInvoice, status: 'success' | 'failure'): ChargebeeEventContent {
    const nowS = this.sec();
    const amount = status === 'success' ? invoice.amount_paid : invoice.amount_due;
    const version = this.version();
    const transaction: ChargebeeTransaction = {
      id: randomId('txn_'),
      customer_id: sub.customerId,
      subscription_id: sub.id,
      payment_method: 'card',
      gateway: 'chargebee',
      type: 'payment',
      date: nowS,
      amount,
      currency_code: invoice.currency_code,
      status,
      masked_card_number: `************${sub.card.last4}`,
      ...(status === 'failure' ? { error_code: 'card_declined', error_text: 'The card was declined.' } : {}),
      linked_invoices: [{ invoice_id: invoice.id, applied_amount: amount, applied_at: nowS, invoice_date: invoice.date, invoice_total: invoice.total, invoice_status: invoice.status }],
      resource_version: version,
      updated_at: Math.floor(version / 1000),
      deleted: false,
      object: 'transaction',
    };
    return { ...this.content(sub, invoice), transaction };
  }

  /** POST /invoices/{id}/pdf: a short-lived download link. */
  download(id: string, urlOf: (token: string) => string): { download_url: string; valid_till: number; mime_type: string } {
    const inv = this.invoiceRecords.get(id);
    if (!inv) throw notFound('Invoice', id);
    const nowS = this.sec();
    evict(this.downloadTokens, nowS);
    const token = randomBytes(24).toString('base64url');
    const validTill = nowS + Math.floor(this.options.downloadTtlMs / 1000);
    this.downloadTokens.set(token, { invoiceId: id, expiresAt: validTill });
    return { download_url: urlOf(token), valid_till: validTill, mime_type: 'text/html' };
  }

  downloadable(token: string): ChargebeeInvoice | null {
    const download = this.downloadTokens.get(token);
    if (!download || download.expiresAt <= this.sec()) return null;
    const inv = this.invoiceRecords.get(download.invoiceId);
    return inv ? structuredClone(inv) : null;
  }
}

import { addInterval } from '../../../kit/dates';
import { randomId } from '../delivery';
import { invalidParam, invalidState } from '../errors';
import type { ChargebeeSnapshotItem } from '../snapshot';
import type { ChargebeeCreditNoteEstimate, ChargebeeCustomer, ChargebeeEstimate, ChargebeeEstimateLineItem, ChargebeeInvoice, ChargebeeInvoiceEstimate, ChargebeeSubscription, EventSource } from '../types';
import { ChargebeeHostedPages } from './hosted-pages';
import { MAX_RENEWALS, type Plan, type PlanChange, type SubscriptionRecord } from './model';

/** Subscription changes: cancel, reactivate, plan changes with their estimate, failed and recovered payments, renewals. */
export class ChargebeeSubscriptions extends ChargebeeHostedPages {
  cancel(id: string, endOfTerm: boolean, source: EventSource, credit: 'none' | 'prorate' | 'full' = 'none'): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is already cancelled.');
    const nowS = this.sec();
    if (endOfTerm) {
      if (sub.status === 'non_renewing') throw invalidState('The subscription is already scheduled for cancellation at the end of the term.');
      sub.status = 'non_renewing';
      sub.cancelledAt = sub.termEnd;
      sub.cancelScheduleCreatedAt = nowS;
      sub.nextBillingAt = null;
      sub.version = this.version();
      this.emit('subscription_cancellation_scheduled', source, this.content(sub));
    } else {
      if (credit !== 'none' && sub.dueInvoiceId === null) {
        const total = this.total(sub.items);
        const length = sub.termEnd - sub.termStart;
        const amount = credit === 'full' ? total : length > 0 ? Math.round((total * Math.max(0, sub.termEnd - nowS)) / length) : 0;
        if (amount > 0) {
          const customer = this.customerRecords.get(sub.customerId)!;
          customer.refundableCredits += amount;
          customer.version = this.version();
        }
      }
      sub.status = 'cancelled';
      sub.cancelledAt = nowS;
      sub.cancelScheduleCreatedAt = null;
      sub.nextBillingAt = null;
      sub.version = this.version();
      this.emit('subscription_cancelled', source, this.content(sub));
    }
    this.changed();
    return this.subscription(id);
  }

  removeScheduledCancellation(id: string, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer } {
    const sub = this.subscriptionRecord(id);
    if (sub.status !== 'non_renewing') throw invalidState('The subscription has no scheduled cancellation.');
    sub.status = 'active';
    sub.cancelledAt = null;
    sub.cancelScheduleCreatedAt = null;
    sub.nextBillingAt = sub.termEnd;
    sub.version = this.version();
    this.emit('subscription_scheduled_cancellation_removed', source, this.content(sub));
    this.changed();
    return this.subscription(id);
  }

  /** Cancelled → active: a new term from now, charged at once. */
  reactivate(id: string, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer; invoice: ChargebeeInvoice } {
    const sub = this.subscriptionRecord(id);
    if (sub.status !== 'cancelled') throw invalidState('Only a cancelled subscription can be reactivated.');
    const nowS = this.sec();
    const end = Math.floor(addInterval(nowS * 1000, sub.periodUnit, sub.period) / 1000);
    sub.status = 'active';
    sub.termStart = nowS;
    sub.termEnd = end;
    sub.nextBillingAt = end;
    sub.activatedAt = nowS;
    sub.cancelledAt = null;
    sub.cancelScheduleCreatedAt = null;
    const inv = this.addInvoice(
      sub,
      sub.items.map((i) => this.line(sub, i, nowS, end, this.catalog.get(i.itemPriceId)!.price)),
    );
    sub.version = this.version();
    this.emit('subscription_reactivated', source, this.content(sub, inv));
    if (inv.amount_paid > 0) this.emit('payment_succeeded', source, this.payment(sub, inv, 'success'));
    this.changed();
    return { ...this.subscription(id), invoice: structuredClone(inv) };
  }

  /**
   * The change of a subscription's plan item price, with Chargebee's proration on the remaining term
   * (docs/sandbox.md#chargebee-proration): a charge for the new price, a credit for the unused time,
   * the credit applied to the charge first and the rest kept as refundable credits.
   */
  protected planChange(sub: SubscriptionRecord, change: PlanChange): Plan {
    const param = 'subscription_items[item_price_id][0]';
    const price = this.priceOf(change.itemPriceId, param);
    if (price.currencyCode !== sub.currency) throw invalidParam(param, `item price ${price.id} is in ${price.currencyCode}, the subscription in ${sub.currency}`);
    const customer = this.customerRecords.get(sub.customerId)!;
    const old = sub.items[0]!;
    const oldPrice = this.catalog.get(old.itemPriceId)!;
    const quantity = change.quantity ?? (old.itemPriceId === price.id ? old.quantity : 1);
    const nowS = this.sec();
    const length = sub.termEnd - sub.termStart;
    const factor = length > 0 ? Math.min(1, Math.max(0, (sub.termEnd - nowS) / length)) : 0;
    const periodChanges = price.periodUnit !== sub.periodUnit || price.period !== sub.period;
    const unitCredit = change.prorate && sub.dueInvoiceId === null ? Math.round(oldPrice.price * factor) : 0;
    const credit = unitCredit * old.quantity;
    const unitCharge = periodChanges ? price.price : change.prorate ? Math.round(price.price * factor) : 0;
    const charge = unitCharge * quantity;
    const termStart = periodChanges ? nowS : sub.termStart;
    const termEnd = periodChanges ? Math.floor(addInterval(nowS * 1000, price.periodUnit, price.period) / 1000) : sub.termEnd;
    const allocated = Math.min(credit, charge);
    const fromCredits = Math.min(customer.refundableCredits, charge - allocated);
    const amountDue = charge - allocated - fromCredits;
    const creditsAfter = customer.refundableCredits - fromCredits + (credit - allocated);

    const next: SubscriptionRecord = structuredClone(sub);
    next.items = [{ itemPriceId: price.id, quantity }];
    if (periodChanges) {
      next.periodUnit = price.periodUnit;
      next.period = price.period;
      next.termStart = termStart;
      next.termEnd = termEnd;
      if (next.status === 'non_renewing') next.cancelledAt = termEnd;
      else next.nextBillingAt = termEnd;
    }

    const estimateLine = (item: ChargebeeSnapshotItem, from: number, to: number, unit: number): ChargebeeEstimateLineItem => {
      const { id: _id, ...rest } = this.line(next, item, from, to, unit);
      return { id: randomId('li_'), ...rest };
    };
    const invoiceEstimate = (lines: ChargebeeEstimateLineItem[], credits: number): ChargebeeInvoiceEstimate => {
      const total = lines.reduce((t, l) => t + l.amount, 0);
      return {
        recurring: true,
        price_type: 'tax_exclusive',
        currency_code: sub.currency,
        sub_total: total,
        total,
        credits_applied: credits,
        amount_paid: 0,
        amount_due: total - credits,
        line_items: lines,
        taxes: [],
        line_item_taxes: [],
        line_item_discounts: [],
        round_off_amount: 0,
        customer_id: sub.customerId,
        object: 'invoice_estimate',
      };
    };
    const lastInvoice = [...this.invoiceRecords.values()].filter((i) => i.subscription_id === sub.id).pop();
    const estimate: ChargebeeEstimate = {
      created_at: nowS,
      subscription_estimate: {
        id: sub.id,
        currency_code: sub.currency,
        status: next.status,
        ...(next.nextBillingAt !== null ? { next_billing_at: next.nextBillingAt } : {}),
        object: 'subscription_estimate',
      },
      object: 'estimate',
    };
    if (charge > 0) estimate.invoice_estimate = invoiceEstimate([estimateLine(next.items[0]!, nowS, termEnd, unitCharge)], allocated + fromCredits);
    if (credit > 0) {
      const note: ChargebeeCreditNoteEstimate = {
        reference_invoice_id: lastInvoice?.id ?? '',
        type: credit > allocated ? 'refundable' : 'adjustment',
        price_type: 'tax_exclusive',
        currency_code: sub.currency,
        sub_total: credit,
        total: credit,
        amount_allocated: allocated,
        amount_available: credit - allocated,
        line_items: [estimateLine(old, nowS, sub.termEnd, unitCredit)],
        taxes: [],
        line_item_taxes: [],
        line_item_discounts: [],
        round_off_amount: 0,
        customer_id: sub.customerId,
        object: 'credit_note_estimate',
      };
      estimate.credit_note_estimates = [note];
    }
    if (next.status === 'active' && next.nextBillingAt !== null) {
      const renewalEnd = Math.floor(addInterval(next.nextBillingAt * 1000, price.periodUnit, price.period) / 1000);
      const renewal = price.price * quantity;
      estimate.next_invoice_estimate = invoiceEstimate([estimateLine(next.items[0]!, next.nextBillingAt, renewalEnd, price.price)], Math.min(renewal, creditsAfter));
    }
    return { next, charge, credit, allocated, fromCredits, amountDue, creditsAfter, estimate };
  }

  /** POST /estimates/update_subscription_for_items: nothing changes. */
  estimate(id: string, change: PlanChange): ChargebeeEstimate {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is cancelled: reactivate it to change its items.');
    return this.planChange(sub, change).estimate;
  }

  /** POST /subscriptions/{id}/update_for_items: subscription_changed (and payment_succeeded when a charge was collected). */
  update(id: string, change: PlanChange, source: EventSource): { subscription: ChargebeeSubscription; customer: ChargebeeCustomer; invoice?: ChargebeeInvoice } {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'cancelled') throw invalidState('The subscription is cancelled: reactivate it to change its items.');
    const plan = this.planChange(sub, change);
    if (JSON.stringify(plan.next) === JSON.stringify(sub) && plan.charge === 0 && plan.credit === 0) return this.subscription(id);
    const customer = this.customerRecords.get(sub.customerId)!;
    Object.assign(sub, plan.next);
    let inv: ChargebeeInvoice | undefined;
    if (plan.charge > 0) {
      const lines = (plan.estimate.invoice_estimate?.line_items ?? []).map((l) => ({ ...l, id: randomId('li_') }));
      inv = this.addInvoice(sub, lines, { creditsApplied: plan.allocated });
    }
    customer.refundableCredits = plan.creditsAfter;
    customer.version = this.version();
    sub.version = this.version();
    this.emit('subscription_changed', source, this.content(sub, inv));
    if (inv && inv.amount_paid > 0) this.emit('payment_succeeded', source, this.payment(sub, inv, 'success'));
    this.changed();
    return { ...this.subscription(id), ...(inv ? { invoice: structuredClone(inv) } : {}) };
  }

  /** As if the current term's payment had failed: an unpaid invoice, due_invoices_count 1, payment_failed. */
  failPayment(id: string): ChargebeeInvoice {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'cancelled') throw new Error(`failPayment: ${id} is cancelled`);
    if (sub.dueInvoiceId !== null) throw new Error(`failPayment: ${id} already has an unpaid invoice`);
    const inv = this.addInvoice(
      sub,
      sub.items.map((i) => this.line(sub, i, sub.termStart, sub.termEnd, this.catalog.get(i.itemPriceId)!.price)),
      { unpaid: true },
    );
    sub.dueInvoiceId = inv.id;
    sub.dueSince = this.sec();
    sub.version = this.version();
    this.emit('payment_failed', 'scheduled_job', this.payment(sub, inv, 'failure'));
    this.changed();
    return structuredClone(inv);
  }

  /** The unpaid invoice of failPayment is collected: payment_succeeded, due_invoices_count 0. */
  recover(id: string): ChargebeeInvoice {
    const sub = this.subscriptionRecord(id);
    const inv = sub.dueInvoiceId ? this.invoiceRecords.get(sub.dueInvoiceId) : undefined;
    if (!inv) throw new Error(`recover: ${id} has no unpaid invoice (control.failPayment makes one)`);
    const nowS = this.sec();
    inv.status = 'paid';
    inv.amount_paid = inv.amount_due;
    inv.amount_due = 0;
    inv.amount_to_collect = 0;
    inv.paid_at = nowS;
    inv.dunning_status = 'success';
    inv.resource_version = this.version();
    inv.updated_at = Math.floor(inv.resource_version / 1000);
    sub.dueInvoiceId = null;
    sub.dueSince = null;
    sub.version = this.version();
    this.emit('payment_succeeded', 'scheduled_job', this.payment(sub, inv, 'success'));
    this.changed();
    return structuredClone(inv);
  }

  /** Applies what the clock says is due: scheduled cancellations at term end, renewals at next_billing_at. */
  tick(): void {
    const nowS = this.sec();
    for (const sub of this.subscriptionRecords.values()) {
      for (let n = 0; n < MAX_RENEWALS; n++) {
        if (sub.status === 'non_renewing' && sub.termEnd <= nowS) {
          sub.status = 'cancelled';
          sub.cancelledAt = sub.termEnd;
          sub.version = this.version();
          this.emit('subscription_cancelled', 'scheduled_job', this.content(sub));
          this.changed();
          break;
        }
        if (sub.status !== 'active' || sub.nextBillingAt === null || sub.nextBillingAt > nowS) break;
        const start = sub.nextBillingAt;
        const end = Math.floor(addInterval(start * 1000, sub.periodUnit, sub.period) / 1000);
        sub.termStart = start;
        sub.termEnd = end;
        sub.nextBillingAt = end;
        const inv = this.addInvoice(
          sub,
          sub.items.map((i) => this.line(sub, i, start, end, this.catalog.get(i.itemPriceId)!.price)),
        );
        sub.version = this.version();
        this.emit('subscription_renewed', 'scheduled_job', this.content(sub, inv));
        if (inv.amount_paid > 0) this.emit('payment_succeeded', 'scheduled_job', this.payment(sub, inv, 'success'));
        this.changed();
      }
    }
  }
}

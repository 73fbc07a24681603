import { addInterval } from '../../../kit/dates';
import { isoMs } from '../ids';
import type { PaddlePreviewTransaction, PaddleSubscription, PaddleTransaction, PaddleUpdateSummary } from '../types';
import { canceledError, type ItemChange, invalidField, type Line, MAX_RENEWALS, PaddleApiError, type PlannedChange, type PreviewExtras, type ProrationMode, previewDetails, type SubscriptionPatch, type SubscriptionRecord, sum } from './model';
import { PaddleTransactions } from './transactions';

/** Subscription changes: cancel, item changes with their proration preview, past due and renewals. */
export class PaddleSubscriptions extends PaddleTransactions {
  /** POST /subscriptions/{id}/cancel. */
  cancel(id: string, effectiveFrom: 'next_billing_period' | 'immediately'): PaddleSubscription {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'canceled') throw canceledError();
    if (effectiveFrom === 'immediately' || sub.periodEnd === null) {
      sub.status = 'canceled';
      sub.canceledAt = this.stamp();
      sub.scheduledCancelAt = null;
      sub.nextBilledAt = null;
      sub.periodStart = null;
      sub.periodEnd = null;
      this.touch(sub);
      this.emit('subscription.canceled', this.json(sub));
      return this.json(sub);
    }
    if (sub.scheduledCancelAt !== null) return this.json(sub);
    sub.scheduledCancelAt = sub.periodEnd;
    sub.nextBilledAt = null;
    this.touch(sub);
    this.emit('subscription.updated', this.json(sub));
    return this.json(sub);
  }

  /**
   * What a PATCH would do, without doing it. Proration (`prorated_immediately`), with f the part of the
   * current billing period still to come, f = (ends_at − now) / (ends_at − starts_at) clamped to [0, 1]:
   *   credit = round(old items' total × f)   (the unused time of what was paid)
   *   charge = round(new items' total × f)   (the same time at the new items' price)
   *   result = charge − credit: `charge` when ≥ 0, else `credit` of its absolute value.
   * When the billing interval changes, a new period starts now and the charge is the new items' full
   * total (credit as above). `do_not_bill` changes the items with credit = charge = 0.
   * Amounts are integer minor units; the current items' total is Σ unit_price × quantity.
   */
  protected plan(sub: SubscriptionRecord, change: ItemChange): PlannedChange {
    const lines = change.items.map((item, count) => {
      const price = this.catalog.get(item.price_id);
      if (!price) throw invalidField(`items[${count}].price_id`, `price ${item.price_id} not found`);
      return { price, quantity: item.quantity };
    });
    for (const [count, line] of lines.entries()) {
      if (line.price.currency !== sub.currency) throw invalidField(`items[${count}].price_id`, `price ${line.price.id} is in ${line.price.currency}, the subscription in ${sub.currency}`);
      if (lines.findIndex((o) => o.price.id === line.price.id) !== count) throw invalidField(`items[${count}].price_id`, `price ${line.price.id} is listed twice`);
    }
    const interval = lines[0]!.price.interval;
    if (lines.some((l) => l.price.interval !== interval)) throw invalidField('items', 'all items must have the same billing interval');
    const intervalChanges = interval !== sub.interval;
    if (intervalChanges && change.mode === 'do_not_bill') throw invalidField('proration_billing_mode', 'this sandbox changes the billing interval with prorated_immediately only');
    const now = this.now();
    const start = sub.periodStart ?? now;
    const end = sub.periodEnd ?? now;
    const rate = end > start ? Math.min(1, Math.max(0, (end - now) / (end - start))) : 0;
    const oldTotal = sum(sub.items.map((i) => ({ unit: this.catalog.get(i.priceId)!.unitMinor, quantity: i.quantity })));
    const newTotal = sum(lines.map((l) => ({ unit: l.price.unitMinor, quantity: l.quantity })));
    let credit = 0;
    let charge = 0;
    if (change.mode === 'prorated_immediately') {
      credit = Math.round(oldTotal * rate);
      charge = intervalChanges ? newTotal : Math.round(newTotal * rate);
    }
    const diff = charge - credit;
    const money = (amount: number) => ({ amount: String(amount), currency_code: sub.currency });
    const summary: PaddleUpdateSummary = {
      credit: money(credit),
      charge: money(charge),
      result: { action: diff >= 0 ? 'charge' : 'credit', ...money(Math.abs(diff)) },
    };
    const next: SubscriptionRecord = structuredClone(sub);
    const at = isoMs(now);
    next.items = lines.map((line) => {
      const old = sub.items.find((i) => i.priceId === line.price.id);
      if (old && old.quantity === line.quantity) return { ...old };
      return { priceId: line.price.id, quantity: line.quantity, createdAt: old?.createdAt ?? at, updatedAt: at, previouslyBilledAt: old?.previouslyBilledAt ?? null };
    });
    if (intervalChanges) {
      next.interval = interval;
      next.periodStart = now;
      next.periodEnd = addInterval(now, interval);
      next.nextBilledAt = next.scheduledCancelAt === null ? next.periodEnd : null;
      if (next.scheduledCancelAt !== null) next.scheduledCancelAt = next.periodEnd;
    }
    return { next, summary, credit, charge, rate, lines };
  }

  /**
   * The immediate transaction's lines of a prorated change: its charge split over the new items by
   * their share of the new items' total (the last takes the rounding), each prorated at `rate` over
   * now..ends_at. The credit is applied to the transaction as a whole (totals.credit).
   */
  protected prorationLines(planned: PlannedChange, period: { starts_at: string; ends_at: string }): Line[] {
    const rate = planned.rate.toFixed(6);
    const lineTotals = planned.lines.map((l) => l.price.unitMinor * l.quantity);
    const lineSum = lineTotals.reduce((a, b) => a + b, 0) || 1;
    let left = planned.charge;
    return planned.lines.map((line, count) => {
      const total = count === planned.lines.length - 1 ? left : Math.round((planned.charge * lineTotals[count]!) / lineSum);
      left -= total;
      return { price: line.price, quantity: line.quantity, total, proration: { rate, billing_period: period } };
    });
  }

  /** The full-price lines of a subscription's items (a renewal). */
  protected recurringLines(sub: SubscriptionRecord): Line[] {
    return sub.items.map((item) => {
      const price = this.catalog.get(item.priceId)!;
      return { price, quantity: item.quantity, total: price.unitMinor * item.quantity, proration: null };
    });
  }

  /**
   * A preview's transactions, as the change would make them: `immediate_transaction` (prorated_immediately
   * only: the proration charge, the credit applied, any credit beyond the charge shown as
   * credit_to_balance; null for do_not_bill or no item change), `next_transaction` (the renewal at
   * next_billed_at, the customer's credit balance after the change applied first, as renewals do; null
   * when no renewal is due) and `recurring_transaction_details` (the items at full price).
   */
  protected previewExtras(sub: SubscriptionRecord, next: SubscriptionRecord, planned: PlannedChange | null, mode: ProrationMode | null): PreviewExtras {
    const now = this.now();
    let immediate: PaddlePreviewTransaction | null = null;
    if (planned && mode === 'prorated_immediately') {
      const period = { starts_at: isoMs(now), ends_at: isoMs(next.periodEnd ?? now) };
      immediate = { billing_period: period, details: previewDetails(this.prorationLines(planned, period), planned.credit, next.currency), adjustments: [] };
    }
    let following: PaddlePreviewTransaction | null = null;
    const recurring = this.recurringLines(next);
    if (next.status !== 'canceled' && next.nextBilledAt !== null) {
      const balance = (this.customerRecords.get(sub.customerId)?.credit.get(next.currency) ?? 0) + (immediate ? Math.max(0, Number(immediate.details.totals.credit_to_balance)) : 0);
      following = {
        billing_period: { starts_at: isoMs(next.nextBilledAt), ends_at: isoMs(addInterval(next.nextBilledAt, next.interval)) },
        details: previewDetails(recurring, balance, next.currency),
        adjustments: [],
      };
    }
    return {
      update_summary: planned?.summary ?? null,
      immediate_transaction: immediate,
      next_transaction: following,
      recurring_transaction_details: previewDetails(recurring, 0, next.currency),
    };
  }

  /** PATCH /subscriptions/{id} (apply) or PATCH|POST /subscriptions/{id}/preview (preview: nothing changes). */
  update(id: string, patch: SubscriptionPatch, preview: true): PaddleSubscription & PreviewExtras;
  update(id: string, patch: SubscriptionPatch, preview: false): PaddleSubscription;
  update(id: string, patch: SubscriptionPatch, preview: boolean): PaddleSubscription | (PaddleSubscription & PreviewExtras) {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'canceled') throw canceledError();
    let next: SubscriptionRecord = structuredClone(sub);
    if (patch.removeScheduledChange && next.scheduledCancelAt !== null) {
      next.scheduledCancelAt = null;
      next.nextBilledAt = next.status === 'active' || next.status === 'past_due' ? next.periodEnd : null;
    }
    if (patch.change && next.scheduledCancelAt !== null) {
      throw new PaddleApiError(
        400,
        'subscription_locked_pending_changes',
        'Subscription has a scheduled change: remove it (scheduled_change: null) before changing items.',
        undefined,
        'subscriptions',
      );
    }
    if (patch.customData !== undefined) next.customData = patch.customData === null ? null : structuredClone(patch.customData);
    let planned: PlannedChange | null = null;
    if (patch.change) {
      planned = this.plan(next, patch.change);
      next = planned.next;
    }
    if (preview) return { ...this.json(next), ...this.previewExtras(sub, next, planned, patch.change?.mode ?? null) };
    const changed = JSON.stringify(this.json(next)) !== JSON.stringify(this.json(sub));
    if (!changed) return this.json(sub);
    Object.assign(sub, next);
    this.touch(sub);
    this.emit('subscription.updated', this.json(sub));
    if (planned && patch.change?.mode === 'prorated_immediately') {
      const customer = this.customerRecords.get(sub.customerId)!;
      const diff = planned.charge - planned.credit;
      if (diff < 0) customer.credit.set(sub.currency, (customer.credit.get(sub.currency) ?? 0) - diff);
      if (diff > 0) {
        const period = { starts_at: isoMs(this.now()), ends_at: isoMs(sub.periodEnd ?? this.now()) };
        const lines = this.prorationLines(planned, period);
        const txn = this.addTransaction({ status: 'ready', origin: 'subscription_update', sub, customData: sub.customData, lines, credit: planned.credit, period });
        this.settle(txn, sub.card, true);
      }
    }
    return this.json(sub);
  }

  /**
   * As if the payment for the current period had failed: a past-due transaction (origin
   * subscription_recurring) and the subscription past due; sends transaction.payment_failed,
   * transaction.past_due and subscription.past_due.
   */
  markPastDue(id: string): PaddleTransaction {
    const sub = this.subscriptionRecord(id);
    if (sub.status !== 'active') throw new Error(`markPastDue: ${id} is ${sub.status}, not active`);
    const period = sub.periodStart !== null && sub.periodEnd !== null ? { starts_at: isoMs(sub.periodStart), ends_at: isoMs(sub.periodEnd) } : null;
    const txn = this.addTransaction({
      status: 'past_due',
      origin: 'subscription_recurring',
      sub,
      customData: sub.customData,
      lines: sub.items.map((item) => {
        const price = this.catalog.get(item.priceId)!;
        return { price, quantity: item.quantity, total: price.unitMinor * item.quantity, proration: null };
      }),
      period,
    });
    txn.billed_at = this.stamp();
    txn.payments.unshift(this.payment(txn, sub.card, false));
    txn.updated_at = this.stamp();
    this.emit('transaction.payment_failed', txn);
    this.emit('transaction.past_due', txn);
    sub.status = 'past_due';
    this.touch(sub);
    this.emit('subscription.past_due', this.json(sub));
    return structuredClone(txn);
  }

  /**
   * Applies what the clock says is due: scheduled cancels (subscription.canceled at effective_at) and
   * renewals of active subscriptions at next_billed_at (a completed subscription_recurring transaction
   * charged to the stored card, using the customer's credit first, then subscription.updated).
   */
  tick(): void {
    const now = this.now();
    for (const sub of this.subscriptionRecords.values()) {
      for (let n = 0; n < MAX_RENEWALS; n++) {
        if (sub.status === 'canceled') break;
        if (sub.scheduledCancelAt !== null) {
          if (sub.scheduledCancelAt > now) break;
          sub.status = 'canceled';
          sub.canceledAt = isoMs(sub.scheduledCancelAt);
          sub.scheduledCancelAt = null;
          sub.nextBilledAt = null;
          sub.periodStart = null;
          sub.periodEnd = null;
          this.touch(sub);
          this.emit('subscription.canceled', this.json(sub));
          break;
        }
        if (sub.status !== 'active' || sub.nextBilledAt === null || sub.nextBilledAt > now) break;
        this.renew(sub);
      }
    }
  }

  protected renew(sub: SubscriptionRecord): void {
    const start = sub.nextBilledAt!;
    const end = addInterval(start, sub.interval);
    const customer = this.customerRecords.get(sub.customerId)!;
    const lines = this.recurringLines(sub);
    const total = lines.reduce((t, l) => t + l.total, 0);
    const credit = Math.min(customer.credit.get(sub.currency) ?? 0, total);
    if (credit > 0) customer.credit.set(sub.currency, (customer.credit.get(sub.currency) ?? 0) - credit);
    const txn = this.addTransaction({ status: 'ready', origin: 'subscription_recurring', sub, customData: sub.customData, lines, credit, period: { starts_at: isoMs(start), ends_at: isoMs(end) } });
    this.settle(txn, sub.card, true);
    sub.periodStart = start;
    sub.periodEnd = end;
    sub.nextBilledAt = end;
    for (const item of sub.items) item.previouslyBilledAt = isoMs(start);
    this.touch(sub);
    this.emit('subscription.updated', this.json(sub));
  }
}

import { addInterval, DAY } from '../../../kit/dates';
import { dateDisplay, display, intervalLabel, major, stamps } from '../format';
import type { FastspringSubscription } from '../types';
import { notFoundSubscription, type OrderRecord, type PlannedChange, type SubscriptionChange, type SubscriptionRecord, subError } from './model';
import { FastspringOrders } from './orders';

/** Subscriptions: their JSON and reads, cancel and uncancel, plan changes, renewals, overdue and recovered payments. */
export class FastspringSubscriptions extends FastspringOrders {
  subscriptionJson(sub: SubscriptionRecord): FastspringSubscription {
    const product = this.catalog.get(sub.product);
    const totalMinor = sub.unitMinor * sub.quantity;
    const char = sub.currency;
    const charging = sub.state === 'active' || sub.state === 'overdue' ? sub.next : null;
    return {
      id: sub.id,
      subscription: sub.id,
      active: sub.state !== 'deactivated',
      state: sub.state,
      ...(stamps('changed', sub.changed) as { changed: number; changedValue: number; changedInSeconds: number; changedDisplay: string }),
      live: false,
      currency: char,
      account: sub.accountId,
      product: sub.product,
      sku: null,
      display: product?.display ?? sub.product,
      quantity: sub.quantity,
      adhoc: false,
      autoRenew: true,
      price: major(sub.unitMinor, char),
      priceDisplay: display(sub.unitMinor, char),
      priceInPayoutCurrency: major(sub.unitMinor, char),
      priceInPayoutCurrencyDisplay: display(sub.unitMinor, char),
      discount: 0,
      discountDisplay: display(0, char),
      discountInPayoutCurrency: 0,
      discountInPayoutCurrencyDisplay: display(0, char),
      subtotal: major(totalMinor, char),
      subtotalDisplay: display(totalMinor, char),
      subtotalInPayoutCurrency: major(totalMinor, char),
      subtotalInPayoutCurrencyDisplay: display(totalMinor, char),
      ...(stamps('next', sub.next) as { next: number | null; nextValue: number | null; nextInSeconds: number | null; nextDisplay: string | null }),
      end: null,
      endValue: null,
      endInSeconds: null,
      endDisplay: null,
      ...(stamps('canceledDate', sub.canceledDate) as {
        canceledDate: number | null;
        canceledDateValue: number | null;
        canceledDateInSeconds: number | null;
        canceledDateDisplay: string | null;
      }),
      ...(stamps('deactivationDate', sub.deactivationDate) as {
        deactivationDate: number | null;
        deactivationDateValue: number | null;
        deactivationDateInSeconds: number | null;
        deactivationDateDisplay: string | null;
      }),
      sequence: sub.sequence,
      periods: null,
      remainingPeriods: null,
      ...(stamps('begin', sub.begin) as { begin: number; beginValue: number; beginInSeconds: number; beginDisplay: string }),
      intervalUnit: sub.intervalUnit,
      intervalLength: sub.intervalLength,
      nextChargeCurrency: char,
      ...(stamps('nextChargeDate', charging) as {
        nextChargeDate: number | null;
        nextChargeDateValue: number | null;
        nextChargeDateInSeconds: number | null;
        nextChargeDateDisplay: string | null;
      }),
      nextChargePreTax: major(totalMinor, char),
      nextChargePreTaxDisplay: display(totalMinor, char),
      nextChargeTotal: major(totalMinor, char),
      nextChargeTotalDisplay: display(totalMinor, char),
      tags: structuredClone(sub.tags),
      initialOrderId: sub.initialOrderId,
      initialOrderReference: sub.initialOrderReference,
    };
  }

  subscription(id: string, action = 'subscription.get'): SubscriptionRecord {
    const sub = this.subs.get(id);
    if (!sub) throw notFoundSubscription(id, action);
    return sub;
  }

  subscriptions(): FastspringSubscription[] {
    return [...this.subs.values()].map((s) => this.subscriptionJson(s));
  }

  describeInterval(sub: SubscriptionRecord): string {
    return intervalLabel(sub.intervalUnit, sub.intervalLength);
  }

  dateText(ms: number): string {
    return dateDisplay(ms);
  }

  /** DELETE /subscriptions/{id}: at the next billing date (canceled, still active), or now (`billingPeriod=0`: deactivated). */
  checkCancel(id: string, immediately: boolean): SubscriptionRecord {
    const sub = this.subscription(id, 'subscription.cancel');
    if (sub.state === 'deactivated') throw subError(400, 'subscription.cancel', id, 'The subscription is already deactivated.');
    if (!immediately && sub.state === 'canceled') throw subError(500, 'subscription.cancel', id, 'The subscription is already canceled.');
    return sub;
  }

  cancel(id: string, immediately: boolean): void {
    const sub = this.checkCancel(id, immediately);
    const now = this.now();
    if (immediately) {
      sub.canceledDate ??= now;
      this.deactivate(sub, now);
      this.changed();
      return;
    }
    sub.state = 'canceled';
    sub.canceledDate = now;
    sub.deactivationDate = sub.next;
    this.touch(sub);
    this.queue.enqueue([{ type: 'subscription.canceled', data: this.subscriptionJson(sub) }]);
    this.changed();
  }

  protected deactivate(sub: SubscriptionRecord, at: number): void {
    sub.state = 'deactivated';
    sub.deactivationDate = at;
    sub.next = null;
    this.touch(sub);
    this.queue.enqueue([{ type: 'subscription.deactivated', data: this.subscriptionJson(sub) }]);
  }

  /** `deactivation: null`: a canceled subscription goes on (subscription.uncanceled); an active one is left as it is. */
  uncancel(id: string): void {
    const sub = this.subscription(id, 'subscription.update');
    if (sub.state === 'deactivated') throw subError(400, 'subscription.update', id, 'Subscription is not active.', 'uncancel');
    if (sub.state !== 'canceled') return;
    sub.state = 'active';
    sub.canceledDate = null;
    sub.deactivationDate = null;
    this.touch(sub);
    this.queue.enqueue([{ type: 'subscription.uncanceled', data: this.subscriptionJson(sub) }]);
    this.changed();
  }

  /** The plan change of `product`/`quantity` on a subscription, priced as FastSpring prorates (by days). */
  plan(id: string, productPath: string | undefined, quantity: number | undefined, action: string): PlannedChange {
    const sub = this.subscription(id, action);
    const product = productPath === undefined ? this.catalog.get(sub.product) : this.catalog.get(productPath);
    if (!product) throw subError(400, action, id, `Product not found: ${productPath ?? sub.product}`, 'product');
    if (product.currency !== sub.currency) throw subError(400, action, id, `The product ${product.path} is not sold in ${sub.currency}.`, 'product');
    const newQuantity = quantity ?? sub.quantity;
    const now = this.now();
    const next = sub.next ?? now;
    const totalDays = Math.max(1, Math.round((next - sub.periodStart) / DAY));
    const remainingDays = Math.min(totalDays, Math.max(0, Math.ceil((next - now) / DAY)));
    const oldTotalMinor = sub.unitMinor * sub.quantity;
    const newTotalMinor = (product.path === sub.product ? sub.unitMinor : product.unitMinor) * newQuantity;
    const creditMinor = Math.round((oldTotalMinor * remainingDays) / totalDays);
    const sameInterval = product.intervalUnit === sub.intervalUnit && product.intervalLength === sub.intervalLength;
    const chargeMinor = sameInterval ? Math.round((newTotalMinor * remainingDays) / totalDays) : newTotalMinor;
    return {
      sub,
      product,
      quantity: newQuantity,
      sameInterval,
      totalDays,
      remainingDays,
      utilizedDays: totalDays - remainingDays,
      oldTotalMinor,
      newTotalMinor,
      creditMinor,
      chargeMinor,
      netMinor: chargeMinor - creditMinor,
      newPeriodStart: sameInterval ? sub.periodStart : now,
      newNext: sameInterval ? next : addInterval(now, product.intervalUnit, product.intervalLength),
    };
  }

  /** Checks one change of POST /subscriptions (throws its error) and returns what applying it needs. */
  check(change: SubscriptionChange): PlannedChange | null {
    const action = 'subscription.update';
    const sub = this.subscription(change.subscription, action);
    if (change.uncancel) {
      if (sub.state === 'deactivated') throw subError(400, action, sub.id, 'Subscription is not active.', 'uncancel');
      if (change.product === undefined && change.quantity === undefined) return null;
    }
    if (change.product === undefined && change.quantity === undefined) {
      if (change.preview) throw subError(400, action, sub.id, 'Nothing to preview: give a product or a quantity.', 'product');
      return null;
    }
    if (sub.state === 'deactivated') throw subError(400, action, sub.id, 'Subscription is not active.');
    const planned = this.plan(sub.id, change.product, change.quantity, action);
    if ((change.prorate || change.preview) && sub.state !== 'active') throw subError(400, action, sub.id, 'Proration is not allowed for this subscription.', 'message');
    return planned;
  }

  /** Applies a checked change: the new plan now; with prorate, a proration charge (its order) when it costs more. */
  apply(change: SubscriptionChange, planned: PlannedChange | null): void {
    if (change.uncancel) this.uncancel(change.subscription);
    if (!planned) return;
    const { sub, product } = planned;
    const batch: Array<{ type: string; data: unknown }> = [];
    const now = this.now();
    let charge: OrderRecord | null = null;
    if (change.prorate) {
      if (planned.netMinor > 0) {
        charge = this.addOrder(sub, 'proration', [{ product: product.path, display: product.display, quantity: planned.quantity, subtotalMinor: planned.netMinor, subscription: sub.id }]);
        sub.sequence++;
      }
      sub.periodStart = planned.newPeriodStart;
      sub.next = planned.newNext;
      if (sub.state === 'canceled') sub.deactivationDate = sub.next;
    }
    // Without prorate the new plan applies from now on and is first charged at the next charge date.
    sub.product = product.path;
    sub.unitMinor = planned.newTotalMinor / planned.quantity;
    sub.quantity = planned.quantity;
    sub.intervalUnit = product.intervalUnit;
    sub.intervalLength = product.intervalLength;
    this.touch(sub);
    if (charge) batch.push({ type: 'subscription.charge.completed', data: this.chargeData(sub, charge, now) });
    batch.push({ type: 'subscription.updated', data: this.subscriptionJson(sub) });
    this.queue.enqueue(batch);
    this.changed();
  }

  protected chargeData(sub: SubscriptionRecord, order: OrderRecord, at: number) {
    return {
      subscription: this.subscriptionJson(sub),
      status: 'successful',
      ...stamps('timestamp', at),
      currency: sub.currency,
      total: major(order.totalMinor, sub.currency),
      totalDisplay: display(order.totalMinor, sub.currency),
      totalInPayoutCurrency: major(order.totalMinor, sub.currency),
      totalInPayoutCurrencyDisplay: display(order.totalMinor, sub.currency),
      sequence: sub.sequence,
      order: this.orderJson(order),
    };
  }

  protected renew(sub: SubscriptionRecord): void {
    const at = sub.next!;
    const product = this.catalog.get(sub.product);
    const order = this.addOrder(sub, 'rebill', [
      { product: sub.product, display: product?.display ?? sub.product, quantity: sub.quantity, subtotalMinor: sub.unitMinor * sub.quantity, subscription: sub.id },
    ]);
    order.created = Math.max(order.created, at);
    sub.sequence++;
    sub.periodStart = at;
    sub.next = addInterval(at, sub.intervalUnit, sub.intervalLength);
    this.touch(sub);
    this.queue.enqueue([
      { type: 'subscription.charge.completed', data: this.chargeData(sub, order, at) },
      { type: 'subscription.updated', data: this.subscriptionJson(sub) },
    ]);
  }

  /** Applies what is due by the clock: renewals at `next`, deactivations of canceled subscriptions. */
  tick(): void {
    const now = this.now();
    let changed = false;
    const due = [...this.subs.values()].filter((s) => s.next !== null && s.next <= now).sort((a, b) => a.next! - b.next!);
    for (const sub of due) {
      // A long jump of the clock renews once per period missed.
      for (let n = 0; n < 1000 && sub.next !== null && sub.next <= now; n++) {
        if (sub.state === 'canceled') this.deactivate(sub, sub.next);
        else if (sub.state === 'active') this.renew(sub);
        else break;
        changed = true;
      }
    }
    if (changed) this.changed();
  }

  /** As if the rebill had failed: subscription.charge.failed + subscription.payment.overdue, state overdue. */
  markOverdue(id: string): FastspringSubscription {
    const sub = this.subscription(id);
    if (sub.state !== 'active') throw new Error(`markOverdue: subscription ${id} is ${sub.state}, not active`);
    const now = this.now();
    sub.state = 'overdue';
    this.touch(sub);
    const totalMinor = sub.unitMinor * sub.quantity;
    this.queue.enqueue([
      {
        type: 'subscription.charge.failed',
        data: {
          subscription: this.subscriptionJson(sub),
          status: 'failed',
          reason: 'The card was declined.',
          ...stamps('timestamp', now),
          currency: sub.currency,
          total: major(totalMinor, sub.currency),
          totalDisplay: display(totalMinor, sub.currency),
          sequence: sub.sequence,
        },
      },
      { type: 'subscription.payment.overdue', data: this.subscriptionJson(sub) },
    ]);
    this.changed();
    return this.subscriptionJson(sub);
  }

  /** The overdue payment succeeds on a retry: an order, subscription.charge.completed + subscription.updated, state active. */
  recover(id: string): FastspringSubscription {
    const sub = this.subscription(id);
    if (sub.state !== 'overdue') throw new Error(`recover: subscription ${id} is ${sub.state}, not overdue`);
    const now = this.now();
    const product = this.catalog.get(sub.product);
    const order = this.addOrder(sub, 'rebill', [
      { product: sub.product, display: product?.display ?? sub.product, quantity: sub.quantity, subtotalMinor: sub.unitMinor * sub.quantity, subscription: sub.id },
    ]);
    sub.sequence++;
    sub.state = 'active';
    if (sub.next !== null && sub.next <= now) {
      sub.periodStart = sub.next;
      sub.next = addInterval(sub.next, sub.intervalUnit, sub.intervalLength);
    }
    this.touch(sub);
    this.queue.enqueue([
      { type: 'subscription.charge.completed', data: this.chargeData(sub, order, now) },
      { type: 'subscription.updated', data: this.subscriptionJson(sub) },
    ]);
    this.changed();
    return this.subscriptionJson(sub);
  }
}

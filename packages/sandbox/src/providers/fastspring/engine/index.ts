import type { Card } from '../../../kit/cards';
import { addInterval } from '../../../kit/dates';
import { type CheckoutLine, CheckoutProblem, type CheckoutSession, fsId, MAX_QUANTITY, type OrderRecord, type SubscriptionRecord, splitName, token } from './model';
import { FastspringSubscriptions } from './subscriptions';


export { type AccountRecord, type AccountSession, type CatalogProduct, type CheckoutLine, CheckoutProblem, type CheckoutSession, FastspringApiError, MAX_TAGS_JSON, notFoundSubscription, type OrderRecord, type PlannedChange, type SubscriptionChange, type SubscriptionRecord } from './model';

export class FastspringEngine extends FastspringSubscriptions {
  lines(input: unknown): CheckoutLine[] {
    if (!Array.isArray(input) || input.length === 0) throw new CheckoutProblem('The cart is empty: add a product with fastspring.builder.push({ products: [{ path, quantity }] }).');
    if (input.length > 20) throw new CheckoutProblem('The cart has too many products (20 at most).');
    const lines: CheckoutLine[] = [];
    for (const item of input) {
      const fields = item as { path?: unknown; quantity?: unknown } | null;
      const path = fields && typeof fields === 'object' ? fields.path : undefined;
      if (typeof path !== 'string' || path === '') throw new CheckoutProblem('Every cart item needs a product path.');
      const product = this.catalog.get(path);
      if (!product) throw new CheckoutProblem(`This store has no product "${path}".`);
      const quantity = fields!.quantity === undefined || fields!.quantity === null ? 1 : fields!.quantity;
      if (!(typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY)) {
        throw new CheckoutProblem(`The quantity of "${path}" must be a whole number from 1 to ${MAX_QUANTITY}.`);
      }
      const same = lines.find((l) => l.product.path === path);
      if (same) same.quantity = Math.min(MAX_QUANTITY, same.quantity + quantity);
      else lines.push({ product, quantity });
    }
    if (new Set(lines.map((l) => l.product.currency)).size > 1) throw new CheckoutProblem('The cart mixes currencies: one order is paid in one currency.');
    return lines;
  }

  openCheckout(input: { lines: CheckoutLine[]; tags: Record<string, unknown>; email: string | null; parentOrigin: string | null }): CheckoutSession {
    const now = this.now();
    this.evictCheckouts(now);
    const session: CheckoutSession = { id: fsId(), ...input, expiresAt: now + this.options.checkoutTtlMs, result: null };
    this.checkouts.set(session.id, session);
    this.changed();
    return session;
  }

  checkoutSession(id: string): CheckoutSession | null {
    const checkoutSession = this.checkouts.get(id);
    return checkoutSession && checkoutSession.expiresAt > this.now() ? checkoutSession : null;
  }

  /** Pays a checkout: an account (found by email or new), an order, a subscription per product; order.completed + subscription.activated in one POST. */
  purchase(session: CheckoutSession, input: { email: string; name: string; card: Card }): { orderId: string; reference: string } {
    if (session.result) return session.result;
    const now = this.now();
    const account = this.accountFor(input.email, input.name);
    const orderId = fsId();
    const reference = this.reference(now);
    const currency = session.lines[0]!.product.currency;
    const subs: SubscriptionRecord[] = session.lines.map((checkoutLine) => ({
      id: fsId(),
      accountId: account.id,
      product: checkoutLine.product.path,
      quantity: checkoutLine.quantity,
      unitMinor: checkoutLine.product.unitMinor,
      currency,
      intervalUnit: checkoutLine.product.intervalUnit,
      intervalLength: checkoutLine.product.intervalLength,
      state: 'active',
      begin: now,
      periodStart: now,
      next: addInterval(now, checkoutLine.product.intervalUnit, checkoutLine.product.intervalLength),
      changed: this.stamp(),
      canceledDate: null,
      deactivationDate: null,
      sequence: 1,
      tags: structuredClone(session.tags),
      initialOrderId: orderId,
      initialOrderReference: reference,
      card: input.card,
    }));
    const { first, last } = account.first || account.last ? account : splitName(input.name);
    const order: OrderRecord = {
      id: orderId,
      reference,
      accountId: account.id,
      created: now,
      currency,
      kind: 'checkout',
      items: session.lines.map((checkoutLine, count) => ({
        product: checkoutLine.product.path,
        display: checkoutLine.product.display,
        quantity: checkoutLine.quantity,
        subtotalMinor: checkoutLine.product.unitMinor * checkoutLine.quantity,
        subscription: subs[count]!.id,
      })),
      totalMinor: session.lines.reduce((t, l) => t + l.product.unitMinor * l.quantity, 0),
      tags: structuredClone(session.tags),
      invoiceKey: token(),
      card: input.card,
      email: account.email,
      first,
      last,
    };
    this.orders.set(order.id, order);
    for (const subscription of subs) this.subs.set(subscription.id, subscription);
    session.result = { orderId, reference };
    this.queue.enqueue([{ type: 'order.completed', data: this.orderJson(order) }, ...subs.map((s) => ({ type: 'subscription.activated', data: this.subscriptionJson(s) }))]);
    this.changed();
    return session.result;
  }
}

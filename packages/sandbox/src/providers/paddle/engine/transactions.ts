import { randomUUID } from 'node:crypto';
import { addInterval } from '../../../kit/dates';
import { isoMs, microsOf } from '../ids';
import type { PaddleCard, PaddleLineItem, PaddlePayment, PaddleSubscription, PaddleTransaction, TransactionOrigin } from '../types';
import { PaddleCustomers } from './customers';
import { alreadyPaid, type CheckoutResult, type CheckoutSession, canceledError, evict, type Line, type LineInput, lineItemOf, notFound, PaddleApiError, type SubscriptionRecord, type TransactionQuery, totalsOf } from './model';

/** Transactions: created by the API or a checkout, paid with a card, and the invoices they become. */
export class PaddleTransactions extends PaddleCustomers {
  transaction(id: string): PaddleTransaction {
    const transaction = this.transactionRecords.get(id);
    if (!transaction) throw notFound('Transaction', id);
    return structuredClone(transaction);
  }

  transactions(): PaddleTransaction[] {
    return [...this.transactionRecords.values()].map((t) => structuredClone(t));
  }

  /** GET /transactions: the transactions matching every filter given (copies, in no particular order). */
  findTransactions(transactionQuery: TransactionQuery): PaddleTransaction[] {
    const has = (list: string[] | undefined, value: string | null) => !list || (value !== null && list.includes(value));
    return [...this.transactionRecords.values()]
      .filter((t) => has(transactionQuery.ids, t.id))
      // `subscription_id=null`: the transactions of no subscription (made by the API, not paid yet).
      .filter((t) => (transactionQuery.subscriptionIds === null ? t.subscription_id === null : has(transactionQuery.subscriptionIds, t.subscription_id)))
      .filter((t) => has(transactionQuery.customerIds, t.customer_id))
      .filter((t) => has(transactionQuery.statuses, t.status))
      .filter((t) => has(transactionQuery.origins, t.origin))
      .filter((t) => has(transactionQuery.invoiceNumbers, t.invoice_number))
      .filter((t) => has(transactionQuery.collectionModes, t.collection_mode))
      .filter((transaction) =>
        (transactionQuery.dates ?? []).every((data) => {
          const value = transaction[data.field];
          if (value === null) return false;
          const months = microsOf(value);
          return data.op === 'eq' ? months === data.micros : data.op === 'lt' ? months < data.micros : data.op === 'lte' ? months <= data.micros : data.op === 'gt' ? months > data.micros : months >= data.micros;
        }),
      )
      .map((t) => structuredClone(t));
  }

  /**
   * What GET /transactions/{id}/invoice may link to: a completed transaction (automatic collection)
   * that is not zero-value, as Paddle documents; else Paddle's error shape (404 for an unknown id).
   */
  invoiceable(id: string): PaddleTransaction {
    const transaction = this.transactionRecords.get(id);
    if (!transaction) throw notFound('Transaction', id);
    if (transaction.status !== 'completed') {
      throw new PaddleApiError(400, 'bad_request', `Transaction ${id} is ${transaction.status}: invoice PDFs are only available for completed transactions.`);
    }
    if (Number(transaction.details.totals.total) === 0 || transaction.invoice_number === null) {
      throw new PaddleApiError(400, 'bad_request', `Transaction ${id} is zero-value: invoice PDFs aren't available for zero-value transactions.`);
    }
    return structuredClone(transaction);
  }

  protected addTransaction(input: {
    status: PaddleTransaction['status'];
    origin: TransactionOrigin;
    /** The subscription it bills, or (a transaction the API creates) none yet. */
    sub: SubscriptionRecord | { currency: string };
    customData: Record<string, unknown> | null;
    lines: Line[];
    credit?: number;
    period: { starts_at: string; ends_at: string } | null;
    checkoutUrl?: string | null;
  }): PaddleTransaction {
    const { sub } = input;
    const billed = 'id' in sub ? sub : null;
    const at = this.stamp();
    const subtotal = input.lines.reduce((t, l) => t + l.total, 0);
    const totals = totalsOf(subtotal, input.credit ?? 0, sub.currency, false);
    const lineItems: PaddleLineItem[] = input.lines.map((l) => ({ id: this.ids.next('txnitm', this.now()), ...lineItemOf(l) }));
    const txn: PaddleTransaction = {
      id: this.ids.next('txn', this.now()),
      status: input.status,
      customer_id: billed?.customerId ?? null,
      address_id: billed?.addressId ?? null,
      business_id: null,
      custom_data: input.customData === null ? null : structuredClone(input.customData),
      origin: input.origin,
      collection_mode: 'automatic',
      subscription_id: billed?.id ?? null,
      invoice_id: null,
      invoice_number: null,
      billing_details: null,
      billing_period: input.period,
      currency_code: sub.currency,
      discount_id: null,
      created_at: at,
      updated_at: at,
      billed_at: null,
      items: input.lines.map((l) => ({ price: structuredClone(l.price.price), quantity: l.quantity, proration: l.proration })),
      details: { tax_rates_used: [], totals, line_items: lineItems },
      payments: [],
      checkout: { url: input.checkoutUrl ?? null },
    };
    this.transactionRecords.set(txn.id, txn);
    return txn;
  }

  protected payment(txn: PaddleTransaction, card: PaddleCard, ok: boolean): PaddlePayment {
    const at = this.stamp();
    return {
      amount: txn.details.totals.grand_total,
      status: ok ? 'captured' : 'error',
      created_at: at,
      captured_at: ok ? at : null,
      error_code: ok ? null : 'declined',
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: this.ids.next('paymtd', this.now()),
      method_details: { type: 'card', card: { ...card } },
    };
  }

  /** Captures the transaction's amount with the card: status paid (transaction.paid when billed), then completed. */
  protected settle(txn: PaddleTransaction, card: PaddleCard, notifyPaid: boolean): void {
    txn.payments.unshift(this.payment(txn, card, true));
    const billed = Number(txn.details.totals.grand_total) > 0 || txn.origin !== 'subscription_payment_method_change';
    if (billed && !txn.invoice_id) {
      txn.invoice_id = this.ids.next('inv', this.now());
      txn.invoice_number = `${new Date(this.now()).getUTCFullYear()}-${String(++this.invoiceNumber).padStart(5, '0')}`;
    }
    txn.billed_at ??= this.stamp();
    txn.details.totals.balance = '0';
    txn.status = 'paid';
    txn.updated_at = this.stamp();
    if (notifyPaid) this.emit('transaction.paid', txn);
    txn.status = 'completed';
    txn.updated_at = this.stamp();
    this.emit('transaction.completed', txn);
  }

  /** Validates a checkout's items (known prices, one currency and billing interval, quantity 1-100). */
  lines(items: Array<{ priceId: unknown; quantity: unknown }>): LineInput[] {
    if (!Array.isArray(items) || items.length === 0) throw new RangeError('The checkout has no items.');
    if (items.length > 10) throw new RangeError('A checkout takes at most 10 items.');
    const lines: LineInput[] = [];
    for (const item of items) {
      const price = typeof item?.priceId === 'string' ? this.catalog.get(item.priceId) : undefined;
      if (!price) throw new RangeError(`Unknown price ${JSON.stringify(item?.priceId ?? null)}.`);
      const quantity = item.quantity === undefined ? 1 : item.quantity;
      if (!(typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= 100)) throw new RangeError(`The quantity of ${price.id} must be a whole number from 1 to 100.`);
      if (lines.some((l) => l.price.id === price.id)) throw new RangeError(`Price ${price.id} is listed twice.`);
      lines.push({ price, quantity });
    }
    const first = lines[0]!.price;
    if (lines.some((l) => l.price.currency !== first.currency)) throw new RangeError('All items of a checkout must be in the same currency.');
    if (lines.some((l) => l.price.interval !== first.interval)) throw new RangeError('All items of a subscription must have the same billing interval.');
    return lines;
  }

  /**
   * POST /transactions: a transaction the API prepares for a checkout (origin `api`, status `draft`: no
   * customer or address yet), its items priced from the catalogue and its custom data the API's. Paddle.js
   * opens it with `Paddle.Checkout.open({ transactionId })`; paying it makes the subscription, whose
   * `subscription.created` names it (`transaction_id`). `checkoutUrl` makes its `checkout.url`.
   */
  createTransaction(items: Array<{ priceId: unknown; quantity: unknown }>, customData: Record<string, unknown> | null, checkoutUrl: (txnId: string) => string): PaddleTransaction {
    const lines = this.lines(items);
    const txn = this.addTransaction({
      status: 'draft',
      origin: 'api',
      sub: { currency: lines[0]!.price.currency },
      customData,
      lines: lines.map((l) => ({ price: l.price, quantity: l.quantity, total: l.price.unitMinor * l.quantity, proration: null })),
      period: null,
    });
    txn.checkout.url = checkoutUrl(txn.id);
    this.changed();
    return structuredClone(txn);
  }

  openCheckout(input: Omit<CheckoutSession, 'id' | 'expiresAt' | 'result'>): CheckoutSession {
    const now = this.now();
    evict(this.checkoutSessions, now);
    const session: CheckoutSession = { ...input, id: this.ids.next('chk', now), expiresAt: now + this.options.checkoutTtlMs, result: null };
    this.checkoutSessions.set(session.id, session);
    this.changed();
    return session;
  }

  checkoutSession(id: string): CheckoutSession | null {
    const checkoutSession = this.checkoutSessions.get(id);
    return checkoutSession && checkoutSession.expiresAt > this.now() ? checkoutSession : null;
  }

  /**
   * A successful purchase: customer (new or reused), active subscription and completed transaction, then
   * subscription.created, subscription.activated, transaction.paid and transaction.completed.
   */
  purchase(session: CheckoutSession, email: string, card: PaddleCard): CheckoutResult {
    if (session.result) return session.result;
    if (session.kind !== 'purchase') throw new Error('purchase: not a purchase checkout');
    // A transaction the API created: paid once (a second checkout of it is refused), and it is the
    // transaction the purchase completes (its id, custom data and items).
    const prepared = session.transactionId === null ? null : this.unpaidApiTransaction(session.transactionId);
    const userId = typeof session.customData?.userId === 'string' ? session.customData.userId : null;
    const customer = this.customerFor(email, userId);
    const now = this.now();
    const first = session.lines[0]!.price;
    const periodEnd = addInterval(now, first.interval);
    const created = this.stamp();
    const sub: SubscriptionRecord = {
      id: this.ids.next('sub', now),
      status: 'active',
      customerId: customer.customer.id,
      addressId: customer.addressId,
      currency: first.currency,
      interval: first.interval,
      items: session.lines.map((l) => ({ priceId: l.price.id, quantity: l.quantity, createdAt: created, updatedAt: created, previouslyBilledAt: isoMs(now) })),
      customData: session.customData === null ? null : structuredClone(session.customData),
      createdAt: created,
      updatedAt: created,
      startedAt: isoMs(now),
      firstBilledAt: isoMs(now),
      canceledAt: null,
      periodStart: now,
      periodEnd,
      nextBilledAt: periodEnd,
      scheduledCancelAt: null,
      card: { ...card },
    };
    this.subscriptionRecords.set(sub.id, sub);
    const period = { starts_at: isoMs(now), ends_at: isoMs(periodEnd) };
    let txn: PaddleTransaction;
    if (prepared) {
      // Paddle holds the checkout's custom data against the transaction (and copies it to the subscription).
      Object.assign(prepared, {
        status: 'ready',
        customer_id: customer.customer.id,
        address_id: customer.addressId,
        subscription_id: sub.id,
        custom_data: sub.customData === null ? null : structuredClone(sub.customData),
        billing_period: period,
        updated_at: this.stamp(),
      } satisfies Partial<PaddleTransaction>);
      txn = prepared;
    } else {
      txn = this.addTransaction({
        status: 'ready',
        origin: 'web',
        sub,
        customData: sub.customData,
        lines: session.lines.map((l) => ({ price: l.price, quantity: l.quantity, total: l.price.unitMinor * l.quantity, proration: null })),
        period,
      });
    }
    this.emit('subscription.created', { ...this.json(sub), transaction_id: txn.id });
    this.touch(sub);
    this.emit('subscription.activated', this.json(sub));
    this.settle(txn, card, true);
    session.result = { transactionId: txn.id, subscriptionId: sub.id, customerId: customer.customer.id, email: customer.customer.email, customData: sub.customData, card: { ...card } };
    return session.result;
  }

  /**
   * A checkout opened for a transaction (`?txn=`): pays it with the card. A zero-amount card-update
   * transaction records the card; a past-due one is collected. A past-due subscription is active again
   * afterwards (its other past-due transactions are collected with the new card too).
   */
  payTransaction(session: CheckoutSession, card: PaddleCard): CheckoutResult {
    if (session.result) return session.result;
    const txn = this.transactionRecords.get(session.transactionId ?? '');
    if (!txn) throw notFound('Transaction', session.transactionId ?? '');
    if (txn.subscription_id === null) throw new Error('payTransaction: the transaction bills no subscription (a purchase)');
    const sub = this.subscriptionRecord(txn.subscription_id);
    if (sub.status === 'canceled') throw canceledError();
    if (txn.status === 'completed' || txn.status === 'paid') throw alreadyPaid();
    const wasPastDue = sub.status === 'past_due';
    sub.card = { ...card };
    this.settle(txn, card, txn.origin !== 'subscription_payment_method_change');
    if (wasPastDue) {
      for (const other of this.transactionRecords.values()) {
        if (other.subscription_id === sub.id && other.status === 'past_due') this.settle(other, card, true);
      }
      sub.status = 'active';
      if (sub.nextBilledAt === null && sub.scheduledCancelAt === null && sub.periodEnd !== null) sub.nextBilledAt = sub.periodEnd;
      this.touch(sub);
      this.emit('subscription.updated', this.json(sub));
    }
    const customer = this.customerRecords.get(sub.customerId)!;
    session.result = { transactionId: txn.id, subscriptionId: sub.id, customerId: sub.customerId, email: customer.customer.email, customData: sub.customData, card: { ...card } };
    return session.result;
  }

  /**
   * What a checkout opened for a transaction (`?txn=`) pays: a transaction the API created for a
   * purchase (`sub` null), or a subscription's card-update or past-due one; else an error.
   */
  payableTransaction(txnId: string): { txn: PaddleTransaction; sub: PaddleSubscription | null } {
    const txn = this.transactionRecords.get(txnId);
    if (!txn) throw notFound('Transaction', txnId);
    if (txn.subscription_id === null) return { txn: structuredClone(this.unpaidApiTransaction(txnId)), sub: null };
    const sub = this.subscriptionRecord(txn.subscription_id);
    if (sub.status === 'canceled') throw canceledError();
    if (txn.status === 'completed' || txn.status === 'paid') throw alreadyPaid();
    return { txn: structuredClone(txn), sub: this.json(sub) };
  }

  /** A transaction the API created that no checkout has paid yet (the record itself), else an error. */
  protected unpaidApiTransaction(txnId: string): PaddleTransaction {
    const txn = this.transactionRecords.get(txnId);
    if (!txn) throw notFound('Transaction', txnId);
    if (txn.origin !== 'api' || txn.subscription_id !== null || (txn.status !== 'draft' && txn.status !== 'ready')) throw alreadyPaid();
    return txn;
  }

  /**
   * GET /subscriptions/{id}/update-payment-method-transaction: the latest past-due transaction when the
   * subscription is past due, else a new zero-amount one (origin subscription_payment_method_change).
   */
  paymentMethodTransaction(id: string, checkoutUrl: (txnId: string) => string): PaddleTransaction {
    const sub = this.subscriptionRecord(id);
    if (sub.status === 'canceled') throw canceledError();
    if (sub.status === 'past_due') {
      const pastDue = [...this.transactionRecords.values()].filter((t) => t.subscription_id === sub.id && t.status === 'past_due').pop();
      if (pastDue) {
        const url = checkoutUrl(pastDue.id);
        if (pastDue.checkout.url !== url) {
          pastDue.checkout.url = url;
          this.changed();
        }
        return structuredClone(pastDue);
      }
    }
    const txn = this.addTransaction({
      status: 'ready',
      origin: 'subscription_payment_method_change',
      sub,
      customData: sub.customData,
      lines: sub.items.map((i) => ({ price: this.catalog.get(i.priceId)!, quantity: i.quantity, total: 0, proration: null })),
      period: null,
    });
    txn.checkout.url = checkoutUrl(txn.id);
    this.changed();
    return structuredClone(txn);
  }
}

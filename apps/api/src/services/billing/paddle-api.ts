import { LogLevel, Paddle, ApiError as PaddleError } from '@paddle/paddle-node-sdk';
import { ApiHttpError } from '../../lib/errors';
import { minorToMajor } from './money';
import { paddleSubscriptionState } from './paddle';
import type { PriceBook } from './subscriptions';
import type { ChangePreview, Invoice, ProviderClient, SubscriptionState } from './types';

interface PaddleApiOptions {
  /** The API key (server side only; never logged, never sent to the browser). Null: Paddle is not configured. */
  apiKey: string | null;
  /** Paddle's API origin: production, sandbox, or in demo mode the built-in stand-in. */
  apiBase: string;
}

/**
 * The Paddle API calls billing makes, through Paddle's official SDK (its base URL set to the
 * configured one). Paddle's refusals become 400 code 1001 with Paddle's own explanation; no answer
 * (network, 5xx) becomes 502 code 1024. Results show on the pages once the webhook confirms them.
 */
export class PaddleApi implements ProviderClient {
  readonly provider = 'paddle' as const;
  readonly #client: Paddle | null;

  constructor(options: PaddleApiOptions) {
    // The SDK takes an unknown environment as its base URL; its logger is off (it would print requests).
    this.#client = options.apiKey ? new Paddle(options.apiKey, { environment: options.apiBase as never, logLevel: LogLevel.none }) : null;
  }

  get configured(): boolean {
    return this.#client !== null;
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await this.#call((p) => p.subscriptions.cancel(subscriptionId, { effectiveFrom: 'next_billing_period' }));
  }

  async resume(subscriptionId: string): Promise<void> {
    await this.#call((p) => p.subscriptions.update(subscriptionId, { scheduledChange: null }));
  }

  /**
   * A transaction for a checkout of one catalogue price (origin `api`), made here for the signed-in
   * user: Paddle.js opens it by its id, and the subscription paying it makes names it in
   * `subscription.created` (`transaction_id`), which is how its buyer is known. Its custom data names
   * the user for Paddle's dashboard only (the browser may change a checkout's custom data).
   */
  async createCheckoutTransaction(priceId: string, userId: string): Promise<string> {
    const txn = await this.#call((p) => p.transactions.create({ items: [{ priceId, quantity: 1 }], customData: { userId } }));
    return txn.id;
  }

  /** The transaction (and its checkout address) that updates the card of a subscription. */
  async paymentMethodTransaction(subscriptionId: string): Promise<{ transactionId: string; url: string | null }> {
    const txn = await this.#call((p) => p.subscriptions.getPaymentMethodChangeTransaction(subscriptionId));
    return { transactionId: txn.id, url: txn.checkout?.url ?? null };
  }

  /** A fresh, short-lived portal address for the customer (made per click, never kept). */
  async portal(customerId: string, subscriptionId: string): Promise<string> {
    const session = await this.#call((p) => p.customerPortalSessions.create(customerId, [subscriptionId]));
    return session.urls.general.overview;
  }

  /** What moving to `priceId` would cost now and next, by Paddle's proration (charged at once). */
  async previewChange(subscriptionId: string, priceId: string): Promise<ChangePreview> {
    const preview = await this.#call((p) => p.subscriptions.previewUpdate(subscriptionId, { items: [{ priceId, quantity: 1 }], prorationBillingMode: 'prorated_immediately' }));
    const currency = preview.currencyCode;
    const result = preview.updateSummary?.result;
    const next = preview.nextTransaction;
    return {
      dueNow: { amount: result ? (result.action === 'credit' ? -1 : 1) * minorToMajor(result.amount, currency) : 0, currency },
      nextCharge: next ? { amount: minorToMajor(next.details.totals.grandTotal ?? next.details.totals.total, currency), currency, at: next.billingPeriod.startsAt } : null,
    };
  }

  async changePlan(subscriptionId: string, priceId: string): Promise<void> {
    await this.#call((p) => p.subscriptions.update(subscriptionId, { items: [{ priceId, quantity: 1 }], prorationBillingMode: 'prorated_immediately' }));
  }

  /** The subscription's invoiced transactions (Paddle's receipts), newest first: the latest 30 (Paddle's page). */
  async invoices(subscriptionId: string): Promise<Invoice[]> {
    const collection = await this.#call(async (p) => p.transactions.list({ subscriptionId: [subscriptionId], status: ['completed'], perPage: 30 }));
    const page = await this.#call(() => collection.next());
    // A card update's zero-amount transaction has no invoice.
    return page.filter((t) => t.invoiceNumber).map((t) => ({
      id: t.id,
      number: t.invoiceNumber,
      date: t.billedAt ?? t.createdAt,
      total: { amount: minorToMajor(t.details?.totals?.grandTotal ?? t.details?.totals?.total ?? '0', t.currencyCode), currency: t.currencyCode },
      status: t.status,
    }));
  }

  async invoiceUrl(subscriptionId: string, invoiceId: string): Promise<string> {
    const txn = await this.#call((p) => p.transactions.get(invoiceId));
    if (txn.subscriptionId !== subscriptionId) throw new ApiHttpError('NOT_FOUND', { message: 'This subscription has no such invoice.' });
    return (await this.#call((p) => p.transactions.getInvoicePDF(invoiceId))).url;
  }

  async *allSubscriptions(prices: PriceBook): AsyncGenerator<Array<SubscriptionState | { id: string; error: Error }>> {
    for await (const page of this.allSubscriptionData()) {
      yield page.map((data) => {
        try {
          return paddleSubscriptionState(data, prices);
        } catch (error) {
          return { id: String(data.id), error: error instanceof Error ? error : new Error(String(error)) };
        }
      });
    }
  }

  /**
   * Every subscription Paddle has, as its webhooks describe them (snake_case `data`), page by page
   * (Paddle's default page size): what reconciliation compares with the stored ones.
   */
  async *allSubscriptionData(): AsyncGenerator<Record<string, unknown>[]> {
    const collection = await this.#call(async (p) => p.subscriptions.list({ perPage: 200 }));
    while (collection.hasMore) {
      const page = await this.#call(() => collection.next());
      if (page.length === 0) break;
      // Paddle's subscriptions do not name the transaction that made them (only subscription.created
      // does): the transactions the API created (origin api) of this page's subscriptions say it.
      const made = await this.#apiTransactions(page.map((s) => s.id));
      yield page.map((subscription) => ({
        transaction_id: made.get(subscription.id) ?? null,
        id: subscription.id,
        status: subscription.status,
        customer_id: subscription.customerId,
        updated_at: subscription.updatedAt,
        current_billing_period: subscription.currentBillingPeriod ? { starts_at: subscription.currentBillingPeriod.startsAt, ends_at: subscription.currentBillingPeriod.endsAt } : null,
        scheduled_change: subscription.scheduledChange ? { action: subscription.scheduledChange.action, effective_at: subscription.scheduledChange.effectiveAt } : null,
        items: subscription.items.map((i) => ({ quantity: i.quantity, price: { id: i.price.id } })),
        custom_data: subscription.customData ?? null,
      }));
    }
  }

  /** Subscription id → the transaction of origin `api` that made it (the earliest), for the given subscriptions. */
  async #apiTransactions(subscriptionIds: string[]): Promise<Map<string, string>> {
    const made = new Map<string, { id: string; at: string }>();
    for (let i = 0; i < subscriptionIds.length; i += 50) {
      const ids = subscriptionIds.slice(i, i + 50);
      const collection = await this.#call(async (p) => p.transactions.list({ subscriptionId: ids, origin: ['api'], perPage: 30 }));
      while (collection.hasMore) {
        const page = await this.#call(() => collection.next());
        if (page.length === 0) break;
        for (const t of page) {
          if (!t.subscriptionId) continue;
          const known = made.get(t.subscriptionId);
          if (!known || t.createdAt < known.at) made.set(t.subscriptionId, { id: t.id, at: t.createdAt });
        }
      }
    }
    return new Map([...made].map(([sub, t]) => [sub, t.id]));
  }

  async #call<T>(work: (client: Paddle) => Promise<T>): Promise<T> {
    if (!this.#client) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { message: 'Paddle is not configured on this server (PADDLE_API_KEY).' });
    try {
      return await work(this.#client);
    } catch (error) {
      if (error instanceof PaddleError && error.code) {
        if (/^(not_found|entity_not_found)/.test(error.code) || error.type === 'request_error') {
          throw new ApiHttpError('VALIDATION_FAILED', { message: `Paddle refused: ${error.detail || error.code}` });
        }
      }
      throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: error });
    }
  }
}

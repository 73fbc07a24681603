import { ApiError as PaddleError, LogLevel, Paddle } from '@paddle/paddle-node-sdk';
import { ApiHttpError } from '../../lib/errors';

export interface PaddleApiOptions {
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
export class PaddleApi {
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

  /**
   * Every subscription Paddle has, as its webhooks describe them (snake_case `data`), page by page
   * (Paddle's default page size): what reconciliation compares with the stored ones.
   */
  async *allSubscriptions(): AsyncGenerator<Record<string, unknown>[]> {
    const collection = await this.#call(async (p) => p.subscriptions.list({ perPage: 200 }));
    while (collection.hasMore) {
      const page = await this.#call(() => collection.next());
      if (page.length === 0) break;
      yield page.map((s) => ({
        id: s.id,
        status: s.status,
        customer_id: s.customerId,
        updated_at: s.updatedAt,
        current_billing_period: s.currentBillingPeriod ? { starts_at: s.currentBillingPeriod.startsAt, ends_at: s.currentBillingPeriod.endsAt } : null,
        scheduled_change: s.scheduledChange ? { action: s.scheduledChange.action, effective_at: s.scheduledChange.effectiveAt } : null,
        items: s.items.map((i) => ({ quantity: i.quantity, price: { id: i.price.id } })),
        custom_data: s.customData ?? null,
      }));
    }
  }

  async #call<T>(work: (p: Paddle) => Promise<T>): Promise<T> {
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

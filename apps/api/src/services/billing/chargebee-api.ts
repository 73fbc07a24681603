import Chargebee from 'chargebee';
import { ApiHttpError } from '../../lib/errors';
import { chargebeeSubscriptionState } from './chargebee';
import { minorToMajor } from './money';
import type { PriceBook } from './subscriptions';
import type { ChangePreview, Invoice, ProviderClient, SubscriptionState } from './types';

interface ChargebeeApiOptions {
  site: string | null;
  /** The API key (server side only, never logged). Null: not configured. */
  apiKey: string | null;
  /** Where the API is (`https://<site>.chargebee.com/api/v2`, or in demo mode the built-in stand-in's). */
  apiBase: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Where the portal's "sign out and return" leads (the dashboard's billing page). */
  portalReturnUrl?: string;
}

/** Chargebee's error as the SDK throws it (its `ChargebeeError`). */
interface SdkError {
  http_status_code?: number;
  api_error_code?: string;
  message?: string;
}

/**
 * The Chargebee calls billing makes, through Chargebee's official SDK. The SDK builds addresses
 * from a site name (`https://<site>.chargebee.com/api/v2/...`); its HTTP client here sends each
 * request to the configured API address instead (the same path under it), so production, a test
 * site and the demo's stand-in differ only by CHARGEBEE_API_URL. Refusals become 400 code 1001 with
 * Chargebee's words; no answer becomes 502 code 1024.
 */
export class ChargebeeApi implements ProviderClient {
  readonly provider = 'chargebee' as const;
  readonly #client: Chargebee | null;
  readonly #portalReturnUrl: string | undefined;

  constructor(options: ChargebeeApiOptions) {
    this.#portalReturnUrl = options.portalReturnUrl;
    const send = options.fetch ?? fetch;
    const base = options.apiBase.replace(/\/+$/, '');
    this.#client =
      options.apiKey && options.site
        ? new Chargebee({
            site: options.site,
            apiKey: options.apiKey,
            timeout: options.timeoutMs ?? 15_000,
            sdkTelemetryEnabled: false,
            httpClient: {
              async makeApiRequest(request: Request, timeout: number): Promise<Response> {
                const url = new URL(request.url);
                const path = url.pathname.replace(/^\/api\/v2/, '');
                const body = request.method === 'GET' ? undefined : await request.text();
                return send(`${base}${path}${url.search}`, {
                  method: request.method,
                  headers: request.headers,
                  ...(body !== undefined ? { body } : {}),
                  redirect: 'error',
                  signal: AbortSignal.timeout(timeout),
                });
              },
            },
          })
        : null;
  }

  get configured(): boolean {
    return this.#client !== null;
  }

  /** A hosted checkout page for the price, as the given customer (linked to the user before). */
  async checkout(priceId: string, customerId: string, redirectUrl: string, cancelUrl: string): Promise<{ id: string; url: string }> {
    const { hosted_page } = await this.#call((cb) =>
      cb.hostedPage.checkoutNewForItems({
        subscription_items: [{ item_price_id: priceId, quantity: 1 }],
        customer: { id: customerId },
        redirect_url: redirectUrl,
        cancel_url: cancelUrl,
      }),
    );
    if (!hosted_page.id || !hosted_page.url) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: new Error('Chargebee gave no hosted page address') });
    return { id: hosted_page.id, url: hosted_page.url };
  }

  /** A hosted page's state and, once paid, its subscription and customer. */
  async hostedPage(id: string): Promise<{ state: string; subscriptionId: string | null; customerId: string | null }> {
    const { hosted_page } = await this.#call((cb) => cb.hostedPage.retrieve(id));
    if (!hosted_page?.id) throw new ApiHttpError('NOT_FOUND', { message: 'Chargebee has no such checkout.' });
    const content = (hosted_page.content ?? {}) as { subscription?: { id?: string }; customer?: { id?: string } };
    return { state: hosted_page.state ?? 'created', subscriptionId: content.subscription?.id ?? null, customerId: content.customer?.id ?? null };
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await this.#call((cb) => cb.subscription.cancelForItems(subscriptionId, { end_of_term: true }));
  }

  async resume(subscriptionId: string): Promise<void> {
    await this.#call((cb) => cb.subscription.removeScheduledCancellation(subscriptionId, {}));
  }

  async previewChange(subscriptionId: string, priceId: string): Promise<ChangePreview> {
    const { estimate } = await this.#call((cb) =>
      cb.estimate.updateSubscriptionForItems({
        subscription: { id: subscriptionId },
        subscription_items: [{ item_price_id: priceId, quantity: 1 }],
        replace_items_list: true,
        prorate: true,
      }),
    );
    const now = estimate.invoice_estimate;
    const next = estimate.next_invoice_estimate;
    const currency = now?.currency_code ?? next?.currency_code ?? 'USD';
    // The credit for the unused time is applied to the charge first (already in the invoice's
    // credits_applied and amount_due): only what is left of it (amount_available) is credited now.
    const credits = (estimate.credit_note_estimates ?? []).reduce((sum, c) => sum + (c.amount_available ?? (c.total ?? 0) - (c.amount_allocated ?? 0)), 0);
    const nextAt = (estimate.subscription_estimate as { next_billing_at?: number } | undefined)?.next_billing_at;
    return {
      dueNow: { amount: minorToMajor((now?.amount_due ?? now?.total ?? 0) - credits, currency), currency },
      // What the next renewal charges: its total less the credits the customer has by then.
      nextCharge: next
        ? { amount: minorToMajor(next.amount_due ?? next.total ?? 0, next.currency_code), currency: next.currency_code, at: nextAt ? new Date(nextAt * 1000).toISOString() : null }
        : null,
    };
  }

  async changePlan(subscriptionId: string, priceId: string): Promise<void> {
    await this.#call((cb) =>
      cb.subscription.updateForItems(subscriptionId, { subscription_items: [{ item_price_id: priceId, quantity: 1 }], replace_items_list: true, prorate: true }),
    );
  }

  /** A fresh, single-use portal session of the customer. */
  async portal(customerId: string): Promise<string> {
    const { portal_session } = await this.#call((cb) => cb.portalSession.create({ customer: { id: customerId }, ...(this.#portalReturnUrl ? { redirect_url: this.#portalReturnUrl } : {}) }));
    return portal_session.access_url;
  }

  async invoices(subscriptionId: string): Promise<Invoice[]> {
    const { list } = await this.#call((cb) => cb.invoice.list({ limit: 50, subscription_id: { is: subscriptionId }, 'sort_by[desc]': 'date' } as never));
    return list.map(({ invoice }) => ({
      id: invoice.id,
      date: new Date((invoice.date ?? 0) * 1000).toISOString(),
      total: { amount: minorToMajor(invoice.total ?? 0, invoice.currency_code), currency: invoice.currency_code },
      status: invoice.status,
    }));
  }

  async invoiceUrl(subscriptionId: string, invoiceId: string): Promise<string> {
    const { invoice } = await this.#call((cb) => cb.invoice.retrieve(invoiceId));
    if (invoice.subscription_id !== subscriptionId) throw new ApiHttpError('NOT_FOUND', { message: 'This subscription has no such invoice.' });
    const { download } = await this.#call((cb) => cb.invoice.pdf(invoiceId, {}));
    return download.download_url;
  }

  async *allSubscriptions(prices: PriceBook): AsyncGenerator<Array<SubscriptionState | { id: string; error: Error }>> {
    let offset: string | undefined;
    do {
      const page = await this.#call((cb) => cb.subscription.list({ limit: 100, ...(offset ? { offset } : {}) }));
      yield page.list.map(({ subscription }) => {
        try {
          return chargebeeSubscriptionState(subscription, prices);
        } catch (error) {
          return { id: subscription.id, error: error instanceof Error ? error : new Error(String(error)) };
        }
      });
      offset = page.next_offset;
    } while (offset);
  }

  async #call<T>(work: (cb: Chargebee) => Promise<T>): Promise<T> {
    if (!this.#client) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { message: 'Chargebee is not configured on this server (CHARGEBEE_SITE, CHARGEBEE_API_KEY).' });
    try {
      return await work(this.#client);
    } catch (error) {
      const sdkError = error as SdkError;
      const status = typeof sdkError?.http_status_code === 'number' ? sdkError.http_status_code : null;
      if (status === 404) throw new ApiHttpError('NOT_FOUND', { message: `Chargebee does not know it: ${sdkError.message ?? sdkError.api_error_code}` });
      if (status !== null && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
        throw new ApiHttpError('VALIDATION_FAILED', { message: `Chargebee refused: ${sdkError.message ?? sdkError.api_error_code}` });
      }
      throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: error });
    }
  }
}

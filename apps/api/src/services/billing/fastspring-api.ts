import { ApiHttpError } from '../../lib/errors';
import { fastspringSubscriptionState } from './fastspring';
import type { PriceBook } from './subscriptions';
import type { ChangePreview, Invoice, ProviderClient, SubscriptionState } from './types';

interface FastspringApiOptions {
  /** The API user and password (HTTP basic; server side only, never logged). Null: not configured. */
  username: string | null;
  password: string | null;
  /** FastSpring's API origin (`https://api.fastspring.com`), or in demo mode the built-in stand-in. */
  apiBase: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** FastSpring answers actions per subscription with a `result`; an `error` object names what failed. */
interface ActionResult {
  subscription?: string;
  result?: string;
  error?: Record<string, string>;
}

/**
 * The FastSpring API calls billing makes (FastSpring has no official Node SDK: plain `fetch` with
 * HTTP basic). Its refusals become 400 code 1001 with FastSpring's own words; no answer (network,
 * 5xx, timeout) becomes 502 code 1024 with the cause logged.
 */
export class FastspringApi implements ProviderClient {
  readonly provider = 'fastspring' as const;
  readonly #auth: string | null;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(private readonly options: FastspringApiOptions) {
    this.#auth = options.username && options.password ? `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}` : null;
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  get configured(): boolean {
    return this.#auth !== null;
  }

  /** Cancels at the next billing date (FastSpring's default; the subscription stays active until then). */
  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    const answer = await this.#call<{ subscriptions?: ActionResult[] }>('DELETE', `/subscriptions/${encodeURIComponent(subscriptionId)}`);
    this.#check(answer.subscriptions, subscriptionId);
  }

  /** Resumes a canceled subscription before its deactivation (`deactivation: null`). */
  async resume(subscriptionId: string): Promise<void> {
    const answer = await this.#call<{ subscriptions?: ActionResult[] }>('POST', '/subscriptions', { subscriptions: [{ subscription: subscriptionId, deactivation: null }] });
    this.#check(answer.subscriptions, subscriptionId);
  }

  async changePlan(subscriptionId: string, priceId: string): Promise<void> {
    const answer = await this.#call<{ subscriptions?: ActionResult[] }>('POST', '/subscriptions', {
      subscriptions: [{ subscription: subscriptionId, product: priceId, quantity: 1, prorate: true }],
    });
    this.#check(answer.subscriptions, subscriptionId);
  }

  async previewChange(subscriptionId: string, priceId: string): Promise<ChangePreview> {
    const answer = await this.#call<Record<string, unknown>>('POST', '/subscriptions/estimate', { subscription: subscriptionId, product: priceId, quantity: 1 });
    return parseEstimate(answer);
  }

  /** A pre-authenticated address of the customer's FastSpring account page (its subscriptions and orders). */
  async portal(customerId: string): Promise<string> {
    const answer = await this.#call<{ accounts?: Array<{ url?: string; result?: string }> }>('GET', `/accounts/${encodeURIComponent(customerId)}/authenticate`);
    const url = answer.accounts?.[0]?.url;
    if (!url) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: new Error('FastSpring gave no account address') });
    return `${url}#/subscriptions`;
  }

  /** The subscription's orders (FastSpring's receipts), newest first. */
  async invoices(subscriptionId: string): Promise<Invoice[]> {
    const entries = await this.#call<Array<{ order?: { id?: string; reference?: string; changed?: number; total?: number; currency?: string; completed?: boolean } }>>(
      'GET',
      `/subscriptions/${encodeURIComponent(subscriptionId)}/entries`,
    );
    return (Array.isArray(entries) ? entries : [])
      .flatMap((e) => (e.order?.id ? [e.order] : []))
      .map((order) => ({
        id: order.id!,
        date: new Date(order.changed ?? 0).toISOString(),
        total: { amount: order.total ?? 0, currency: order.currency ?? 'USD' },
        status: order.completed === false ? 'pending' : 'completed',
      }))
      .sort((a, b) => b.date.localeCompare(a.date));
  }

  async invoiceUrl(subscriptionId: string, invoiceId: string): Promise<string> {
    const order = await this.#call<{ id?: string; invoiceUrl?: string; items?: Array<{ subscription?: string }> }>('GET', `/orders/${encodeURIComponent(invoiceId)}`);
    if (!order.invoiceUrl || !(order.items ?? []).some((i) => i.subscription === subscriptionId)) throw new ApiHttpError('NOT_FOUND', { message: 'This subscription has no such invoice.' });
    return order.invoiceUrl;
  }

  /**
   * The subscription a checkout's order made (its first subscription item), or null when FastSpring
   * has no such order or it made none: finds a purchase whose webhook never came (reconciliation
   * stored it) from the order id the popup reports.
   */
  async orderSubscription(orderId: string): Promise<string | null> {
    try {
      const order = await this.#call<{ items?: Array<{ subscription?: unknown }> }>('GET', `/orders/${encodeURIComponent(orderId)}`);
      const item = (order.items ?? []).find((i) => typeof i.subscription === 'string' && i.subscription !== '');
      return item ? (item.subscription as string) : null;
    } catch (error) {
      if (error instanceof ApiHttpError && error.errorName === 'NOT_FOUND') return null;
      throw error;
    }
  }

  async *allSubscriptions(prices: PriceBook): AsyncGenerator<Array<SubscriptionState | { id: string; error: Error }>> {
    for (let page = 1; ; page++) {
      const list = await this.#call<{ subscriptions?: string[]; nextPage?: number | null }>('GET', `/subscriptions?page=${page}&limit=50`);
      const ids = list.subscriptions ?? [];
      if (ids.length === 0) return;
      const details = await this.#call<{ subscriptions?: Array<Record<string, unknown>> } & Record<string, unknown>>('GET', `/subscriptions/${ids.map(encodeURIComponent).join(',')}`);
      const subs = details.subscriptions ?? [details];
      yield subs.map((data) => {
        try {
          return fastspringSubscriptionState(data, prices);
        } catch (error) {
          // FastSpring answers an id it could not read as `{subscription, result: "error", error}` (no `id`).
          return { id: String(data.id ?? data.subscription ?? 'unknown'), error: error instanceof Error ? error : new Error(String(error)) };
        }
      });
      if (!list.nextPage) return;
    }
  }

  #check(results: ActionResult[] | undefined, subscriptionId: string): void {
    const mine = results?.find((r) => r.subscription === subscriptionId) ?? results?.[0];
    if (mine?.result === 'success') return;
    const why = mine?.error ? Object.values(mine.error).join('; ') : 'no result';
    throw new ApiHttpError('VALIDATION_FAILED', { message: `FastSpring refused: ${why}` });
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.#auth) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { message: 'FastSpring is not configured on this server (FASTSPRING_API_USERNAME, FASTSPRING_API_PASSWORD).' });
    let res: Response;
    try {
      res = await this.#fetch(`${this.options.apiBase}${path}`, {
        method,
        headers: { authorization: this.#auth, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), 'user-agent': 'Tickety-Dashboard' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: error });
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
      throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: new Error(`FastSpring ${method} ${path.split('?')[0]}: HTTP ${res.status}`) });
    }
    if (res.status >= 400) {
      const why = json && typeof json === 'object' ? JSON.stringify((json as { error?: unknown }).error ?? json).slice(0, 300) : `HTTP ${res.status}`;
      if (res.status === 404) throw new ApiHttpError('NOT_FOUND', { message: `FastSpring does not know it: ${why}` });
      throw new ApiHttpError('VALIDATION_FAILED', { message: `FastSpring refused: ${why}` });
    }
    return json as T;
  }
}

/**
 * FastSpring's proration estimate in the model's terms: `amountDue.prorationSubtotal` is what the
 * change costs now (negative: a credit), `nextChargeAmount` at `nextChargeDate` the next regular charge.
 */
function parseEstimate(answer: Record<string, unknown>): ChangePreview {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const currency = typeof answer.currency === 'string' ? answer.currency : null;
  const due = (answer.amountDue ?? {}) as Record<string, unknown>;
  const now = num(due.prorationSubtotal) ?? num(due.totalAmountDue);
  if (currency === null || now === null) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { cause: new Error('FastSpring answered an estimate without its amounts') });
  const next = num(due.nextChargeAmount);
  const at = num(due.nextChargeDate) ?? num(answer.nextChargeDate);
  return {
    dueNow: { amount: now, currency },
    nextCharge: next === null ? null : { amount: next, currency, at: at === null ? null : new Date(at).toISOString() },
  };
}

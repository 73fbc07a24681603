import type { BillingProvider, CheckoutStatus, Plan } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import { ApiHttpError } from '../../lib/errors';
import type { BillingAccounts } from './accounts';
import type { WebhookInbox } from './inbox';
import { causeOf } from './reconcile';
import type { BillingClients } from './types';

/** How long a provider's settled answer about a checkout is reused. */
const CHECKOUT_LOOKUP_TTL_MS = 60_000;
const SETTLED_MAX = 10_000;

/** The plan and interval a provider's price id sells, or null when the catalogue has no such price. */
export function priceOf(plans: Plan[], provider: BillingProvider, priceId: string) {
  for (const plan of plans) for (const price of plan.providerPrices) if (price.provider === provider && price.id === priceId) return { plan, interval: price.interval };
  return null;
}

/**
 * Where a purchase stands after a provider's checkout: "activating" until its webhook has been
 * applied. Provider answers that can no longer change (a paid hosted page, the subscription an order
 * made) are kept a minute, so the page's polling (every 1.5 s) asks the provider once.
 */
export class CheckoutStatuses {
  readonly #settled = new Map<string, { at: number; value: unknown }>();

  constructor(
    private readonly accounts: BillingAccounts,
    private readonly clients: BillingClients,
    private readonly inbox: WebhookInbox,
    private readonly plans: Plan[],
  ) {}

  async status(userId: string, provider: BillingProvider, reference: string, log: FastifyBaseLogger): Promise<CheckoutStatus> {
    const notYours = () => new ApiHttpError('NOT_FOUND', { message: 'This purchase is not yours.' });
    let subject: string | null = null;
    if (provider === 'paddle') {
      // Only a checkout this server made for this user (another user's, or one it did not make: 404).
      if ((await this.accounts.checkoutUser('paddle', reference)) !== userId) throw notYours();
      subject = await this.inbox.checkoutSubject('paddle', reference);
    } else if (provider === 'fastspring') {
      subject = await this.inbox.checkoutSubject('fastspring', reference);
      // Its activation never came (reconciliation stored the subscription): FastSpring says which it is.
      // Best effort: FastSpring not answering leaves the purchase "activating" (its webhook still comes).
      subject ??= await this.#settledLookup(`fastspring:${reference}`, () => this.clients.fastspring.orderSubscription(reference), (id) => id !== null).catch((error: unknown) => {
        log.warn({ err: error instanceof Error ? error.message : String(error), cause: causeOf(error) }, 'fastspring: the order could not be read for a checkout status');
        return null;
      });
    } else if (provider === 'chargebee') {
      const page = await this.#settledLookup(`chargebee:${reference}`, () => this.clients.chargebee.hostedPage(reference), (found) => found.state === 'succeeded');
      if (page.customerId && !(await this.accounts.isLinked('chargebee', page.customerId, userId))) throw notYours();
      if (page.state === 'cancelled' || page.state === 'failed') {
        throw new ApiHttpError('NOT_FOUND', { message: `This Chargebee checkout was ${page.state === 'failed' ? 'not paid' : 'cancelled'}: nothing was charged. Start a new one from the plans.` });
      }
      subject = page.state === 'succeeded' ? page.subscriptionId : null;
    } else {
      const planId = priceOf(this.plans, 'discord', reference)?.plan.id;
      const mine = (await this.accounts.list(userId)).find((s) => s.provider === 'discord' && s.premium && planId === s.planId);
      subject = mine?.id ?? null;
    }
    const subscription = subject ? await this.accounts.find(provider, subject) : null;
    if (subscription && subscription.userId !== userId) throw notYours();
    return { state: subscription?.premium ? 'active' : 'activating', subscription };
  }

  async #settledLookup<T>(key: string, ask: () => Promise<T>, isSettled: (value: T) => boolean): Promise<T> {
    const now = Date.now();
    const hit = this.#settled.get(key);
    if (hit && now - hit.at < CHECKOUT_LOOKUP_TTL_MS) return hit.value as T;
    const value = await ask();
    if (isSettled(value)) {
      if (this.#settled.size >= SETTLED_MAX) this.#settled.clear();
      this.#settled.set(key, { at: now, value });
    }
    return value;
  }
}

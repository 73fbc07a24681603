import type { LightMyRequestResponse } from 'fastify';
import { DAY, harnessPerTest, manualClock, mountStandIn, type ReceivedPost, START, type StandInHarness, testDelivery, until, WebhookReceiver } from '../../kit/testing/harness';
import { type ChargebeeSandboxControl, createChargebeeSandboxControl } from './control';
import type { ChargebeeItemPriceOption } from './engine';
import { type ChargebeeSandboxOptions, chargebeeSandbox } from './plugin';

export { DAY, START, until };

export const PREFIX = '/sandbox/chargebee';
const SITE = 'tickety-test';
export const API_KEY = 'test_cbKey123';
const WEBHOOK_USER = 'cb_user';
const WEBHOOK_PASS = 'cb_pass';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/chargebee';
const ITEM_PRICES: ChargebeeItemPriceOption[] = [
  { id: 'premium-USD-monthly', itemId: 'premium', name: 'Premium Monthly', price: 500, currencyCode: 'USD', periodUnit: 'month', period: 1 },
  { id: 'premium-USD-yearly', itemId: 'premium', name: 'Premium Yearly', price: 5000, currencyCode: 'USD', periodUnit: 'year', period: 1 },
  { id: 'pro-USD-monthly', itemId: 'pro', name: 'Pro Monthly', price: 1000, currencyCode: 'USD', periodUnit: 'month', period: 1 },
  { id: 'premium-EUR-monthly', itemId: 'premium', name: 'Premium Monthly (EUR)', price: 500, currencyCode: 'EUR', periodUnit: 'month', period: 1 },
];
export const USER_ID = '123456789012345678';

export interface Received extends ReceivedPost {
  authorization: string;
  // biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
  body: any;
}

/** A fake webhook endpoint, given to the plugin as its `fetch`. */
export class Receiver extends WebhookReceiver<Received> {
  constructor() {
    super({
      url: WEBHOOK_URL,
      answer: 200,
      read: (post, headers) => ({ ...post, authorization: headers.get('authorization') ?? '', body: JSON.parse(post.raw) }),
    });
  }

  types(): string[] {
    return this.got.map((r) => r.body.event_type);
  }
}

export interface Harness extends StandInHarness<ChargebeeSandboxControl, Receiver> {
  /** An API call as the SDK makes it: form body with bracket keys (POST) or query (GET), Basic auth. */
  api(method: 'GET' | 'POST', path: string, params?: Record<string, string>, key?: string | null): Promise<LightMyRequestResponse>;
  /** A whole checkout through the hosted page (default test card): the hosted page id and subscription id. */
  buy(options?: { itemPriceId?: string; customerId?: string; email?: string; quantity?: number }): Promise<{ hostedPageId: string; subscriptionId: string; customerId: string }>;
  /** GET a page (path after the prefix, or an absolute URL of the stand-in). */
  get(url: string, cookie?: string): Promise<LightMyRequestResponse>;
  post(url: string, form?: Record<string, string>, cookie?: string): Promise<LightMyRequestResponse>;
}

export function basic(user: string, pass = ''): string {
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
}

function pathOfUrl(url: string): string {
  if (url.startsWith('http')) {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  }
  return url.startsWith(PREFIX) ? url : `${PREFIX}${url}`;
}

export async function harness(options: Partial<ChargebeeSandboxOptions> = {}): Promise<Harness> {
  const clock = manualClock(START);
  const receiver = new Receiver();
  const control = options.control ?? createChargebeeSandboxControl();
  const base = await mountStandIn(chargebeeSandbox, {
    prefix: PREFIX,
    site: SITE,
    apiKey: API_KEY,
    webhookUsername: WEBHOOK_USER,
    webhookPassword: WEBHOOK_PASS,
    webhookUrl: WEBHOOK_URL,
    itemPrices: ITEM_PRICES,
    baseUrl: `http://localhost:3000${PREFIX}`,
    ...testDelivery(clock, receiver),
    ...options,
    control,
  }, { control, receiver, clock });
  const { app } = base;
  const api: Harness['api'] = (method, path, params = {}, key = API_KEY) => {
    const headers: Record<string, string> = key === null ? {} : { authorization: basic(key) };
    const query = new URLSearchParams(params).toString();
    if (method === 'GET') return app.inject({ method, url: `${PREFIX}/api/v2${path}?${query}`, headers });
    return app.inject({ method, url: `${PREFIX}/api/v2${path}`, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, payload: query });
  };
  const get: Harness['get'] = (url, cookie) => app.inject({ method: 'GET', url: pathOfUrl(url), headers: cookie ? { cookie } : {} });
  const post: Harness['post'] = (url, form = {}, cookie) =>
    app.inject({
      method: 'POST',
      url: pathOfUrl(url),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams(form).toString(),
    });
  const buy: Harness['buy'] = async (item = {}) => {
    const created = await api('POST', '/hosted_pages/checkout_new_for_items', {
      'subscription_items[item_price_id][0]': item.itemPriceId ?? 'premium-USD-monthly',
      'subscription_items[quantity][0]': String(item.quantity ?? 1),
      'customer[id]': item.customerId ?? USER_ID,
      'customer[email]': item.email ?? 'ava@example.com',
      redirect_url: 'http://localhost:5173/billing/done',
      cancel_url: 'http://localhost:5173/billing',
    });
    if (created.statusCode !== 200) throw new Error(`checkout_new_for_items: ${created.statusCode} ${created.body}`);
    const hp = created.json().hosted_page;
    const opened = await get(hp.url);
    if (opened.statusCode !== 200) throw new Error(`hosted page: ${opened.statusCode} ${opened.body.slice(0, 500)}`);
    const paid = await post(`${hp.url}pay`, { email: item.email ?? 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123' });
    if (paid.statusCode !== 303) throw new Error(`pay: ${paid.statusCode} ${paid.body.slice(0, 800)}`);
    const done = (await api('GET', `/hosted_pages/${hp.id}`)).json().hosted_page;
    return { hostedPageId: hp.id, subscriptionId: done.content.subscription.id, customerId: done.content.customer.id };
  };
  return { ...base, api, buy, get, post };
}

/** One harness per test, closed after it. */
export function useHarness(): (...args: Parameters<typeof harness>) => Promise<Harness> {
  return harnessPerTest(harness);
}

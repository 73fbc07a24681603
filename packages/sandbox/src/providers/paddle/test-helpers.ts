import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { DAY, harnessPerTest, hiddenInput, jsonApi, manualClock, mountStandIn, pageEventOf, type ReceivedPost, START, type StandInHarness, testDelivery, until, WebhookReceiver } from '../../kit/testing/harness';
import { createPaddleSandboxControl, type PaddleSandboxControl } from './control';
import type { PaddlePriceOption } from './engine';
import { type PaddleSandboxOptions, paddleSandbox } from './plugin';

export { DAY, START, until };

export const PREFIX = '/sandbox/paddle';
export const API_KEY = 'pdl_sdbx_apikey_01htest';
export const CLIENT_TOKEN = 'test_5a1d7b8c9e0f';
export const SECRET = 'pdl_ntfset_01htestsecret';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/paddle';
const PRICES: PaddlePriceOption[] = [
  { id: 'pri_premium_month', productName: 'Premium', amount: 4.99, currency: 'USD', interval: 'month' },
  { id: 'pri_premium_year', productName: 'Premium', amount: 49.9, currency: 'USD', interval: 'year' },
  { id: 'pri_pro_month', productName: 'Pro', amount: 9.99, currency: 'USD', interval: 'month' },
  { id: 'pri_eur_month', productName: 'Premium EU', amount: 4.99, currency: 'EUR', interval: 'month' },
];
/** A Discord-style user id, as the dashboard passes it in custom_data. */
export const USER_ID = '123456789012345678';

export interface Envelope {
  event_id: string;
  event_type: string;
  occurred_at: string;
  notification_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
  data: any;
}

export interface Received extends ReceivedPost {
  signature: string;
  body: Envelope;
  /** The sandbox clock when it arrived. */
  clockAt: number;
}

/** A fake webhook endpoint, given to the plugin as its `fetch`. */
export class Receiver extends WebhookReceiver<Received> {
  constructor(clock: () => number) {
    super({
      url: WEBHOOK_URL,
      answer: 200,
      read: (post, headers) => ({ ...post, signature: headers.get('paddle-signature') ?? '', body: JSON.parse(post.raw) as Envelope, clockAt: clock() }),
    });
  }

  types(): string[] {
    return this.got.map((r) => r.body.event_type);
  }

  /** The delivered notifications of one event type. */
  of(type: string): Envelope[] {
    return this.got.filter((r) => r.body.event_type === type).map((r) => r.body);
  }
}

/** Verifies a Paddle-Signature the way the API does (every h1, exact bytes). */
export function signatureValid(raw: string, header: string, secret = SECRET): { ok: boolean; ts: number } {
  const parts = Object.fromEntries(header.split(';').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const ts = Number(parts.ts);
  const expected = createHmac('sha256', secret).update(`${parts.ts}:${raw}`).digest();
  const h1 = Buffer.from(parts.h1 ?? '', 'hex');
  return { ok: h1.length === expected.length && timingSafeEqual(h1, expected), ts };
}

export interface PaddleHarness extends StandInHarness<PaddleSandboxControl, Receiver> {
  api(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, key?: string | null): Promise<LightMyRequestResponse>;
  /** Opens a checkout page (GET /checkout with the query) and returns the page. */
  openCheckout(query: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Submits the card form of a checkout page; fields override the pre-filled values. */
  pay(pageHtml: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A whole purchase with the default test card: returns the subscription id and the success page. */
  buy(options?: { priceId?: string; quantity?: number; email?: string; customData?: Record<string, unknown>; card?: string }): Promise<{ subscriptionId: string; transactionId: string; customerId: string; page: LightMyRequestResponse }>;
}

const hiddenCheckoutId = (html: string) => hiddenInput(html, 'checkout', 'chk_[0-9a-z]+', 'checkout id');

/** The JSON data block the checkout page posts to Paddle.js. */
export const pageEvent = (html: string) => pageEventOf(html, 'paddle-event');

export async function paddleHarness(options: Partial<PaddleSandboxOptions> = {}): Promise<PaddleHarness> {
  const clock = manualClock(START);
  const receiver = new Receiver(clock.now);
  const control = options.control ?? createPaddleSandboxControl();
  const base = await mountStandIn(paddleSandbox, {
    prefix: PREFIX,
    apiKey: API_KEY,
    clientToken: CLIENT_TOKEN,
    webhookUrl: WEBHOOK_URL,
    webhookSecret: SECRET,
    prices: PRICES,
    ...testDelivery(clock, receiver),
    ...options,
    control,
  }, { control, receiver, clock });
  const { app } = base;
  const api: PaddleHarness['api'] = jsonApi(app, PREFIX, (key) => `Bearer ${key}`, API_KEY);
  const openCheckout: PaddleHarness['openCheckout'] = (query) => app.inject({ method: 'GET', url: `${PREFIX}/checkout?${new URLSearchParams(query)}` });
  const pay: PaddleHarness['pay'] = (html, fields = {}) => {
    const form = new URLSearchParams({ checkout: hiddenCheckoutId(html), card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123', ...fields });
    return app.inject({ method: 'POST', url: `${PREFIX}/checkout`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
  };
  const buy: PaddleHarness['buy'] = async (item = {}) => {
    const page = await openCheckout({
      items: JSON.stringify([{ priceId: item.priceId ?? 'pri_premium_month', quantity: item.quantity ?? 1 }]),
      custom_data: JSON.stringify(item.customData ?? { userId: USER_ID, guildId: '987654321098765432' }),
      token: CLIENT_TOKEN,
    });
    if (page.statusCode !== 200) throw new Error(`checkout did not open: ${page.statusCode} ${page.body.slice(0, 500)}`);
    const done = await pay(page.body, { email: item.email ?? 'ava@example.com', ...(item.card ? { card_number: item.card } : {}) });
    const event = pageEvent(done.body);
    if (done.statusCode !== 200 || event?.name !== 'checkout.completed') throw new Error(`checkout failed: ${done.statusCode} ${done.body.slice(0, 800)}`);
    return { subscriptionId: event.data.subscription_id, transactionId: event.data.transaction_id, customerId: event.data.customer.id, page: done };
  };
  return { ...base, api, openCheckout, pay, buy };
}

/**
 * A test file's harness: `setup(...)` builds one (as `paddleHarness`), and it is closed after each
 * test (a test may close it itself first).
 */
export function usePaddleHarness(): (...args: Parameters<typeof paddleHarness>) => Promise<PaddleHarness> {
  return harnessPerTest(paddleHarness);
}

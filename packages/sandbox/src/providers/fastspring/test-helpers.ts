import { createHmac, generateKeyPairSync, timingSafeEqual } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { DAY, harnessPerTest, hiddenInput, jsonApi, manualClock, mountStandIn, pageEventOf, type ReceivedPost, START, type StandInHarness, testDelivery, until, WebhookReceiver } from '../../kit/testing/harness';
import { createFastspringSandboxControl, type FastspringSandboxControl } from './control';
import { type FastspringSandboxOptions, fastspringSandbox } from './plugin';
import type { FastspringProductOption } from './types';

export { DAY, START, until };

export const PREFIX = '/sandbox/fastspring';
export const API_USER = 'fs_api_user';
const API_PASS = 'fs_api_pass_9d2k';
export const SECRET = 'fs_hmac_secret_test';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/fastspring';
export const STOREFRONT = 'tickety.test.onfastspring.com/popup-tickety';
export const PRODUCTS: FastspringProductOption[] = [
  { path: 'tickety-premium-monthly', display: 'Tickety Premium (monthly)', price: 4.99, currency: 'USD', intervalUnit: 'month', intervalLength: 1 },
  { path: 'tickety-premium-yearly', display: 'Tickety Premium (yearly)', price: 49.9, currency: 'USD', intervalUnit: 'year', intervalLength: 1 },
  { path: 'tickety-pro-monthly', display: 'Tickety Pro (monthly)', price: 9.99, currency: 'USD', intervalUnit: 'month', intervalLength: 1 },
  { path: 'tickety-premium-eur', display: 'Tickety Premium (EUR)', price: 4.99, currency: 'EUR', intervalUnit: 'month', intervalLength: 1 },
];
export const TAGS = { guildId: '987654321098765432', userId: '123456789012345678' };
/** The store's key pair for secure payloads (its public key is the plugin's `securePayloadPublicKey`). */
export const STORE_KEYS = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
/** The plugin's required options, as the harness registers it (and the store's public key). */
export const OPTIONS = {
  prefix: PREFIX,
  apiUsername: API_USER,
  apiPassword: API_PASS,
  webhookSecret: SECRET,
  webhookUrl: WEBHOOK_URL,
  storefront: STOREFRONT,
  products: PRODUCTS,
  securePayloadPublicKey: STORE_KEYS.publicKey,
};
const BASIC = `Basic ${Buffer.from(`${API_USER}:${API_PASS}`).toString('base64')}`;

// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
export type AnyEvent = { id: string; type: string; live: boolean; processed: boolean; created: number; data: any };

export interface Received extends ReceivedPost {
  signature: string;
  events: AnyEvent[];
}

/** A fake webhook endpoint, given to the plugin as its `fetch`: it answers a status, or `{ status, body }` (a 202 lists ids). */
export class Receiver extends WebhookReceiver<Received> {
  constructor() {
    super({
      url: WEBHOOK_URL,
      answer: 200,
      read: (post, headers) => ({ ...post, signature: headers.get('x-fs-signature') ?? '', events: (JSON.parse(post.raw) as { events: AnyEvent[] }).events }),
    });
  }

  /** Every event received (duplicates included), in arrival order. */
  events(): AnyEvent[] {
    return this.got.flatMap((r) => r.events);
  }

  types(): string[] {
    return this.events().map((e) => e.type);
  }

  of(type: string): AnyEvent[] {
    return this.events().filter((e) => e.type === type);
  }
}

/** Verifies X-FS-Signature the way the API does (base64 HMAC-SHA256 of the exact bytes, timing-safe). */
export function signatureValid(raw: string, header: string, secret = SECRET): boolean {
  const expected = createHmac('sha256', secret).update(raw).digest();
  const got = Buffer.from(header, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export interface FastspringHarness extends StandInHarness<FastspringSandboxControl, Receiver> {
  api(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, auth?: string | null): Promise<LightMyRequestResponse>;
  openPopup(query: Record<string, string>): Promise<LightMyRequestResponse>;
  pay(pageHtml: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A whole purchase with the default test card. */
  buy(options?: { products?: Array<{ path: string; quantity?: number }>; email?: string; tags?: Record<string, unknown>; card?: string }): Promise<{
    orderId: string;
    reference: string;
    page: LightMyRequestResponse;
  }>;
}

const hiddenSessionId = (html: string) => hiddenInput(html, 'session', '[A-Za-z0-9_-]+', 'session id');

/** The JSON data block the popup page posts to the builder. */
export const pageEvent = (html: string) => pageEventOf(html, 'fastspring-event');

async function fastspringHarness(options: Partial<FastspringSandboxOptions> = {}): Promise<FastspringHarness> {
  const clock = manualClock(START);
  const receiver = new Receiver();
  const control = options.control ?? createFastspringSandboxControl();
  const base = await mountStandIn(fastspringSandbox, {
    ...OPTIONS,
    ...testDelivery(clock, receiver),
    ...options,
    control,
  }, { control, receiver, clock });
  const { app } = base;
  const api: FastspringHarness['api'] = jsonApi(app, PREFIX, (auth) => auth, BASIC);
  const openPopup: FastspringHarness['openPopup'] = (query) => app.inject({ method: 'GET', url: `${PREFIX}/popup?${new URLSearchParams(query)}` });
  const pay: FastspringHarness['pay'] = (html, fields = {}) => {
    const form = new URLSearchParams({ session: hiddenSessionId(html), email: 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123', ...fields });
    return app.inject({ method: 'POST', url: `${PREFIX}/popup`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
  };
  const buy: FastspringHarness['buy'] = async (item = {}) => {
    const page = await openPopup({
      storefront: STOREFRONT,
      products: JSON.stringify(item.products ?? [{ path: 'tickety-premium-monthly', quantity: 1 }]),
      tags: JSON.stringify(item.tags ?? TAGS),
      parent_origin: 'http://localhost:5173',
    });
    if (page.statusCode !== 200) throw new Error(`popup did not open: ${page.statusCode} ${page.body.slice(0, 500)}`);
    const done = await pay(page.body, { ...(item.email ? { email: item.email } : {}), ...(item.card ? { card_number: item.card } : {}) });
    const event = pageEvent(done.body);
    if (done.statusCode !== 200 || event?.name !== 'order.complete') throw new Error(`checkout failed: ${done.statusCode} ${done.body.slice(0, 800)}`);
    return { orderId: event.data.id, reference: event.data.reference, page: done };
  };
  return { ...base, api, openPopup, pay, buy };
}

/** A test file's harness: `setup(...)` builds one, closed after each test. */
export function useFastspringHarness(): (...args: Parameters<typeof fastspringHarness>) => Promise<FastspringHarness> {
  return harnessPerTest(fastspringHarness);
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { createPaddleSandboxControl, type PaddleSandboxControl } from './control';
import type { PaddlePriceOption } from './engine';
import { type PaddleSandboxOptions, paddleSandbox } from './plugin';

export const PREFIX = '/sandbox/paddle';
export const API_KEY = 'pdl_sdbx_apikey_01htest';
export const CLIENT_TOKEN = 'test_5a1d7b8c9e0f';
export const SECRET = 'pdl_ntfset_01htestsecret';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/paddle';
/** 2026-01-15T12:00:00Z: a monthly period from here ends 2026-02-15 (31 days). */
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);
export const DAY = 24 * 60 * 60 * 1000;
export const PRICES: PaddlePriceOption[] = [
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

export interface Received {
  raw: string;
  signature: string;
  contentType: string;
  body: Envelope;
  /** Real time it arrived (Date.now). */
  at: number;
  /** The sandbox clock when it arrived. */
  clockAt: number;
}

export type Respond = (r: Received, n: number) => number | 'hang' | 'throw' | Promise<number>;

/** A fake webhook endpoint, given to the plugin as its `fetch`. */
export class Receiver {
  readonly got: Received[] = [];
  calls = 0;
  respond: Respond = () => 200;

  constructor(private readonly clock: () => number) {}

  readonly fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url) !== WEBHOOK_URL) throw new Error(`unexpected URL ${String(url)}`);
    const headers = new Headers(init?.headers);
    const raw = String(init?.body);
    const r: Received = {
      raw,
      signature: headers.get('paddle-signature') ?? '',
      contentType: headers.get('content-type') ?? '',
      body: JSON.parse(raw) as Envelope,
      at: Date.now(),
      clockAt: this.clock(),
    };
    this.calls++;
    const answer = await this.respond(r, this.calls);
    if (answer === 'throw') throw new TypeError('fetch failed: connection refused');
    if (answer === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    }
    this.got.push(r);
    return new Response(answer === 204 ? null : 'ok', { status: answer });
  }) as typeof fetch;

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

export interface PaddleHarness {
  app: FastifyInstance;
  control: PaddleSandboxControl;
  receiver: Receiver;
  now(): number;
  /** Moves the sandbox clock forward. */
  advance(ms: number): void;
  api(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, key?: string | null): Promise<LightMyRequestResponse>;
  /** Opens a checkout page (GET /checkout with the query) and returns the page. */
  openCheckout(query: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Submits the card form of a checkout page; fields override the pre-filled values. */
  pay(pageHtml: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A whole purchase with the default test card: returns the subscription id and the success page. */
  buy(options?: { priceId?: string; quantity?: number; email?: string; customData?: Record<string, unknown>; card?: string }): Promise<{ subscriptionId: string; transactionId: string; customerId: string; page: LightMyRequestResponse }>;
}

export function hiddenCheckoutId(html: string): string {
  const m = /name="checkout" value="(chk_[0-9a-z]+)"/.exec(html);
  if (!m) throw new Error(`no checkout id in the page:\n${html.slice(0, 2000)}`);
  return m[1]!;
}

/** The JSON data block the checkout page posts to Paddle.js. */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
export function pageEvent(html: string): { name: string; data: any } | null {
  const m = /<script type="application\/json" id="paddle-event">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : null;
}

export async function paddleHarness(options: Partial<PaddleSandboxOptions> = {}): Promise<PaddleHarness> {
  let now = START;
  const clock = () => now;
  const receiver = new Receiver(clock);
  const control = options.control ?? createPaddleSandboxControl();
  const app = Fastify({ logger: false });
  await app.register(paddleSandbox, {
    prefix: PREFIX,
    apiKey: API_KEY,
    clientToken: CLIENT_TOKEN,
    webhookUrl: WEBHOOK_URL,
    webhookSecret: SECRET,
    prices: PRICES,
    clock,
    fetch: receiver.fetch,
    retryBaseMs: 5,
    ...options,
    control,
  });
  await app.ready();
  const api: PaddleHarness['api'] = (method, path, body, key = API_KEY) =>
    app.inject({
      method,
      url: `${PREFIX}${path}`,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  const openCheckout: PaddleHarness['openCheckout'] = (query) => app.inject({ method: 'GET', url: `${PREFIX}/checkout?${new URLSearchParams(query)}` });
  const pay: PaddleHarness['pay'] = (html, fields = {}) => {
    const form = new URLSearchParams({ checkout: hiddenCheckoutId(html), card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123', ...fields });
    return app.inject({ method: 'POST', url: `${PREFIX}/checkout`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
  };
  const buy: PaddleHarness['buy'] = async (o = {}) => {
    const page = await openCheckout({
      items: JSON.stringify([{ priceId: o.priceId ?? 'pri_premium_month', quantity: o.quantity ?? 1 }]),
      custom_data: JSON.stringify(o.customData ?? { userId: USER_ID, guildId: '987654321098765432' }),
      token: CLIENT_TOKEN,
    });
    if (page.statusCode !== 200) throw new Error(`checkout did not open: ${page.statusCode} ${page.body.slice(0, 500)}`);
    const done = await pay(page.body, { email: o.email ?? 'ava@example.com', ...(o.card ? { card_number: o.card } : {}) });
    const event = pageEvent(done.body);
    if (done.statusCode !== 200 || event?.name !== 'checkout.completed') throw new Error(`checkout failed: ${done.statusCode} ${done.body.slice(0, 800)}`);
    return { subscriptionId: event.data.subscription_id, transactionId: event.data.transaction_id, customerId: event.data.customer.id, page: done };
  };
  return {
    app,
    control,
    receiver,
    now: clock,
    advance: (ms) => {
      now += ms;
    },
    api,
    openCheckout,
    pay,
    buy,
  };
}

/** Waits (real time) until `check` holds. */
export async function until(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * A test file's harness: `setup(...)` builds one (as `paddleHarness`), and it is closed after each
 * test (a test may close it itself first).
 */
export function usePaddleHarness(): (...args: Parameters<typeof paddleHarness>) => Promise<PaddleHarness> {
  let current: PaddleHarness | null = null;
  afterEach(async () => {
    await current?.app.close();
    current = null;
  });
  return async (...args) => {
    current = await paddleHarness(...args);
    return current;
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { createFastspringSandboxControl, type FastspringSandboxControl } from './control';
import { type FastspringSandboxOptions, fastspringSandbox } from './plugin';
import type { FastspringProductOption } from './types';

export const PREFIX = '/sandbox/fastspring';
export const API_USER = 'fs_api_user';
export const API_PASS = 'fs_api_pass_9d2k';
export const SECRET = 'fs_hmac_secret_test';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/fastspring';
export const STOREFRONT = 'tickety.test.onfastspring.com/popup-tickety';
/** 2026-01-15T12:00:00Z: a monthly period from here ends 2026-02-15 (31 days). */
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);
export const DAY = 24 * 60 * 60 * 1000;
export const PRODUCTS: FastspringProductOption[] = [
  { path: 'tickety-premium-monthly', display: 'Tickety Premium (monthly)', price: 4.99, currency: 'USD', intervalUnit: 'month', intervalLength: 1 },
  { path: 'tickety-premium-yearly', display: 'Tickety Premium (yearly)', price: 49.9, currency: 'USD', intervalUnit: 'year', intervalLength: 1 },
  { path: 'tickety-pro-monthly', display: 'Tickety Pro (monthly)', price: 9.99, currency: 'USD', intervalUnit: 'month', intervalLength: 1 },
  { path: 'tickety-premium-eur', display: 'Tickety Premium (EUR)', price: 4.99, currency: 'EUR', intervalUnit: 'month', intervalLength: 1 },
];
export const TAGS = { guildId: '987654321098765432', userId: '123456789012345678' };
export const BASIC = `Basic ${Buffer.from(`${API_USER}:${API_PASS}`).toString('base64')}`;

// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
export type AnyEvent = { id: string; type: string; live: boolean; processed: boolean; created: number; data: any };

export interface Received {
  raw: string;
  signature: string;
  contentType: string;
  events: AnyEvent[];
  at: number;
}

/** What the receiver answers a POST: a status, a status and body, or a network failure / no answer. */
export type Answer = number | { status: number; body: string } | 'hang' | 'throw';
export type Respond = (r: Received, n: number) => Answer | Promise<Answer>;

/** A fake webhook endpoint, given to the plugin as its `fetch`. */
export class Receiver {
  readonly got: Received[] = [];
  calls = 0;
  respond: Respond = () => 200;

  readonly fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url) !== WEBHOOK_URL) throw new Error(`unexpected URL ${String(url)}`);
    const headers = new Headers(init?.headers);
    const raw = String(init?.body);
    const r: Received = {
      raw,
      signature: headers.get('x-fs-signature') ?? '',
      contentType: headers.get('content-type') ?? '',
      events: (JSON.parse(raw) as { events: AnyEvent[] }).events,
      at: Date.now(),
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
    const { status, body } = typeof answer === 'number' ? { status: answer, body: 'ok' } : answer;
    return new Response(body, { status, headers: { 'content-type': 'text/plain' } });
  }) as typeof fetch;

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

export interface FastspringHarness {
  app: FastifyInstance;
  control: FastspringSandboxControl;
  receiver: Receiver;
  now(): number;
  advance(ms: number): void;
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

export function hiddenSessionId(html: string): string {
  const m = /name="session" value="([A-Za-z0-9_-]+)"/.exec(html);
  if (!m) throw new Error(`no session id in the page:\n${html.slice(0, 2000)}`);
  return m[1]!;
}

/** The JSON data block the popup page posts to the builder. */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
export function pageEvent(html: string): { name: string; data: any } | null {
  const m = /<script type="application\/json" id="fastspring-event">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : null;
}

export async function fastspringHarness(options: Partial<FastspringSandboxOptions> = {}): Promise<FastspringHarness> {
  let now = START;
  const clock = () => now;
  const receiver = new Receiver();
  const control = options.control ?? createFastspringSandboxControl();
  const app = Fastify({ logger: false });
  await app.register(fastspringSandbox, {
    prefix: PREFIX,
    apiUsername: API_USER,
    apiPassword: API_PASS,
    webhookSecret: SECRET,
    webhookUrl: WEBHOOK_URL,
    storefront: STOREFRONT,
    products: PRODUCTS,
    clock,
    fetch: receiver.fetch,
    retryBaseMs: 5,
    ...options,
    control,
  });
  await app.ready();
  const api: FastspringHarness['api'] = (method, path, body, auth = BASIC) =>
    app.inject({
      method,
      url: `${PREFIX}${path}`,
      headers: auth === null ? {} : { authorization: auth },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  const openPopup: FastspringHarness['openPopup'] = (query) => app.inject({ method: 'GET', url: `${PREFIX}/popup?${new URLSearchParams(query)}` });
  const pay: FastspringHarness['pay'] = (html, fields = {}) => {
    const form = new URLSearchParams({ session: hiddenSessionId(html), email: 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123', ...fields });
    return app.inject({ method: 'POST', url: `${PREFIX}/popup`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
  };
  const buy: FastspringHarness['buy'] = async (o = {}) => {
    const page = await openPopup({
      storefront: STOREFRONT,
      products: JSON.stringify(o.products ?? [{ path: 'tickety-premium-monthly', quantity: 1 }]),
      tags: JSON.stringify(o.tags ?? TAGS),
      parent_origin: 'http://localhost:5173',
    });
    if (page.statusCode !== 200) throw new Error(`popup did not open: ${page.statusCode} ${page.body.slice(0, 500)}`);
    const done = await pay(page.body, { ...(o.email ? { email: o.email } : {}), ...(o.card ? { card_number: o.card } : {}) });
    const event = pageEvent(done.body);
    if (done.statusCode !== 200 || event?.name !== 'order.complete') throw new Error(`checkout failed: ${done.statusCode} ${done.body.slice(0, 800)}`);
    return { orderId: event.data.id, reference: event.data.reference, page: done };
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
    openPopup,
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

/** A test file's harness: `setup(...)` builds one, closed after each test. */
export function useFastspringHarness(): (...args: Parameters<typeof fastspringHarness>) => Promise<FastspringHarness> {
  let current: FastspringHarness | null = null;
  afterEach(async () => {
    await current?.app.close();
    current = null;
  });
  return async (...args) => {
    current = await fastspringHarness(...args);
    return current;
  };
}

import type { LightMyRequestResponse } from 'fastify';
import { DAY, harnessPerTest, jsonApi, manualClock, mountStandIn, type ReceivedPost, START, type StandInHarness, until, WebhookReceiver } from '../../kit/testing/harness';
import { createSandboxControl, type SandboxControl } from '../control';
import { DEMO_APP, DEMO_USERS } from '../demo-data';
import { discordSandbox } from '../plugin';
import { createMonetizationControl, type MonetizationControl } from './control';
import type { MonetizationOptions } from './plugin';
import { SKU_FLAGS } from './types';

export { DAY, START, until };

export const PREFIX = '/sandbox/discord';
export const APP_ID = DEMO_APP.clientId;
export const BOT = `Bot ${DEMO_APP.botToken}`;
/** The Ed25519 reference seed (test 1): its public key is DEMO_APP.publicKey. */
export const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const PUBLIC_KEY = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
export const WEBHOOK_URL = 'http://127.0.0.1:3000/api/webhooks/discord';
export const SKU_ID = '1300000000000000801';
export const GUILD_SKU_ID = '1300000000000000811';
export const CONSUMABLE_SKU_ID = '1300000000000000821';
export const AVA = DEMO_USERS.ava.id;
export const BEN = DEMO_USERS.ben.id;
export const AVAS_ARCADE = '1100000000000000001';

const SKUS: MonetizationOptions['skus'] = [
  { id: SKU_ID, name: 'Tickety Premium', slug: 'tickety-premium', type: 5, flags: SKU_FLAGS.USER_SUBSCRIPTION | SKU_FLAGS.AVAILABLE, price: { amount: 499, currency: 'USD' } },
  {
    id: GUILD_SKU_ID,
    name: 'Server Premium',
    slug: 'server-premium',
    type: 5,
    flags: SKU_FLAGS.GUILD_SUBSCRIPTION | SKU_FLAGS.AVAILABLE,
    price: { amount: 999, currency: 'EUR' },
    periodDays: 365,
  },
  { id: CONSUMABLE_SKU_ID, name: 'Ticket boost', slug: 'ticket-boost', type: 3, flags: SKU_FLAGS.AVAILABLE, price: { amount: 199, currency: 'USD' } },
];

export interface Received extends ReceivedPost {
  signature: string;
  timestamp: string;
  // biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
  body: any;
}

/** A fake Webhook Events endpoint, given to the plugin as `monetization.fetch`. */
export class Receiver extends WebhookReceiver<Received> {
  constructor() {
    super({
      url: WEBHOOK_URL,
      answer: 204,
      body: 'nope',
      read: (post, headers) => ({ ...post, signature: headers.get('x-signature-ed25519') ?? '', timestamp: headers.get('x-signature-timestamp') ?? '', body: JSON.parse(post.raw) }),
    });
  }

  /** Delivered events (not PINGs), in arrival order. */
  events(): Array<{ type: string; timestamp: string; data: Record<string, unknown> }> {
    return this.got.filter((r) => r.body.type === 1).map((r) => r.body.event);
  }

  types(): string[] {
    return this.events().map((e) => e.type);
  }
}

export interface Harness extends StandInHarness<MonetizationControl, Receiver> {
  sandbox: SandboxControl;
  api(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, auth?: string | null): Promise<LightMyRequestResponse>;
  page(path: string): Promise<LightMyRequestResponse>;
  form(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Buys a SKU in the store as a demo user with the default test card; returns the page. */
  buy(userId?: string, skuId?: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export async function harness(options: Partial<MonetizationOptions> = {}): Promise<Harness> {
  const clock = manualClock(START);
  const receiver = new Receiver();
  const control = options.control ?? createMonetizationControl();
  const sandbox = createSandboxControl();
  const base = await mountStandIn(discordSandbox, {
    prefix: PREFIX,
    clock: clock.now,
    control: sandbox,
    monetization: { skus: SKUS, privateKeySeed: SEED, webhookUrl: WEBHOOK_URL, fetch: receiver.fetch, retryBaseMs: 5, ...options, control },
  }, { control, receiver, clock });
  const { app } = base;
  const api: Harness['api'] = jsonApi(app, `${PREFIX}/api/v10`, (auth) => auth, BOT);
  const page: Harness['page'] = (path) => app.inject({ method: 'GET', url: `${PREFIX}${path}` });
  const form: Harness['form'] = (path, fields, headers = {}) =>
    app.inject({ method: 'POST', url: `${PREFIX}${path}`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });
  const buy: Harness['buy'] = (userId = AVA, skuId = SKU_ID, fields = {}) =>
    form(`/application-directory/${APP_ID}/store/${skuId}`, { user_id: userId, card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123', ...fields });
  return { ...base, sandbox, api, page, form, buy };
}

/** One harness per test, closed after it. */
export function useHarness(): (options?: Partial<MonetizationOptions>) => Promise<Harness> {
  return harnessPerTest(harness);
}

import type { FastifyInstance } from 'fastify';
import { attachStandIn, optionChecks, outboxOptions, restoreInitialState, tickOnRequest } from '../../kit/webhooks/plugin';
import type { SandboxEngine } from '../engine';
import { SNOWFLAKE } from '../util';
import { monetizationApiRoutes } from './api-routes';
import { createMonetizationControl, type MonetizationControl, monetizationInternals } from './control';
import { EventQueue } from './delivery';
import { MonetizationEngine, periodMsOf, type ResolvedSku } from './engine';
import { discordKeyPair } from './keys';
import { type MonetizationSnapshot, MonetizationSnapshotError } from './snapshot';
import { storeRoutes } from './store-routes';
import type { InitialEntitlement, MonetizationSkuOption } from './types';

/** The `monetization` option of `discordSandbox`: Discord app subscriptions (SKUs, entitlements, store, webhook events). */
export interface MonetizationOptions {
  /** The application selling (its id in the routes and payloads). Default: the sandbox's `clientId` (DEMO_APP's). */
  applicationId?: string;
  /** What the app sells (at least one). */
  skus: MonetizationSkuOption[];
  /** The app's Ed25519 private key seed: 32 bytes as 64 hex characters. Its public key is the app's "Public Key". */
  privateKeySeed: string;
  /** The app's Webhook Events URL (absolute http(s)). */
  webhookUrl: string;
  /** Seeded active, renewing app subscriptions (no events sent for them). Ignored when `initialState` is given. */
  initialEntitlements?: InitialEntitlement[];
  /** First retry delay in real ms, doubling at each attempt (10 attempts). Default 1000. */
  retryBaseMs?: number;
  /** An attempt with no answer after this many real ms fails (and is retried). Default 3000, Discord's limit. */
  timeoutMs?: number;
  /** Used to deliver webhook events. Default the global fetch. */
  fetch?: typeof fetch;
  /** Drives it from tests and the demo. Default: a private one. */
  control?: MonetizationControl;
  /**
   * Called with a snapshot after the state changed (a purchase, cancel, uncancel, renewal, end, refund,
   * test grant or delete, consume, restore, reset). Debounced (200 ms after the last change, at most 1 s
   * after the first) on an unref'd timer; the close hook makes a pending call at once. Errors are logged.
   */
  onChange?: (snapshot: MonetizationSnapshot) => void | Promise<void>;
  /** A snapshot (as given to onChange, after JSON) to start from; checked like `control.restore()`. */
  initialState?: unknown;
}

const { positive, url: absoluteUrl, onChange: onChangeOption } = optionChecks('discordSandbox: monetization.');

function resolveSkus(list: unknown): Map<string, ResolvedSku> {
  if (!Array.isArray(list) || list.length === 0) throw new RangeError('discordSandbox: monetization.skus must be a non-empty array');
  const skus = new Map<string, ResolvedSku>();
  const ids = new Set<string>();
  for (const [count, skuOption] of (list as MonetizationSkuOption[]).entries()) {
    const at = `discordSandbox: monetization.skus[${count}]`;
    if (!skuOption || typeof skuOption !== 'object') throw new TypeError(`${at} must be an object`);
    if (typeof skuOption.id !== 'string' || !SNOWFLAKE.test(skuOption.id)) throw new RangeError(`${at}.id must be a snowflake string, not ${String(skuOption.id)}`);
    if (typeof skuOption.name !== 'string' || skuOption.name.trim() === '' || skuOption.name.length > 100) throw new RangeError(`${at}.name must be 1-100 characters`);
    if (typeof skuOption.slug !== 'string' || !/^[a-z0-9-]{1,100}$/.test(skuOption.slug)) throw new RangeError(`${at}.slug must be lowercase letters, digits and dashes`);
    if (skuOption.type !== 5 && skuOption.type !== 2 && skuOption.type !== 3) throw new RangeError(`${at}.type must be 5 (SUBSCRIPTION), 2 (DURABLE) or 3 (CONSUMABLE), not ${String(skuOption.type)}`);
    if (!Number.isInteger(skuOption.flags) || skuOption.flags < 0) throw new RangeError(`${at}.flags must be a whole number (SKU flags bitfield)`);
    if (!skuOption.price || !Number.isInteger(skuOption.price.amount) || skuOption.price.amount < 0) throw new RangeError(`${at}.price.amount must be a whole number of minor units (cents) >= 0`);
    if (typeof skuOption.price.currency !== 'string' || !/^[A-Z]{3}$/.test(skuOption.price.currency)) throw new RangeError(`${at}.price.currency must be an ISO 4217 code such as USD`);
    const periodDays = skuOption.periodDays ?? 30;
    if (!Number.isInteger(periodDays) || periodDays < 1 || periodDays > 3660) throw new RangeError(`${at}.periodDays must be a whole number of days from 1 to 3660`);
    const groupId = skuOption.type === 5 ? (skuOption.groupId ?? String(BigInt(skuOption.id) + 1n)) : null;
    if (groupId !== null && !SNOWFLAKE.test(groupId)) throw new RangeError(`${at}.groupId must be a snowflake string`);
    for (const id of groupId ? [skuOption.id, groupId] : [skuOption.id]) {
      if (ids.has(id)) throw new RangeError(`${at}: the id ${id} is used twice (SKU ids and their SUBSCRIPTION_GROUP twins, by default id + 1, must all differ: give groupId)`);
      ids.add(id);
    }
    skus.set(skuOption.id, { id: skuOption.id, groupId, name: skuOption.name, slug: skuOption.slug, type: skuOption.type, flags: skuOption.flags, amount: skuOption.price.amount, currency: skuOption.price.currency, periodDays, periodMs: periodMsOf(periodDays) });
  }
  return skus;
}

function resolveInitial(list: unknown, skus: ReadonlyMap<string, ResolvedSku>): InitialEntitlement[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new TypeError('discordSandbox: monetization.initialEntitlements must be an array');
  const ids = new Set<string>();
  return (list as InitialEntitlement[]).map((initialEntitlement, count) => {
    const at = `discordSandbox: monetization.initialEntitlements[${count}]`;
    for (const key of ['id', 'skuId', 'userId', 'subscriptionId'] as const) {
      if (typeof initialEntitlement?.[key] !== 'string' || !SNOWFLAKE.test(initialEntitlement[key])) throw new RangeError(`${at}.${key} must be a snowflake string`);
    }
    if (initialEntitlement.guildId !== undefined && !SNOWFLAKE.test(initialEntitlement.guildId)) throw new RangeError(`${at}.guildId must be a snowflake string`);
    if (skus.get(initialEntitlement.skuId)?.type !== 5) throw new RangeError(`${at}.skuId ${initialEntitlement.skuId} is not a subscription SKU of monetization.skus`);
    const startsAt = typeof initialEntitlement.startsAt === 'number' ? initialEntitlement.startsAt : typeof initialEntitlement.startsAt === 'string' ? Date.parse(initialEntitlement.startsAt) : Number.NaN;
    if (!Number.isFinite(startsAt)) throw new RangeError(`${at}.startsAt must be an ISO 8601 time or epoch ms`);
    for (const id of [initialEntitlement.id, initialEntitlement.subscriptionId]) {
      if (ids.has(id)) throw new RangeError(`${at}: the id ${id} is used twice`);
      ids.add(id);
    }
    return { ...initialEntitlement };
  });
}

/**
 * Adds Discord app subscriptions to a `discordSandbox` registration (its `monetization` option): the
 * REST routes, the store and settings pages, webhook events, and `onRequest` renewals by the clock.
 * Called by the plugin in its own context, so its auth, rate-limit, error and 404 handling apply.
 */
export function registerMonetization(app: FastifyInstance, discord: SandboxEngine, opts: MonetizationOptions): void {
  const applicationId = opts.applicationId ?? discord.options.clientId;
  if (typeof applicationId !== 'string' || !SNOWFLAKE.test(applicationId)) throw new RangeError(`discordSandbox: monetization.applicationId must be a snowflake string, not ${String(applicationId)}`);
  const skus = resolveSkus(opts.skus);
  const keys = discordKeyPair(typeof opts.privateKeySeed === 'string' ? opts.privateKeySeed : '');
  const webhookUrl = absoluteUrl('webhookUrl', opts.webhookUrl);
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('discordSandbox: no fetch available: pass monetization.fetch');
  const onChange = onChangeOption(opts.onChange);
  const initial = resolveInitial(opts.initialEntitlements, skus);
  const control = opts.control ?? createMonetizationControl();
  const internals = monetizationInternals(control);
  const now = () => discord.now();

  const queue = new EventQueue({
    ...outboxOptions(internals, { url: webhookUrl, fetch: fetchImpl, retryBaseMs: positive('retryBaseMs', opts.retryBaseMs, 1000), timeoutMs: positive('timeoutMs', opts.timeoutMs, 3000) }),
    applicationId,
    privateKey: keys.privateKey,
    clock: now,
  });
  const engine = new MonetizationEngine({ applicationId, skus, now, queue, initial: opts.initialState === undefined ? initial : [] });
  restoreInitialState(opts.initialState, (snapshot) => engine.restore(snapshot), MonetizationSnapshotError, 'discordSandbox: monetization.initialState');

  attachStandIn(app, { bound: { engine, queue }, internals, onChange, snapshot: () => engine.snapshot(), failure: 'discord sandbox: monetization.onChange failed' });
  // Renewals and ends of canceled subscriptions due by the clock apply before any request sees the state.
  tickOnRequest(app, engine);

  monetizationApiRoutes(app, discord, engine);
  storeRoutes(app, discord, engine);
}

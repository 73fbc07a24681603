import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { type DeliveryStatus, exponentialBackoff, type OutboxOptions, type WebhookChaos, WebhookQueue } from '../../kit/webhooks/delivery';
import { signDiscordEvent } from './keys';
import type { DiscordEntitlement, DiscordEventType, DiscordWebhookEventBody } from './types';

/**
 * Chaos applied to webhook delivery (MonetizationControl.setChaos): `duplicate` sends a delivered
 * event a second time, `shuffle` sends the events due together in random order, `failFirst` fails the
 * next n attempts as if answered 500, without sending; each is retried.
 */
export type MonetizationChaos = WebhookChaos;

/** What an endpoint answered to `ping()` or `probe()`. */
export interface EndpointCheck {
  /** HTTP status, or null on a network error / timeout. */
  status: number | null;
  /** Whether the answer is what Discord requires (204 to a PING, 401 to a bad signature). */
  ok: boolean;
  /** The network error or timeout, or what was wrong with the answer; null when ok. */
  error: string | null;
}

/** The event's own fields in its delivery record. */
interface EventInfo {
  /** The stand-in's own number for the event (Discord sends no event id): for `drop()`. */
  id: number;
  type: DiscordEventType;
  /** `event.timestamp` as sent. */
  timestamp: string;
  entitlementId: string;
  /** The exact JSON body sent at every attempt. */
  raw: string;
}

/**
 * One webhook event and its delivery (MonetizationControl.deliveries()): attempts at most 10
 * (including those failed by `failFirst`); `lastError` says why the last attempt failed.
 */
export type MonetizationDelivery = EventInfo & DeliveryStatus;

export interface DeliveryOptions extends OutboxOptions<MonetizationChaos> {
  applicationId: string;
  privateKey: KeyObject;
  /** The stand-in's clock (epoch ms): X-Signature-Timestamp. */
  clock: () => number;
}

export const MAX_ATTEMPTS = 10;
const USER_AGENT = 'Discord-Webhooks/1.0 (+https://discord.com) Tickety sandbox';

/** Discord's event timestamp: ISO 8601 with microseconds and no offset (UTC), e.g. `2024-10-18T18:41:21.109604`. */
function eventTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000');
}

/** The headers of one POST of `raw`, signed (or, with `valid` false, with a signature that does not verify). */
function signedHeaders(raw: string, valid: boolean, options: DeliveryOptions): Record<string, string> {
  const timestamp = String(Math.floor(options.clock() / 1000));
  // The invalid one signs other bytes: a well-formed signature that does not verify.
  const signature = signDiscordEvent(valid ? raw : `${raw}${randomBytes(8).toString('hex')}`, timestamp, options.privateKey);
  return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'user-agent': USER_AGENT };
}

/**
 * The webhook outbox: each event is POSTed in the background (an unref'd timer, never inside the
 * request that made it), signed anew at every attempt; a 204 ends it, anything else (another status,
 * no answer within timeoutMs, a network error) retries after retryBaseMs × 2^(attempt−1) real ms, 10
 * attempts at most.
 */
export class EventQueue extends WebhookQueue<EventInfo, MonetizationChaos> {
  readonly #o: DeliveryOptions;
  #seq = 0;

  constructor(options: DeliveryOptions) {
    super({
      ...options,
      maxAttempts: MAX_ATTEMPTS,
      retryDelayMs: exponentialBackoff(options.retryBaseMs),
      headers: (raw) => signedHeaders(raw, true, options),
      delivered: (status) => status === 204,
      refused: (status) => `expected 204, got ${status}`,
    });
    this.#o = options;
  }

  enqueue(type: DiscordEventType, data: DiscordEntitlement, atMs: number): number {
    const timestamp = eventTimestamp(atMs);
    const body: DiscordWebhookEventBody = { version: 1, application_id: this.#o.applicationId, type: 1, event: { type, timestamp, data } };
    const id = ++this.#seq;
    const raw = JSON.stringify(body);
    this.add({ id, type, timestamp, entitlementId: data.id, raw }, raw);
    return id;
  }

  drop(id: number): void {
    const item = this.items.find((i) => i.info.id === id);
    if (!item) throw new Error(`drop: no event ${id}`);
    if (item.state === 'pending') item.state = 'dropped';
  }

  /** A PING (`{version:1, application_id, type:0}`), validly signed: Discord requires 204. */
  async ping(): Promise<EndpointCheck> {
    const postResult = await this.#ping(true);
    if (postResult.status === null) return { status: null, ok: false, error: postResult.error };
    return postResult.status === 204 ? { status: 204, ok: true, error: null } : { status: postResult.status, ok: false, error: `a PING must be answered 204, not ${postResult.status}` };
  }

  /** Discord's security check: a PING with an invalid signature. The endpoint must answer 401. */
  async probe(): Promise<EndpointCheck> {
    const postResult = await this.#ping(false);
    if (postResult.status === null) return { status: null, ok: false, error: postResult.error };
    return postResult.status === 401 ? { status: 401, ok: true, error: null } : { status: postResult.status, ok: false, error: `an invalid signature must be answered 401, not ${postResult.status}` };
  }

  #ping(valid: boolean) {
    const raw = JSON.stringify({ version: 1, application_id: this.#o.applicationId, type: 0 });
    return this.post(raw, signedHeaders(raw, valid, this.#o));
  }
}

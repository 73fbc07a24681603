import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { signDiscordEvent } from './keys';
import type { DiscordEntitlement, DiscordEventType, DiscordWebhookEventBody } from './types';

/** Chaos applied to webhook delivery (MonetizationControl.setChaos). */
export interface MonetizationChaos {
  /** 0..1: probability that a delivered event is sent a second time right after (default 0). */
  duplicate?: number;
  /** Deliver the events due together in random order instead of the order they happened. */
  shuffle?: boolean;
  /** The next n attempts fail as if the endpoint had answered 500, without sending; each is retried. */
  failFirst?: number;
}

export type MonetizationDeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One webhook event and its delivery (MonetizationControl.deliveries()). */
export interface MonetizationDelivery {
  /** The stand-in's own number for the event (Discord sends no event id): for `drop()`. */
  id: number;
  type: DiscordEventType;
  /** `event.timestamp` as sent. */
  timestamp: string;
  entitlementId: string;
  /** Attempts so far (including those failed by `failFirst`), at most 10. */
  attempts: number;
  state: MonetizationDeliveryState;
  /** The endpoint's last HTTP status; null before the first attempt or after a network error / timeout. */
  lastStatus: number | null;
  /** Why the last attempt failed, or null. */
  lastError: string | null;
  /** Extra copies sent by the `duplicate` chaos. */
  duplicates: number;
  /** The exact JSON body sent at every attempt. */
  raw: string;
}

/** What an endpoint answered to `ping()` or `probe()`. */
export interface EndpointCheck {
  /** HTTP status, or null on a network error / timeout. */
  status: number | null;
  /** Whether the answer is what Discord requires (204 to a PING, 401 to a bad signature). */
  ok: boolean;
  /** The network error or timeout, or what was wrong with the answer; null when ok. */
  error: string | null;
}

interface Pending extends MonetizationDelivery {
  /** Real time (Date.now) the next attempt is due. */
  dueAt: number;
  inFlight: Promise<void> | null;
}

export interface DeliveryOptions {
  url: string;
  applicationId: string;
  privateKey: KeyObject;
  /** The stand-in's clock (epoch ms): X-Signature-Timestamp. */
  clock: () => number;
  fetch: typeof fetch;
  retryBaseMs: number;
  timeoutMs: number;
  chaos: () => MonetizationChaos;
  takeFailure: () => boolean;
  random: () => number;
}

export const MAX_ATTEMPTS = 10;
const MAX_KEPT = 5000;
const USER_AGENT = 'Discord-Webhooks/1.0 (+https://discord.com) Tickety sandbox';

/** Discord's event timestamp: ISO 8601 with microseconds and no offset (UTC), e.g. `2024-10-18T18:41:21.109604`. */
export function eventTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000');
}

/**
 * The webhook outbox: each event is POSTed in the background (an unref'd timer, never inside the
 * request that made it), signed anew at every attempt; a 204 ends it, anything else (another status,
 * no answer within timeoutMs, a network error) retries after retryBaseMs × 2^(attempt−1) real ms, 10
 * attempts at most.
 */
export class EventQueue {
  readonly #o: DeliveryOptions;
  #items: Pending[] = [];
  #seq = 0;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #paused = false;
  #stopped = false;
  #abort = new AbortController();

  constructor(options: DeliveryOptions) {
    this.#o = options;
  }

  enqueue(type: DiscordEventType, data: DiscordEntitlement, atMs: number): number {
    const timestamp = eventTimestamp(atMs);
    const body: DiscordWebhookEventBody = { version: 1, application_id: this.#o.applicationId, type: 1, event: { type, timestamp, data } };
    const item: Pending = {
      id: ++this.#seq,
      type,
      timestamp,
      entitlementId: data.id,
      attempts: 0,
      state: 'pending',
      lastStatus: null,
      lastError: null,
      duplicates: 0,
      raw: JSON.stringify(body),
      dueAt: Date.now(),
      inFlight: null,
    };
    this.#items.push(item);
    this.#trim();
    this.#schedule();
    return item.id;
  }

  list(): MonetizationDelivery[] {
    return this.#items.map(({ id, type, timestamp, entitlementId, attempts, state, lastStatus, lastError, duplicates, raw }) => ({
      id,
      type,
      timestamp,
      entitlementId,
      attempts,
      state,
      lastStatus,
      lastError,
      duplicates,
      raw,
    }));
  }

  drop(id: number): void {
    const item = this.#items.find((i) => i.id === id);
    if (!item) throw new Error(`drop: no event ${id}`);
    if (item.state === 'pending') item.state = 'dropped';
  }

  pause(): void {
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    this.#paused = false;
    this.#schedule();
  }

  /** Sends what is due now (with ignoreBackoff: also what waits for a retry, until none is pending) and waits. */
  async flush(ignoreBackoff = false): Promise<void> {
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      const now = Date.now();
      const due = this.#items.filter((i) => i.state === 'pending' && !i.inFlight && (ignoreBackoff || i.dueAt <= now));
      this.#dispatch(due);
      const running = this.#items.flatMap((i) => (i.inFlight ? [i.inFlight] : []));
      if (running.length === 0) break;
      await Promise.all(running);
      if (!ignoreBackoff && due.length === 0) break;
    }
  }

  reset(): void {
    this.#items = [];
    this.#clearTimer();
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#abort.abort();
  }

  /** A PING (`{version:1, application_id, type:0}`), validly signed: Discord requires 204. */
  async ping(): Promise<EndpointCheck> {
    const raw = JSON.stringify({ version: 1, application_id: this.#o.applicationId, type: 0 });
    const r = await this.#send(raw, true);
    if (r.status === null) return { status: null, ok: false, error: r.error };
    return r.status === 204 ? { status: 204, ok: true, error: null } : { status: r.status, ok: false, error: `a PING must be answered 204, not ${r.status}` };
  }

  /** Discord's security check: a PING with an invalid signature. The endpoint must answer 401. */
  async probe(): Promise<EndpointCheck> {
    const raw = JSON.stringify({ version: 1, application_id: this.#o.applicationId, type: 0 });
    const r = await this.#send(raw, false);
    if (r.status === null) return { status: null, ok: false, error: r.error };
    return r.status === 401 ? { status: 401, ok: true, error: null } : { status: r.status, ok: false, error: `an invalid signature must be answered 401, not ${r.status}` };
  }

  #trim(): void {
    let excess = this.#items.length - MAX_KEPT;
    if (excess <= 0) return;
    this.#items = this.#items.filter((i) => {
      if (excess > 0 && i.state !== 'pending') {
        excess--;
        return false;
      }
      return true;
    });
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  #schedule(): void {
    if (this.#paused || this.#stopped) return;
    let next = Number.POSITIVE_INFINITY;
    for (const i of this.#items) if (i.state === 'pending' && !i.inFlight && i.dueAt < next) next = i.dueAt;
    if (next === Number.POSITIVE_INFINITY || (this.#timer && this.#timerAt <= next)) return;
    this.#clearTimer();
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        const now = Date.now();
        this.#dispatch(this.#items.filter((i) => i.state === 'pending' && !i.inFlight && i.dueAt <= now));
        this.#schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.#timer.unref();
  }

  #dispatch(due: Pending[]): void {
    if (this.#stopped || due.length === 0) return;
    const order = [...due];
    if (this.#o.chaos().shuffle) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(this.#o.random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
    }
    for (const item of order) {
      item.inFlight = this.#attempt(item).finally(() => {
        item.inFlight = null;
        this.#schedule();
      });
    }
  }

  /** One signed POST (or, with `valid` false, one with a wrong signature). */
  async #send(raw: string, valid: boolean): Promise<{ status: number | null; error: string | null }> {
    const { url, privateKey, clock, timeoutMs } = this.#o;
    const timestamp = String(Math.floor(clock() / 1000));
    // The invalid one signs other bytes: a well-formed signature that does not verify.
    const signature = signDiscordEvent(valid ? raw : `${raw}${randomBytes(8).toString('hex')}`, timestamp, privateKey);
    try {
      const res = await this.#o.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'user-agent': USER_AGENT },
        body: raw,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#abort.signal]),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, error: null };
    } catch (err) {
      const name = (err as { name?: string }).name;
      const error = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
      return { status: null, error };
    }
  }

  async #attempt(item: Pending): Promise<void> {
    if (item.state !== 'pending') return;
    item.attempts++;
    const result = this.#o.takeFailure() ? { status: 500, error: 'failed by setChaos({ failFirst })' } : await this.#send(item.raw, true);
    if (this.#stopped) return;
    item.lastStatus = result.status;
    item.lastError = result.error;
    if (item.state !== 'pending') return;
    if (result.status === 204) {
      item.state = 'delivered';
      const duplicate = this.#o.chaos().duplicate ?? 0;
      if (duplicate > 0 && this.#o.random() < duplicate) {
        item.duplicates++;
        await this.#send(item.raw, true);
      }
      return;
    }
    if (result.status !== null && result.error === null) item.lastError = `expected 204, got ${result.status}`;
    if (item.attempts >= MAX_ATTEMPTS) {
      item.state = 'failed';
      return;
    }
    item.dueAt = Date.now() + this.#o.retryBaseMs * 2 ** (item.attempts - 1);
  }
}

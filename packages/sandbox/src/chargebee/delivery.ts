import { randomBytes } from 'node:crypto';
import type { ChargebeeEvent } from './types';

/** Chaos applied to webhook delivery (ChargebeeSandboxControl.setChaos). */
export interface ChargebeeChaos {
  /** 0..1: probability that a delivered event is POSTed a second time right after (default 0). */
  duplicate?: number;
  /** Deliver the events due together in random order instead of the order they were made. */
  shuffle?: boolean;
  /**
   * The next n attempts (counted across all events) fail as if the endpoint had answered 500, without
   * sending anything; each then retries on the (scaled) Chargebee schedule.
   */
  failFirst?: number;
}

export type ChargebeeDeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One event's webhook delivery, for tests (`control.deliveries()`). */
export interface ChargebeeDelivery {
  eventId: string;
  eventType: string;
  occurredAt: number;
  /** Attempts so far (those failed by `failFirst` included), at most 8 (the first and 7 retries). */
  attempts: number;
  state: ChargebeeDeliveryState;
  /** The endpoint's last HTTP status; null before the first attempt or after a network error / timeout. */
  lastStatus: number | null;
  lastError: string | null;
  /** Extra copies sent by the `duplicate` chaos. */
  duplicates: number;
}

/** Chargebee's retry schedule after a failed attempt: +2 min, +6 min, +30 min, +1 h, +5 h, +1 d, +2 d. */
export const RETRY_DELAYS_MIN = [2, 6, 30, 60, 300, 1440, 2880] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MIN.length + 1;
/** Events kept for `events()` and GET /events; the oldest settled ones are forgotten first. */
const MAX_KEPT = 5000;

/** The real-time wait before retry n (1-based): retryBaseMs × the schedule's ratio to its first delay. */
export function retryDelayMs(retry: number, retryBaseMs: number): number {
  const minutes = RETRY_DELAYS_MIN[Math.min(retry, RETRY_DELAYS_MIN.length) - 1]!;
  return (retryBaseMs * minutes) / RETRY_DELAYS_MIN[0];
}

/** The `Authorization` header of a webhook: `Basic base64(username:password)`. */
export function webhookAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

interface Entry extends ChargebeeDelivery {
  event: ChargebeeEvent;
  raw: string;
  /** Real time (Date.now) the next attempt is due. */
  dueAt: number;
  inFlight: Promise<void> | null;
}

export interface DeliveryOptions {
  url: string;
  authorization: string;
  fetch: typeof fetch;
  retryBaseMs: number;
  timeoutMs: number;
  chaos: () => ChargebeeChaos;
  takeFailure: () => boolean;
  random: () => number;
}

const ALPHANUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random Chargebee-style id: `prefix` and `length` letters and digits (e.g. `ev_16BPgETyVrQbiGhA`). */
export function randomId(prefix = '', length = 16): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALPHANUM[b % 62];
  return out;
}

/**
 * The webhook outbox: every event is POSTed (JSON, Basic auth) to the URL in the background; a 2xx
 * ends it, anything else (or no answer within timeoutMs) retries on Chargebee's schedule scaled to
 * retryBaseMs, 7 retries at most.
 */
export class WebhookQueue {
  readonly #o: DeliveryOptions;
  #entries: Entry[] = [];
  #byId = new Map<string, Entry>();
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #paused = false;
  #stopped = false;
  #abort = new AbortController();

  constructor(options: DeliveryOptions) {
    this.#o = options;
  }

  enqueue(event: ChargebeeEvent): void {
    const e: Entry = {
      eventId: event.id,
      eventType: event.event_type,
      occurredAt: event.occurred_at,
      attempts: 0,
      state: 'pending',
      lastStatus: null,
      lastError: null,
      duplicates: 0,
      event: structuredClone(event),
      raw: JSON.stringify(event),
      dueAt: Date.now(),
      inFlight: null,
    };
    this.#entries.push(e);
    this.#byId.set(event.id, e);
    this.#trim();
    this.#schedule();
  }

  drop(eventId: string): void {
    const e = this.#byId.get(eventId);
    if (!e) throw new Error(`drop: no event ${eventId}`);
    if (e.state === 'pending') e.state = 'dropped';
  }

  /** The event as sent, with Chargebee's webhook_status of its delivery (as GET /events/{id} answers). */
  event(eventId: string): (Omit<ChargebeeEvent, 'webhook_status'> & { webhook_status: string; webhooks: unknown[] }) | undefined {
    const e = this.#byId.get(eventId);
    return e && this.#withStatus(e);
  }

  /** Every kept event, oldest first, as GET /events answers them. */
  events(): Array<Omit<ChargebeeEvent, 'webhook_status'> & { webhook_status: string; webhooks: unknown[] }> {
    return this.#entries.map((e) => this.#withStatus(e));
  }

  #withStatus(e: Entry) {
    const status =
      e.state === 'delivered' ? 'succeeded' : e.state === 'failed' ? 'failed' : e.state === 'dropped' ? 'skipped' : e.attempts > 0 ? 're_scheduled' : 'scheduled';
    return { ...structuredClone(e.event), webhook_status: status, webhooks: [{ id: `whv2_${e.event.id.slice(3)}`, webhook_status: status, object: 'webhook' }] };
  }

  list(): ChargebeeDelivery[] {
    return this.#entries.map(({ eventId, eventType, occurredAt, attempts, state, lastStatus, lastError, duplicates }) => ({
      eventId,
      eventType,
      occurredAt,
      attempts,
      state,
      lastStatus,
      lastError,
      duplicates,
    }));
  }

  pause(): void {
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    this.#paused = false;
    this.#schedule();
  }

  /** Sends every delivery due now (with ignoreBackoff, also those waiting for a retry, until none is pending) and waits for the attempts. */
  async flush(ignoreBackoff = false): Promise<void> {
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      const now = Date.now();
      const due = this.#entries.filter((e) => e.state === 'pending' && !e.inFlight && (ignoreBackoff || e.dueAt <= now));
      this.#dispatch(due);
      const running = this.#entries.flatMap((e) => (e.inFlight ? [e.inFlight] : []));
      if (running.length === 0) break;
      await Promise.all(running);
      if (!ignoreBackoff && due.length === 0) break;
    }
  }

  reset(): void {
    this.#entries = [];
    this.#byId.clear();
    this.#clearTimer();
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#abort.abort();
  }

  #trim(): void {
    let excess = this.#entries.length - MAX_KEPT;
    if (excess <= 0) return;
    this.#entries = this.#entries.filter((e) => {
      if (excess > 0 && e.state !== 'pending') {
        excess--;
        this.#byId.delete(e.eventId);
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
    for (const e of this.#entries) if (e.state === 'pending' && !e.inFlight && e.dueAt < next) next = e.dueAt;
    if (next === Number.POSITIVE_INFINITY || (this.#timer && this.#timerAt <= next)) return;
    this.#clearTimer();
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        const now = Date.now();
        this.#dispatch(this.#entries.filter((e) => e.state === 'pending' && !e.inFlight && e.dueAt <= now));
        this.#schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.#timer.unref();
  }

  #dispatch(due: Entry[]): void {
    if (this.#stopped || due.length === 0) return;
    const order = [...due];
    if (this.#o.chaos().shuffle) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(this.#o.random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
    }
    for (const e of order) {
      e.inFlight = this.#attempt(e).finally(() => {
        e.inFlight = null;
        this.#schedule();
      });
    }
  }

  async #send(raw: string): Promise<{ status: number | null; error: string | null }> {
    const { url, authorization, timeoutMs } = this.#o;
    try {
      const res = await this.#o.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization, 'user-agent': 'ChargeBee' },
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

  async #attempt(e: Entry): Promise<void> {
    if (e.state !== 'pending') return;
    e.attempts++;
    const result = this.#o.takeFailure() ? { status: 500, error: 'failed by setChaos({ failFirst })' } : await this.#send(e.raw);
    if (this.#stopped) return;
    e.lastStatus = result.status;
    e.lastError = result.error;
    if (e.state !== 'pending') return;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      e.state = 'delivered';
      e.lastError = null;
      const duplicate = this.#o.chaos().duplicate ?? 0;
      if (duplicate > 0 && this.#o.random() < duplicate) {
        e.duplicates++;
        await this.#send(e.raw);
      }
      return;
    }
    if (e.attempts >= MAX_ATTEMPTS) {
      e.state = 'failed';
      return;
    }
    e.dueAt = Date.now() + retryDelayMs(e.attempts, this.#o.retryBaseMs);
  }
}

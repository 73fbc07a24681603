import type { IdSequence } from './ids';
import { signPaddle } from './signature';

/** Chaos applied to webhook delivery (PaddleSandboxControl.setChaos). */
export interface PaddleChaos {
  /** 0..1: probability that a delivered notification is sent a second time right after (default 0). */
  duplicate?: number;
  /** Deliver the notifications due together in random order instead of the order they were made. */
  shuffle?: boolean;
  /**
   * The next n attempts (counted across all notifications) fail as if the endpoint had answered 500,
   * without sending anything; each then retries with the usual backoff.
   */
  failFirst?: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One notification of an event (a replay is a second notification of the same event). */
export interface PaddleDelivery {
  eventId: string;
  notificationId: string;
  eventType: string;
  occurredAt: string;
  /** Attempts made so far (including attempts failed by `failFirst`), at most 10. */
  attempts: number;
  /** `dropped`: `drop(eventId)` stopped it, it is never sent again. */
  state: DeliveryState;
  /** The endpoint's last HTTP status; null before the first attempt or after a network error / timeout. */
  lastStatus: number | null;
  /** Why the last attempt failed (network error, timeout, chaos), or null. */
  lastError: string | null;
  /** Extra copies sent by the `duplicate` chaos. */
  duplicates: number;
}

export interface PaddleEvent {
  event_id: string;
  event_type: string;
  occurred_at: string;
  data: unknown;
}

interface Notification extends PaddleDelivery {
  /** The JSON body sent at every attempt (the signature is made anew each time). */
  raw: string;
  /** Real time (Date.now) the next attempt is due. */
  dueAt: number;
  inFlight: Promise<void> | null;
}

export interface DeliveryOptions {
  url: string;
  secret: string;
  /** The sandbox's clock (epoch ms): signatures' ts and occurred_at. */
  clock: () => number;
  fetch: typeof fetch;
  retryBaseMs: number;
  timeoutMs: number;
  chaos: () => PaddleChaos;
  /** Consumes one `failFirst` attempt; true when this attempt must fail. */
  takeFailure: () => boolean;
  random: () => number;
  /** Makes the event and notification ids (the registration's sequence, shared with its engine). */
  ids: IdSequence;
}

export const MAX_ATTEMPTS = 10;
/** Notifications kept for `deliveries()`; the oldest settled ones are forgotten first. */
const MAX_KEPT = 5000;

/**
 * The webhook outbox: every event becomes a notification POSTed to the destination in the background
 * (a timer, never inside the request that made the event), signed at each attempt; a 2xx ends it,
 * anything else retries after retryBaseMs * 2^(attempt-1) real milliseconds, 10 attempts at most.
 */
export class WebhookQueue {
  readonly #options: DeliveryOptions;
  #events = new Map<string, PaddleEvent>();
  #notifications: Notification[] = [];
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #paused = false;
  #stopped = false;
  #abort = new AbortController();

  constructor(options: DeliveryOptions) {
    this.#options = options;
  }

  /** Records an event and queues its notification; returns the event id. */
  enqueue(eventType: string, data: unknown, occurredAt: string): string {
    const event: PaddleEvent = { event_id: this.#options.ids.next('evt', this.#options.clock()), event_type: eventType, occurred_at: occurredAt, data: structuredClone(data) };
    this.#events.set(event.event_id, event);
    this.#notify(event);
    return event.event_id;
  }

  /** Like Paddle's replay: a new notification (new notification_id) of the same event. */
  replay(eventId: string): string {
    const event = this.#events.get(eventId);
    if (!event) throw new Error(`replay: no event ${eventId}`);
    return this.#notify(event).notificationId;
  }

  /** Never delivers the event's pending notifications (one being sent right now may still arrive). */
  drop(eventId: string): void {
    if (!this.#events.has(eventId)) throw new Error(`drop: no event ${eventId}`);
    for (const n of this.#notifications) if (n.eventId === eventId && n.state === 'pending') n.state = 'dropped';
  }

  event(eventId: string): PaddleEvent | undefined {
    const event = this.#events.get(eventId);
    return event && structuredClone(event);
  }

  events(): PaddleEvent[] {
    return [...this.#events.values()].map((e) => structuredClone(e));
  }

  list(): PaddleDelivery[] {
    return this.#notifications.map(({ eventId, notificationId, eventType, occurredAt, attempts, state, lastStatus, lastError, duplicates }) => ({
      eventId,
      notificationId,
      eventType,
      occurredAt,
      attempts,
      state,
      lastStatus,
      lastError,
      duplicates,
    }));
  }

  /** Stops the background timer (flush() still delivers). */
  pause(): void {
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    this.#paused = false;
    this.#schedule();
  }

  /**
   * Sends every notification due now (with `ignoreBackoff`, also those waiting for a retry, again and
   * again until none is pending) and waits for the attempts, including those already under way.
   */
  async flush(ignoreBackoff = false): Promise<void> {
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      const now = Date.now();
      const due = this.#notifications.filter((n) => n.state === 'pending' && !n.inFlight && (ignoreBackoff || n.dueAt <= now));
      this.#dispatch(due);
      const running = this.#notifications.flatMap((n) => (n.inFlight ? [n.inFlight] : []));
      if (running.length === 0) break;
      await Promise.all(running);
      if (!ignoreBackoff && due.length === 0) break;
    }
  }

  /** Forgets every event and notification (attempts under way finish unseen). */
  reset(): void {
    this.#events.clear();
    this.#notifications = [];
    this.#clearTimer();
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** The plugin's close hook: no more attempts; those under way are aborted. */
  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#abort.abort();
  }

  #notify(event: PaddleEvent): Notification {
    const notificationId = this.#options.ids.next('ntf', this.#options.clock());
    const raw = JSON.stringify({ event_id: event.event_id, event_type: event.event_type, occurred_at: event.occurred_at, notification_id: notificationId, data: event.data });
    const n: Notification = {
      eventId: event.event_id,
      notificationId,
      eventType: event.event_type,
      occurredAt: event.occurred_at,
      attempts: 0,
      state: 'pending',
      lastStatus: null,
      lastError: null,
      duplicates: 0,
      raw,
      dueAt: Date.now(),
      inFlight: null,
    };
    this.#notifications.push(n);
    this.#trim();
    this.#schedule();
    return n;
  }

  #trim(): void {
    let excess = this.#notifications.length - MAX_KEPT;
    if (excess <= 0) return;
    this.#notifications = this.#notifications.filter((n) => {
      if (excess > 0 && n.state !== 'pending') {
        excess--;
        return false;
      }
      return true;
    });
    const live = new Set(this.#notifications.map((n) => n.eventId));
    for (const id of this.#events.keys()) if (!live.has(id)) this.#events.delete(id);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  /** One unref'ed timer, set for the earliest due notification. */
  #schedule(): void {
    if (this.#paused || this.#stopped) return;
    let next = Number.POSITIVE_INFINITY;
    for (const n of this.#notifications) if (n.state === 'pending' && !n.inFlight && n.dueAt < next) next = n.dueAt;
    if (next === Number.POSITIVE_INFINITY || (this.#timer && this.#timerAt <= next)) return;
    this.#clearTimer();
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        const now = Date.now();
        this.#dispatch(this.#notifications.filter((n) => n.state === 'pending' && !n.inFlight && n.dueAt <= now));
        this.#schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.#timer.unref();
  }

  #dispatch(due: Notification[]): void {
    if (this.#stopped || due.length === 0) return;
    const order = [...due];
    if (this.#options.chaos().shuffle) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(this.#options.random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
    }
    for (const n of order) {
      n.inFlight = this.#attempt(n).finally(() => {
        n.inFlight = null;
        this.#schedule();
      });
    }
  }

  /** One POST; resolves to the status, or null with the error of a network failure or timeout. */
  async #send(raw: string): Promise<{ status: number | null; error: string | null }> {
    const { url, secret, clock, timeoutMs } = this.#options;
    const signature = signPaddle(raw, secret, Math.floor(clock() / 1000));
    try {
      const res = await this.#options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'paddle-signature': signature, 'user-agent': 'Paddle sandbox' },
        body: raw,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#abort.signal]),
        redirect: 'manual',
      });
      // Read the answer so the connection is reused; its content does not matter.
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, error: null };
    } catch (err) {
      const name = (err as { name?: string }).name;
      const error = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
      return { status: null, error };
    }
  }

  async #attempt(n: Notification): Promise<void> {
    if (n.state !== 'pending') return;
    n.attempts++;
    let result: { status: number | null; error: string | null };
    if (this.#options.takeFailure()) result = { status: 500, error: 'failed by setChaos({ failFirst })' };
    else result = await this.#send(n.raw);
    if (this.#stopped) return;
    n.lastStatus = result.status;
    n.lastError = result.error;
    if (n.state !== 'pending') return;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      n.state = 'delivered';
      n.lastError = null;
      const duplicate = this.#options.chaos().duplicate ?? 0;
      if (duplicate > 0 && this.#options.random() < duplicate) {
        n.duplicates++;
        await this.#send(n.raw);
      }
      return;
    }
    if (n.attempts >= MAX_ATTEMPTS) {
      n.state = 'failed';
      return;
    }
    n.dueAt = Date.now() + this.#options.retryBaseMs * 2 ** (n.attempts - 1);
  }
}


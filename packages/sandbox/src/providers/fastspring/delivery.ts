import { randomBytes } from 'node:crypto';
import { exponentialBackoff, FAILED_BY_CHAOS, MAX_KEPT, type OutboxOptions, OutboxTimer, type PostResult, postWebhook, shuffle, type WebhookChaos } from '../../kit/webhooks/delivery';
import { signFastspring } from './signature';
import type { FastspringEvent } from './types';

/**
 * Chaos applied to webhook delivery (FastspringSandboxControl.setChaos): `duplicate` sends a POST
 * answered 2xx a second time right after (same body, same event ids), `shuffle` puts the events of each
 * POST in random order, `failFirst` fails the next n POSTs as if answered 500, without sending anything
 * (their events are retried with the usual backoff), and `reorder` moves events across POSTs.
 */
export interface FastspringChaos extends WebhookChaos {
  /**
   * 0..1: probability that an event due now is held back from this POST and sent in a later one (after
   * events made after it): reordering across batches. A held-back event does not count an attempt.
   */
  reorder?: number;
}

/**
 * `pending`: waiting for (or between) attempts; `processed`: acknowledged (a 200, its id in a 202's
 * body, or `POST /events/{id}` with processed true); `failed`: 10 attempts failed ("permanently
 * failed", still listed by `GET /events/unprocessed`); `dropped`: `drop(id)` stopped it.
 */
export type EventDeliveryState = 'pending' | 'processed' | 'failed' | 'dropped';

/** Where one event stands. */
export interface FastspringEventDelivery {
  eventId: string;
  type: string;
  created: number;
  /** POSTs that carried it (including those failed by `failFirst`), at most 10. */
  attempts: number;
  state: EventDeliveryState;
  /** Who marked it processed. */
  processedBy: 'webhook' | 'api' | null;
  /** The last POST's HTTP status (null before the first or after a network error / timeout). */
  lastStatus: number | null;
  lastError: string | null;
}

/** One POST to the webhook URL (an attempt). */
export interface FastspringPost {
  /** 1, 2, 3... in the order they were made. */
  n: number;
  /** Real time it was made (Date.now). */
  at: number;
  eventIds: string[];
  /** The endpoint's status; null after a network error or timeout (and 500 for a `failFirst` failure). */
  status: number | null;
  error: string | null;
  /** The ids this answer acknowledged (all for a 200, the listed ones for a 202). */
  processedIds: string[];
  /** A copy sent by the `duplicate` chaos (its answer changes nothing). */
  duplicate: boolean;
  /** Not sent at all: failed by `failFirst`. */
  simulated: boolean;
}

interface EventRecord extends FastspringEventDelivery {
  seq: number;
  event: FastspringEvent;
  /** Real time (Date.now) the next attempt is due. */
  dueAt: number;
  inFlight: boolean;
}

export interface DeliveryOptions extends OutboxOptions<FastspringChaos> {
  secret: string;
  /** The sandbox's clock (epoch ms): events' `created`. */
  clock: () => number;
}

export const MAX_ATTEMPTS = 10;
/** Events in one POST at most. */
const MAX_EVENTS_PER_POST = 50;

/** FastSpring-style event id: 30 characters of A-Z and 0-9. */
function eventId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(30)].map((b) => alphabet[b % 36]).join('');
}

/**
 * The webhook outbox: events made together (in the same tick) go out in ONE POST
 * `{"events":[...]}` signed with X-FS-Signature, in the background (a timer, never inside the request
 * that made them). 200 acknowledges every event of the POST; 202 with a text body of event ids (one a
 * line) acknowledges those only; anything else, a network error or no answer within timeoutMs fails
 * them all. Unacknowledged events keep their id and are retried after retryBaseMs × 2^(attempts−1)
 * real ms (events due together share a POST), 10 attempts at most, then are "permanently failed".
 */
export class WebhookQueue {
  readonly #options: DeliveryOptions;
  #events = new Map<string, EventRecord>();
  #posts: FastspringPost[] = [];
  #seq = 0;
  #postSeq = 0;
  #running = new Set<Promise<void>>();
  readonly #timer: OutboxTimer;
  readonly #backoff: (retry: number) => number;

  constructor(options: DeliveryOptions) {
    this.#options = options;
    this.#backoff = exponentialBackoff(options.retryBaseMs);
    this.#timer = new OutboxTimer(
      () => this.#nextDue(),
      () => this.#dispatch(false),
    );
  }

  /** Records events made together (they share a POST unless chaos splits them); returns their ids. */
  enqueue(batch: Array<{ type: string; data: unknown }>): string[] {
    const now = Date.now();
    const created = this.#options.clock();
    const ids: string[] = [];
    for (const { type, data } of batch) {
      const id = eventId();
      const event: FastspringEvent = { id, type, live: false, processed: false, created, data: structuredClone(data) };
      this.#events.set(id, {
        seq: ++this.#seq,
        event,
        eventId: id,
        type,
        created,
        attempts: 0,
        state: 'pending',
        processedBy: null,
        lastStatus: null,
        lastError: null,
        dueAt: now,
        inFlight: false,
      });
      ids.push(id);
    }
    this.#trim();
    this.#timer.schedule();
    return ids;
  }

  /** `POST /events/{id}`: marks it processed (no more attempts) or unprocessed (listed again; not re-sent). */
  setProcessed(id: string, processed: boolean): FastspringEvent | null {
    const event = this.#events.get(id);
    if (!event) return null;
    event.event.processed = processed;
    if (processed) {
      if (event.state !== 'processed') event.processedBy = 'api';
      event.state = 'processed';
    } else if (event.state === 'processed') {
      event.state = 'failed';
      event.processedBy = null;
    }
    return structuredClone(event.event);
  }

  /** Never sends this event again (it stays unprocessed: `GET /events/unprocessed` lists it). */
  drop(id: string): void {
    const event = this.#events.get(id);
    if (!event) throw new Error(`drop: no event ${id}`);
    if (event.state === 'pending') event.state = 'dropped';
  }

  event(id: string): FastspringEvent | undefined {
    const event = this.#events.get(id);
    return event && structuredClone(event.event);
  }

  /** Every event, oldest first. */
  events(): FastspringEvent[] {
    return [...this.#events.values()].map((r) => structuredClone(r.event));
  }

  /** Where every event stands, oldest first. */
  list(): FastspringEventDelivery[] {
    return [...this.#events.values()].map(({ eventId: id, type, created, attempts, state, processedBy, lastStatus, lastError }) => ({
      eventId: id,
      type,
      created,
      attempts,
      state,
      processedBy,
      lastStatus,
      lastError,
    }));
  }

  posts(): FastspringPost[] {
    return this.#posts.map((p) => ({ ...p, eventIds: [...p.eventIds], processedIds: [...p.processedIds] }));
  }

  pause(): void {
    this.#timer.pause();
  }

  resume(): void {
    this.#timer.resume();
  }

  /**
   * Sends every event due now (with `ignoreBackoff`, also those waiting for a retry, again and again
   * until none is pending) and waits for the POSTs, including those already under way. Works while paused.
   */
  async flush(ignoreBackoff = false): Promise<void> {
    for (let round = 0; round < MAX_ATTEMPTS * 4; round++) {
      const sent = this.#dispatch(ignoreBackoff);
      if (this.#running.size === 0 && !sent) {
        if (!ignoreBackoff || !this.#hasPending()) break;
        // Only events held back by `reorder`: go round again.
        continue;
      }
      await Promise.all([...this.#running]);
      if (!ignoreBackoff && !sent) break;
    }
  }

  reset(): void {
    this.#events.clear();
    this.#posts = [];
    this.#timer.abortAll();
  }

  stop(): void {
    this.#timer.stop();
  }

  #hasPending(): boolean {
    for (const event of this.#events.values()) if (event.state === 'pending' && !event.inFlight) return true;
    return false;
  }

  #trim(): void {
    let excess = this.#events.size - MAX_KEPT;
    if (excess > 0) {
      for (const [id, event] of this.#events) {
        if (excess <= 0) break;
        if (event.state === 'processed') {
          this.#events.delete(id);
          excess--;
        }
      }
    }
    if (this.#posts.length > MAX_KEPT) this.#posts = this.#posts.slice(-MAX_KEPT);
  }

  /** When the earliest pending event is due (for the background timer). */
  #nextDue(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const event of this.#events.values()) if (event.state === 'pending' && !event.inFlight && event.dueAt < next) next = event.dueAt;
    return next;
  }

  /** Starts the POSTs of the events due; true when it started at least one. */
  #dispatch(ignoreBackoff: boolean): boolean {
    if (this.#timer.stopped) return false;
    const now = Date.now();
    const chaos = this.#options.chaos();
    let due = [...this.#events.values()].filter((r) => r.state === 'pending' && !r.inFlight && (ignoreBackoff || r.dueAt <= now)).sort((a, b) => a.seq - b.seq);
    const reorder = chaos.reorder ?? 0;
    if (reorder > 0 && due.length > 0) {
      const held = due.filter(() => this.#options.random() < reorder);
      // Never hold back everything: something must move.
      if (held.length < due.length) {
        for (const event of held) event.dueAt = now + Math.max(1, Math.round(this.#options.retryBaseMs / 2));
        due = due.filter((r) => !held.includes(r));
      }
    }
    if (due.length === 0) return false;
    if (chaos.shuffle) shuffle(due, this.#options.random);
    for (let i = 0; i < due.length; i += MAX_EVENTS_PER_POST) {
      const group = due.slice(i, i + MAX_EVENTS_PER_POST);
      for (const event of group) event.inFlight = true;
      const page = this.#attempt(group).finally(() => {
        for (const event of group) event.inFlight = false;
        this.#running.delete(page);
        this.#timer.schedule();
      });
      this.#running.add(page);
    }
    return true;
  }

  /** One signed POST; the status and the body's text, or null with the error of a network failure or timeout. */
  #send(raw: string): Promise<PostResult> {
    const headers = { 'x-fs-signature': signFastspring(raw, this.#options.secret), 'user-agent': 'FastSpring sandbox' };
    return postWebhook(this.#options, raw, headers, this.#timer.signal, true);
  }

  #log(post: Omit<FastspringPost, 'n' | 'at'>): void {
    this.#posts.push({ n: ++this.#postSeq, at: Date.now(), ...post });
  }

  async #attempt(group: EventRecord[]): Promise<void> {
    const ids = group.map((r) => r.eventId);
    for (const event of group) event.attempts++;
    const raw = JSON.stringify({ events: group.map((r) => ({ ...r.event, processed: false })) });
    const simulated = this.#options.takeFailure();
    const result = simulated ? { status: 500, text: '', error: FAILED_BY_CHAOS } : await this.#send(raw);
    if (this.#timer.stopped) return;
    let acknowledged: Set<string>;
    if (result.status === 200) acknowledged = new Set(ids);
    else if (result.status === 202) {
      const listed = new Set(
        result.text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      );
      acknowledged = new Set(ids.filter((id) => listed.has(id)));
    } else acknowledged = new Set();
    this.#log({ eventIds: ids, status: result.status, error: result.error, processedIds: [...acknowledged], duplicate: false, simulated });
    const now = Date.now();
    for (const event of group) {
      event.lastStatus = result.status;
      event.lastError = result.error ?? (acknowledged.has(event.eventId) ? null : result.status === 202 ? 'not listed in the 202 answer' : `answered ${result.status}`);
      if (event.state !== 'pending') continue;
      if (acknowledged.has(event.eventId)) {
        event.state = 'processed';
        event.processedBy = 'webhook';
        event.event.processed = true;
        event.lastError = null;
      } else if (event.attempts >= MAX_ATTEMPTS) event.state = 'failed';
      else event.dueAt = now + this.#backoff(event.attempts);
    }
    const duplicate = this.#options.chaos().duplicate ?? 0;
    if (!simulated && result.status !== null && result.status >= 200 && result.status < 300 && duplicate > 0 && this.#options.random() < duplicate) {
      const again = await this.#send(raw);
      if (!this.#timer.stopped) this.#log({ eventIds: ids, status: again.status, error: again.error, processedIds: [], duplicate: true, simulated: false });
    }
  }
}

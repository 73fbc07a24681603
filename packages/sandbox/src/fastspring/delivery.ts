import { randomBytes } from 'node:crypto';
import { signFastspring } from './signature';
import type { FastspringEvent } from './types';

/** Chaos applied to webhook delivery (FastspringSandboxControl.setChaos). */
export interface FastspringChaos {
  /** 0..1: probability that a POST answered 2xx is sent a second time right after (same body, same event ids). */
  duplicate?: number;
  /** The events of each POST in random order instead of the order they were made. */
  shuffle?: boolean;
  /**
   * 0..1: probability that an event due now is held back from this POST and sent in a later one (after
   * events made after it): reordering across batches. A held-back event does not count an attempt.
   */
  reorder?: number;
  /**
   * The next n POSTs (attempts) fail as if the endpoint had answered 500, without sending anything;
   * their events are retried with the usual backoff.
   */
  failFirst?: number;
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

export interface DeliveryOptions {
  url: string;
  secret: string;
  /** The sandbox's clock (epoch ms): events' `created`. */
  clock: () => number;
  fetch: typeof fetch;
  retryBaseMs: number;
  timeoutMs: number;
  chaos: () => FastspringChaos;
  /** Consumes one `failFirst` attempt; true when this POST must fail. */
  takeFailure: () => boolean;
  random: () => number;
}

export const MAX_ATTEMPTS = 10;
/** Events in one POST at most. */
export const MAX_EVENTS_PER_POST = 50;
/** Events and posts kept; the oldest settled ones are forgotten first. */
const MAX_KEPT = 5000;

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
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #running = new Set<Promise<void>>();
  #paused = false;
  #stopped = false;
  #abort = new AbortController();

  constructor(options: DeliveryOptions) {
    this.#options = options;
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
    this.#schedule();
    return ids;
  }

  /** `POST /events/{id}`: marks it processed (no more attempts) or unprocessed (listed again; not re-sent). */
  setProcessed(id: string, processed: boolean): FastspringEvent | null {
    const r = this.#events.get(id);
    if (!r) return null;
    r.event.processed = processed;
    if (processed) {
      if (r.state !== 'processed') r.processedBy = 'api';
      r.state = 'processed';
    } else if (r.state === 'processed') {
      r.state = 'failed';
      r.processedBy = null;
    }
    return structuredClone(r.event);
  }

  /** Never sends this event again (it stays unprocessed: `GET /events/unprocessed` lists it). */
  drop(id: string): void {
    const r = this.#events.get(id);
    if (!r) throw new Error(`drop: no event ${id}`);
    if (r.state === 'pending') r.state = 'dropped';
  }

  event(id: string): FastspringEvent | undefined {
    const r = this.#events.get(id);
    return r && structuredClone(r.event);
  }

  /** Every event, oldest first. */
  events(): FastspringEvent[] {
    return [...this.#events.values()].map((r) => structuredClone(r.event));
  }

  deliveries(): FastspringEventDelivery[] {
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
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    this.#paused = false;
    this.#schedule();
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
    this.#clearTimer();
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#abort.abort();
  }

  #hasPending(): boolean {
    for (const r of this.#events.values()) if (r.state === 'pending' && !r.inFlight) return true;
    return false;
  }

  #trim(): void {
    let excess = this.#events.size - MAX_KEPT;
    if (excess > 0) {
      for (const [id, r] of this.#events) {
        if (excess <= 0) break;
        if (r.state === 'processed') {
          this.#events.delete(id);
          excess--;
        }
      }
    }
    if (this.#posts.length > MAX_KEPT) this.#posts = this.#posts.slice(-MAX_KEPT);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  /** One unref'ed timer, set for the earliest due event. */
  #schedule(): void {
    if (this.#paused || this.#stopped) return;
    let next = Number.POSITIVE_INFINITY;
    for (const r of this.#events.values()) if (r.state === 'pending' && !r.inFlight && r.dueAt < next) next = r.dueAt;
    if (next === Number.POSITIVE_INFINITY || (this.#timer && this.#timerAt <= next)) return;
    this.#clearTimer();
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#dispatch(false);
        this.#schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.#timer.unref();
  }

  /** Starts the POSTs of the events due; true when it started at least one. */
  #dispatch(ignoreBackoff: boolean): boolean {
    if (this.#stopped) return false;
    const now = Date.now();
    const chaos = this.#options.chaos();
    let due = [...this.#events.values()].filter((r) => r.state === 'pending' && !r.inFlight && (ignoreBackoff || r.dueAt <= now)).sort((a, b) => a.seq - b.seq);
    const reorder = chaos.reorder ?? 0;
    if (reorder > 0 && due.length > 0) {
      const held = due.filter(() => this.#options.random() < reorder);
      // Never hold back everything: something must move.
      if (held.length < due.length) {
        for (const r of held) r.dueAt = now + Math.max(1, Math.round(this.#options.retryBaseMs / 2));
        due = due.filter((r) => !held.includes(r));
      }
    }
    if (due.length === 0) return false;
    if (chaos.shuffle) {
      for (let i = due.length - 1; i > 0; i--) {
        const j = Math.floor(this.#options.random() * (i + 1));
        [due[i], due[j]] = [due[j]!, due[i]!];
      }
    }
    for (let i = 0; i < due.length; i += MAX_EVENTS_PER_POST) {
      const group = due.slice(i, i + MAX_EVENTS_PER_POST);
      for (const r of group) r.inFlight = true;
      const p = this.#attempt(group).finally(() => {
        for (const r of group) r.inFlight = false;
        this.#running.delete(p);
        this.#schedule();
      });
      this.#running.add(p);
    }
    return true;
  }

  /** One POST; the status and the body's text, or null with the error of a network failure or timeout. */
  async #send(raw: string): Promise<{ status: number | null; text: string; error: string | null }> {
    const { url, secret, timeoutMs } = this.#options;
    try {
      const res = await this.#options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-fs-signature': signFastspring(raw, secret), 'user-agent': 'FastSpring sandbox' },
        body: raw,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#abort.signal]),
        redirect: 'manual',
      });
      const text = await res.text().catch(() => '');
      return { status: res.status, text, error: null };
    } catch (err) {
      const name = (err as { name?: string }).name;
      const error = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
      return { status: null, text: '', error };
    }
  }

  #log(post: Omit<FastspringPost, 'n' | 'at'>): void {
    this.#posts.push({ n: ++this.#postSeq, at: Date.now(), ...post });
  }

  async #attempt(group: EventRecord[]): Promise<void> {
    const ids = group.map((r) => r.eventId);
    for (const r of group) r.attempts++;
    const raw = JSON.stringify({ events: group.map((r) => ({ ...r.event, processed: false })) });
    let result: { status: number | null; text: string; error: string | null };
    const simulated = this.#options.takeFailure();
    if (simulated) result = { status: 500, text: '', error: 'failed by setChaos({ failFirst })' };
    else result = await this.#send(raw);
    if (this.#stopped) return;
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
    for (const r of group) {
      r.lastStatus = result.status;
      r.lastError = result.error ?? (acknowledged.has(r.eventId) ? null : result.status === 202 ? 'not listed in the 202 answer' : `answered ${result.status}`);
      if (r.state !== 'pending') continue;
      if (acknowledged.has(r.eventId)) {
        r.state = 'processed';
        r.processedBy = 'webhook';
        r.event.processed = true;
        r.lastError = null;
      } else if (r.attempts >= MAX_ATTEMPTS) r.state = 'failed';
      else r.dueAt = now + this.#options.retryBaseMs * 2 ** (r.attempts - 1);
    }
    const duplicate = this.#options.chaos().duplicate ?? 0;
    if (!simulated && result.status !== null && result.status >= 200 && result.status < 300 && duplicate > 0 && this.#options.random() < duplicate) {
      const again = await this.#send(raw);
      if (!this.#stopped) this.#log({ eventIds: ids, status: again.status, error: again.error, processedIds: [], duplicate: true, simulated: false });
    }
  }
}

/**
 * What the payment stand-ins' webhook outboxes have in common: the chaos switches, the background
 * timer (pause, resume, stop), one POST with a timeout, and `WebhookQueue`, the outbox that sends one
 * item per POST (Paddle, Chargebee, Discord app subscriptions). FastSpring batches its events and
 * builds its own queue from `OutboxTimer` and `postWebhook`. Each provider says how it signs, when it
 * retries and what answer delivers; everything else behaves the same for all of them.
 */

/** Chaos applied to webhook delivery (the providers' `control.setChaos`). */
export interface WebhookChaos {
  /** 0..1: probability that a delivered POST is sent a second time right after (default 0). */
  duplicate?: number;
  /** Send what is due together in random order instead of the order it was made. */
  shuffle?: boolean;
  /**
   * The next n attempts (counted across all deliveries) fail as if the endpoint had answered 500,
   * without sending anything; each is then retried on the provider's schedule.
   */
  failFirst?: number;
}

/** `dropped`: `drop(...)` stopped it, it is never sent again. */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** Where one delivery stands, as the controls' `deliveries()` list it after the provider's own fields. */
export interface DeliveryStatus {
  /** Attempts made so far (including attempts failed by `failFirst`). */
  attempts: number;
  state: DeliveryState;
  /** The endpoint's last HTTP status; null before the first attempt or after a network error / timeout. */
  lastStatus: number | null;
  /** Why the last attempt failed (network error, timeout, chaos, an answer that does not deliver), or null. */
  lastError: string | null;
  /** Extra copies sent by the `duplicate` chaos. */
  duplicates: number;
}

/** What every outbox is given by its plugin. */
export interface OutboxOptions<C extends WebhookChaos = WebhookChaos> {
  url: string;
  fetch: typeof fetch;
  /** The provider's first retry delay in real ms (each provider scales its schedule from it). */
  retryBaseMs: number;
  /** An attempt with no answer after this many real ms fails. */
  timeoutMs: number;
  chaos: () => C;
  /** Consumes one `failFirst` attempt; true when this attempt must fail. */
  takeFailure: () => boolean;
  random: () => number;
}

/** The error of an attempt failed by the `failFirst` chaos (answered 500, nothing sent). */
export const FAILED_BY_CHAOS = 'failed by setChaos({ failFirst })';
/** Deliveries kept; the oldest settled ones are forgotten first. */
export const MAX_KEPT = 5000;

/** The real-time wait before retry n (1-based) that doubles each time: retryBaseMs × 2^(n−1). */
export function exponentialBackoff(retryBaseMs: number): (retry: number) => number {
  return (retry) => retryBaseMs * 2 ** (retry - 1);
}

/** Shuffles in place (Fisher-Yates) with the outbox's random source. */
export function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const index = Math.floor(random() * (i + 1));
    [items[i], items[index]] = [items[index]!, items[i]!];
  }
}

export interface PostResult {
  /** The HTTP status, or null after a network error or timeout. */
  status: number | null;
  /** The answer's body as text when asked for ('' otherwise, or when there is none). */
  text: string;
  error: string | null;
}

/**
 * One webhook POST of `raw` (JSON); resolves to the status (and, with `readText`, the answer's body),
 * or null with the error of a network failure or timeout (`abort` aborts it too).
 */
export async function postWebhook(
  options: Pick<OutboxOptions, 'url' | 'fetch' | 'timeoutMs'>,
  raw: string,
  headers: Record<string, string>,
  abort: AbortSignal,
  readText = false,
): Promise<PostResult> {
  const { url, timeoutMs } = options;
  try {
    const res = await options.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), abort]),
      redirect: 'manual',
    });
    // Read the answer so the connection is reused; its content matters only with `readText` (FastSpring's 202 lists ids).
    let text = '';
    if (readText) text = await res.text().catch(() => '');
    else await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, text, error: null };
  } catch (err) {
    const name = (err as { name?: string }).name;
    const error = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    return { status: null, text: '', error };
  }
}

/**
 * The background side of an outbox: one unref'ed timer set for the earliest due delivery (`nextDue`),
 * which calls `fire` when it rings; pause/resume; `stop` for the plugin's close hook; and the abort
 * signal of the POSTs under way (`abortAll` on reset and stop).
 */
export class OutboxTimer {
  readonly #nextDue: () => number;
  readonly #fire: () => void;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #paused = false;
  #stopped = false;
  #abort = new AbortController();

  constructor(nextDue: () => number, fire: () => void) {
    this.#nextDue = nextDue;
    this.#fire = fire;
  }

  /** True after `stop()`: nothing is sent any more. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Aborts the POSTs under way at `abortAll()` or `stop()`. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Stops the background timer (flush() still delivers). */
  pause(): void {
    this.#paused = true;
    this.clear();
  }

  resume(): void {
    this.#paused = false;
    this.schedule();
  }

  /** Aborts the POSTs under way (their results are not recorded) and clears the timer. */
  abortAll(): void {
    this.clear();
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** The plugin's close hook: no more attempts; those under way are aborted. */
  stop(): void {
    this.#stopped = true;
    this.clear();
    this.#abort.abort();
  }

  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  /** Sets the timer for the earliest due delivery, unless one rings sooner already. */
  schedule(): void {
    if (this.#paused || this.#stopped) return;
    const next = this.#nextDue();
    if (next === Number.POSITIVE_INFINITY || (this.#timer && this.#timerAt <= next)) return;
    this.clear();
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#fire();
        this.schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.#timer.unref();
  }
}

/** One queued item: the provider's fields (`info`), its body and its delivery status. */
export interface QueuedDelivery<I> extends DeliveryStatus {
  info: I;
  /** The JSON body sent at every attempt (signed anew each time). */
  raw: string;
  /** Real time (Date.now) the next attempt is due. */
  dueAt: number;
  inFlight: Promise<void> | null;
}

/** How one provider's one-item-per-POST outbox differs from the others'. */
export interface WebhookQueueOptions<C extends WebhookChaos = WebhookChaos> extends OutboxOptions<C> {
  /** Attempts at most (the first and the retries), then the delivery is `failed`. */
  maxAttempts: number;
  /** The real-time wait before retry n (1-based). */
  retryDelayMs: (retry: number) => number;
  /** The headers of one attempt at sending `raw` besides content-type (signature, auth, user-agent), made anew at each attempt. */
  headers: (raw: string) => Record<string, string>;
  /** Whether an answer delivers it. Default: any 2xx. */
  delivered?: (status: number) => boolean;
  /** The `lastError` of an answer that does not deliver it. Default: none (null). */
  refused?: (status: number) => string;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * The webhook outbox of one provider: every queued item is POSTed to the URL in the background (an
 * unref'ed timer, never inside the request that made it), with the provider's headers made anew at
 * each attempt; an answer that delivers ends it, anything else (another status, no answer within
 * timeoutMs, a network error) retries after `retryDelayMs(attempts)` real ms, `maxAttempts` at most.
 * Providers extend it with how they make, list and drop their items.
 */
export class WebhookQueue<I, C extends WebhookChaos = WebhookChaos> {
  protected readonly options: WebhookQueueOptions<C>;
  /** Every kept item, oldest first. */
  protected items: QueuedDelivery<I>[] = [];
  protected readonly timer: OutboxTimer;

  constructor(options: WebhookQueueOptions<C>) {
    this.options = options;
    this.timer = new OutboxTimer(
      () => this.#nextDue(),
      () => this.#dispatch(this.#due(false)),
    );
  }

  /** Where every kept item stands: its provider's fields, then its delivery status. */
  list(): Array<I & DeliveryStatus> {
    return this.items.map(({ info, attempts, state, lastStatus, lastError, duplicates }) => ({ ...info, attempts, state, lastStatus, lastError, duplicates }));
  }

  pause(): void {
    this.timer.pause();
  }

  resume(): void {
    this.timer.resume();
  }

  /**
   * Sends every item due now (with `ignoreBackoff`, also those waiting for a retry, again and again
   * until none is pending) and waits for the attempts, including those already under way. Works while paused.
   */
  async flush(ignoreBackoff = false): Promise<void> {
    for (let round = 0; round < this.options.maxAttempts + 2; round++) {
      const due = this.#due(ignoreBackoff);
      this.#dispatch(due);
      const running = this.items.flatMap((i) => (i.inFlight ? [i.inFlight] : []));
      if (running.length === 0) break;
      await Promise.all(running);
      if (!ignoreBackoff && due.length === 0) break;
    }
  }

  /** Forgets every item (attempts under way finish unseen). */
  reset(): void {
    this.items = [];
    this.timer.abortAll();
  }

  /** The plugin's close hook: no more attempts; those under way are aborted. */
  stop(): void {
    this.timer.stop();
  }

  /** Queues one item, due now; returns it. */
  protected add(info: I, raw: string): QueuedDelivery<I> {
    const item: QueuedDelivery<I> = { info, attempts: 0, state: 'pending', lastStatus: null, lastError: null, duplicates: 0, raw, dueAt: Date.now(), inFlight: null };
    this.items.push(item);
    this.#trim();
    this.timer.schedule();
    return item;
  }

  /** Called with the items `add` forgot to keep at most MAX_KEPT (the oldest settled ones). */
  protected forgot(_items: QueuedDelivery<I>[]): void {}

  /** One POST of `raw` with these headers (for checks outside the queue too, e.g. Discord's PING). */
  protected post(raw: string, headers: Record<string, string>): Promise<PostResult> {
    return postWebhook(this.options, raw, headers, this.timer.signal);
  }

  #trim(): void {
    let excess = this.items.length - MAX_KEPT;
    if (excess <= 0) return;
    const forgotten: QueuedDelivery<I>[] = [];
    this.items = this.items.filter((queuedDelivery) => {
      if (excess > 0 && queuedDelivery.state !== 'pending') {
        excess--;
        forgotten.push(queuedDelivery);
        return false;
      }
      return true;
    });
    this.forgot(forgotten);
  }

  #nextDue(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const queuedDelivery of this.items) if (queuedDelivery.state === 'pending' && !queuedDelivery.inFlight && queuedDelivery.dueAt < next) next = queuedDelivery.dueAt;
    return next;
  }

  #due(ignoreBackoff: boolean): QueuedDelivery<I>[] {
    const now = Date.now();
    return this.items.filter((i) => i.state === 'pending' && !i.inFlight && (ignoreBackoff || i.dueAt <= now));
  }

  #dispatch(due: QueuedDelivery<I>[]): void {
    if (this.timer.stopped || due.length === 0) return;
    const order = [...due];
    if (this.options.chaos().shuffle) shuffle(order, this.options.random);
    for (const item of order) {
      item.inFlight = this.#attempt(item).finally(() => {
        item.inFlight = null;
        this.timer.schedule();
      });
    }
  }

  async #attempt(item: QueuedDelivery<I>): Promise<void> {
    if (item.state !== 'pending') return;
    item.attempts++;
    const webhookQueue = this.options;
    const result = webhookQueue.takeFailure() ? { status: 500, error: FAILED_BY_CHAOS } : await this.post(item.raw, webhookQueue.headers(item.raw));
    if (this.timer.stopped) return;
    item.lastStatus = result.status;
    item.lastError = result.error;
    if (item.state !== 'pending') return;
    if (result.status !== null && (webhookQueue.delivered ?? is2xx)(result.status)) {
      item.state = 'delivered';
      item.lastError = null;
      const duplicate = webhookQueue.chaos().duplicate ?? 0;
      if (duplicate > 0 && webhookQueue.random() < duplicate) {
        item.duplicates++;
        await this.post(item.raw, webhookQueue.headers(item.raw));
      }
      return;
    }
    if (result.status !== null && result.error === null && webhookQueue.refused) item.lastError = webhookQueue.refused(result.status);
    if (item.attempts >= webhookQueue.maxAttempts) {
      item.state = 'failed';
      return;
    }
    item.dueAt = Date.now() + webhookQueue.retryDelayMs(item.attempts);
  }
}

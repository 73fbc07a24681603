import { type DeliveryStatus, exponentialBackoff, WebhookQueue as Outbox, type OutboxOptions, type WebhookChaos } from '../../kit/webhooks/delivery';
import type { IdSequence } from './ids';
import { signPaddle } from './signature';

/**
 * Chaos applied to webhook delivery (PaddleSandboxControl.setChaos): `duplicate` sends a delivered
 * notification a second time, `shuffle` sends the notifications due together in random order,
 * `failFirst` fails the next n attempts (counted across all notifications) as if answered 500, each
 * then retrying with the usual backoff.
 */
export type PaddleChaos = WebhookChaos;

export interface PaddleEvent {
  event_id: string;
  event_type: string;
  occurred_at: string;
  data: unknown;
}

/** A notification's own fields (a replay is a second notification of the same event). */
interface NotificationInfo {
  eventId: string;
  notificationId: string;
  eventType: string;
  occurredAt: string;
}

/**
 * One notification of an event (a replay is a second notification of the same event) and where it
 * stands: attempts at most 10, `dropped` once `drop(eventId)` stopped it.
 */
export type PaddleDelivery = NotificationInfo & DeliveryStatus;

export interface DeliveryOptions extends OutboxOptions<PaddleChaos> {
  secret: string;
  /** The sandbox's clock (epoch ms): signatures' ts and occurred_at. */
  clock: () => number;
  /** Makes the event and notification ids (the registration's sequence, shared with its engine). */
  ids: IdSequence;
}

export const MAX_ATTEMPTS = 10;

/**
 * The webhook outbox: every event becomes a notification POSTed to the destination in the background
 * (a timer, never inside the request that made the event), signed at each attempt; a 2xx ends it,
 * anything else retries after retryBaseMs * 2^(attempt-1) real milliseconds, 10 attempts at most.
 */
export class WebhookQueue extends Outbox<NotificationInfo, PaddleChaos> {
  readonly #ids: IdSequence;
  readonly #clock: () => number;
  #events = new Map<string, PaddleEvent>();

  constructor(options: DeliveryOptions) {
    const { secret, clock } = options;
    super({
      ...options,
      maxAttempts: MAX_ATTEMPTS,
      retryDelayMs: exponentialBackoff(options.retryBaseMs),
      headers: (raw) => ({ 'paddle-signature': signPaddle(raw, secret, Math.floor(clock() / 1000)), 'user-agent': 'Paddle sandbox' }),
    });
    this.#ids = options.ids;
    this.#clock = clock;
  }

  /** Records an event and queues its notification; returns the event id. */
  enqueue(eventType: string, data: unknown, occurredAt: string): string {
    const event: PaddleEvent = { event_id: this.#ids.next('evt', this.#clock()), event_type: eventType, occurred_at: occurredAt, data: structuredClone(data) };
    this.#events.set(event.event_id, event);
    this.#notify(event);
    return event.event_id;
  }

  /** Like Paddle's replay: a new notification (new notification_id) of the same event. */
  replay(eventId: string): string {
    const event = this.#events.get(eventId);
    if (!event) throw new Error(`replay: no event ${eventId}`);
    return this.#notify(event);
  }

  /** Never delivers the event's pending notifications (one being sent right now may still arrive). */
  drop(eventId: string): void {
    if (!this.#events.has(eventId)) throw new Error(`drop: no event ${eventId}`);
    for (const queuedDelivery of this.items) if (queuedDelivery.info.eventId === eventId && queuedDelivery.state === 'pending') queuedDelivery.state = 'dropped';
  }

  event(eventId: string): PaddleEvent | undefined {
    const event = this.#events.get(eventId);
    return event && structuredClone(event);
  }

  events(): PaddleEvent[] {
    return [...this.#events.values()].map((e) => structuredClone(e));
  }

  /** Forgets every event and notification (attempts under way finish unseen). */
  override reset(): void {
    this.#events.clear();
    super.reset();
  }

  /** Events left with no kept notification are forgotten with the last of them. */
  protected override forgot(): void {
    const live = new Set(this.items.map((n) => n.info.eventId));
    for (const id of this.#events.keys()) if (!live.has(id)) this.#events.delete(id);
  }

  /** Queues a new notification of the event; returns its notification_id. */
  #notify(event: PaddleEvent): string {
    const notificationId = this.#ids.next('ntf', this.#clock());
    const raw = JSON.stringify({ event_id: event.event_id, event_type: event.event_type, occurred_at: event.occurred_at, notification_id: notificationId, data: event.data });
    this.add({ eventId: event.event_id, notificationId, eventType: event.event_type, occurredAt: event.occurred_at }, raw);
    return notificationId;
  }
}

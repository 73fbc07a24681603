import { randomBytes } from 'node:crypto';
import { type DeliveryStatus, WebhookQueue as Outbox, type OutboxOptions, type QueuedDelivery, type WebhookChaos } from '../../kit/webhooks/delivery';
import type { ChargebeeEvent } from './types';

/**
 * Chaos applied to webhook delivery (ChargebeeSandboxControl.setChaos): `duplicate` POSTs a delivered
 * event a second time, `shuffle` sends the events due together in random order, `failFirst` fails the
 * next n attempts (counted across all events) as if answered 500, each then retrying on the (scaled)
 * Chargebee schedule.
 */
export type ChargebeeChaos = WebhookChaos;

/** Chargebee's retry schedule after a failed attempt: +2 min, +6 min, +30 min, +1 h, +5 h, +1 d, +2 d. */
export const RETRY_DELAYS_MIN = [2, 6, 30, 60, 300, 1440, 2880] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MIN.length + 1;

/** The real-time wait before retry n (1-based): retryBaseMs × the schedule's ratio to its first delay. */
export function retryDelayMs(retry: number, retryBaseMs: number): number {
  const minutes = RETRY_DELAYS_MIN[Math.min(retry, RETRY_DELAYS_MIN.length) - 1]!;
  return (retryBaseMs * minutes) / RETRY_DELAYS_MIN[0];
}

/** The `Authorization` header of a webhook: `Basic base64(username:password)`. */
export function webhookAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** The event's own fields in its delivery record. */
interface EventInfo {
  eventId: string;
  eventType: string;
  occurredAt: number;
}

/**
 * One event's webhook delivery, for tests (`control.deliveries()`): attempts at most 8 (the first and
 * 7 retries, those failed by `failFirst` included).
 */
export type ChargebeeDelivery = EventInfo & DeliveryStatus;

export interface DeliveryOptions extends OutboxOptions<ChargebeeChaos> {
  authorization: string;
}

const ALPHANUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random Chargebee-style id: `prefix` and `length` letters and digits (e.g. `ev_16BPgETyVrQbiGhA`). */
export function randomId(prefix = '', length = 16): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const right of bytes) out += ALPHANUM[right % 62];
  return out;
}

/**
 * The webhook outbox: every event is POSTed (JSON, Basic auth) to the URL in the background; a 2xx
 * ends it, anything else (or no answer within timeoutMs) retries on Chargebee's schedule scaled to
 * retryBaseMs, 7 retries at most.
 */
export class WebhookQueue extends Outbox<EventInfo, ChargebeeChaos> {
  /** Each kept event as sent (GET /events answers it) and its delivery. */
  #byId = new Map<string, { event: ChargebeeEvent; delivery: QueuedDelivery<EventInfo> }>();

  constructor(options: DeliveryOptions) {
    const { authorization, retryBaseMs } = options;
    super({
      ...options,
      maxAttempts: MAX_ATTEMPTS,
      retryDelayMs: (retry) => retryDelayMs(retry, retryBaseMs),
      headers: () => ({ authorization, 'user-agent': 'ChargeBee' }),
    });
  }

  enqueue(event: ChargebeeEvent): void {
    const delivery = this.add({ eventId: event.id, eventType: event.event_type, occurredAt: event.occurred_at }, JSON.stringify(event));
    this.#byId.set(event.id, { event: structuredClone(event), delivery });
  }

  drop(eventId: string): void {
    const entry = this.#byId.get(eventId);
    if (!entry) throw new Error(`drop: no event ${eventId}`);
    if (entry.delivery.state === 'pending') entry.delivery.state = 'dropped';
  }

  /** The event as sent, with Chargebee's webhook_status of its delivery (as GET /events/{id} answers). */
  event(eventId: string): (Omit<ChargebeeEvent, 'webhook_status'> & { webhook_status: string; webhooks: unknown[] }) | undefined {
    const entry = this.#byId.get(eventId);
    return entry && this.#withStatus(entry);
  }

  /** Every kept event, oldest first, as GET /events answers them. */
  events(): Array<Omit<ChargebeeEvent, 'webhook_status'> & { webhook_status: string; webhooks: unknown[] }> {
    return [...this.#byId.values()].map((e) => this.#withStatus(e));
  }

  override reset(): void {
    super.reset();
    this.#byId.clear();
  }

  protected override forgot(entries: QueuedDelivery<EventInfo>[]): void {
    for (const queuedDelivery of entries) this.#byId.delete(queuedDelivery.info.eventId);
  }

  #withStatus({ event, delivery: queuedDelivery }: { event: ChargebeeEvent; delivery: QueuedDelivery<EventInfo> }) {
    const status =
      queuedDelivery.state === 'delivered' ? 'succeeded' : queuedDelivery.state === 'failed' ? 'failed' : queuedDelivery.state === 'dropped' ? 'skipped' : queuedDelivery.attempts > 0 ? 're_scheduled' : 'scheduled';
    return { ...structuredClone(event), webhook_status: status, webhooks: [{ id: `whv2_${event.id.slice(3)}`, webhook_status: status, object: 'webhook' }] };
  }
}

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Listener = () => void;

/**
 * "Something new under this topic" for whoever waits on it, on every API instance: a bot's poll for
 * commands (`bot-commands:<bot>`). A signal carries no data, only a topic: the listener reads what is
 * new from the database, so a lost or doubled signal costs a read, never a wrong answer. Listeners
 * also hear every topic whenever signals may have been missed (Redis came back).
 */
export interface Signals {
  publish(topic: string): void;
  /** Calls `listener` on each signal of `topic`; returns what stops it. */
  subscribe(topic: string, listener: Listener): () => void;
  close(): Promise<void>;
}

/** The listeners of one process, by topic. */
class Topics {
  readonly #listeners = new Map<string, Set<Listener>>();

  add(topic: string, listener: Listener): () => void {
    let set = this.#listeners.get(topic);
    if (!set) {
      set = new Set();
      this.#listeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(topic) === set) this.#listeners.delete(topic);
    };
  }

  emit(topic: string): void {
    for (const listener of this.#listeners.get(topic) ?? []) listener();
  }

  emitAll(): void {
    for (const topic of [...this.#listeners.keys()]) this.emit(topic);
  }
}

/** One instance (no REDIS_URL): the signals stay in this process. */
export class LocalSignals implements Signals {
  readonly #topics = new Topics();

  publish(topic: string): void {
    queueMicrotask(() => this.#topics.emit(topic));
  }

  subscribe(topic: string, listener: Listener): () => void {
    return this.#topics.add(topic, listener);
  }

  async close(): Promise<void> {}
}

/**
 * Redis pub/sub on one channel shared by the instances of a database schema, on a subscriber
 * connection of its own. This instance's own signals reach its listeners at once, without Redis; a
 * publish that fails is only logged (debug): the waiters' own re-reads bound the delay.
 */
export class RedisSignals implements Signals {
  readonly #self = randomUUID();
  readonly #topics = new Topics();
  readonly #subscriber: Redis;
  #closing = false;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false, autoResubscribe: false });
    this.#subscriber.on('message', (_channel: string, text: string) => {
      const separator = text.indexOf(' ');
      if (separator < 0 || text.slice(0, separator) === this.#self) return;
      this.#topics.emit(text.slice(separator + 1));
    });
    this.#subscriber.on('ready', () => {
      this.#subscriber.subscribe(this.channel).then(
        // Whatever was said while the subscription was away is lost: every waiter reads again.
        () => this.#topics.emitAll(),
        (error: Error) => log.debug({ err: error.message }, 'signals: subscribe failed (tried again on reconnection)'),
      );
    });
    this.#subscriber.on('error', (error: Error) => log.debug({ err: error.message }, 'signals: redis error'));
  }

  publish(topic: string): void {
    if (this.#closing) return;
    queueMicrotask(() => this.#topics.emit(topic));
    this.redis.publish(this.channel, `${this.#self} ${topic}`).catch((error: Error) => this.log.debug({ err: error.message, topic }, 'signals: publish failed'));
  }

  subscribe(topic: string, listener: Listener): () => void {
    return this.#topics.add(topic, listener);
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.#subscriber.status !== 'ready') this.#subscriber.disconnect();
    else await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }
}

/** The Tickets page's topics: a server's queue (any ticket opened, changed, closed or written in). */
export const queueTopic = (guildId: string) => `tickets:${guildId}`;
/** One ticket: its messages, its row, its commands. */
export const ticketTopic = (guildId: string, ticketId: string) => `ticket:${guildId}:${ticketId}`;

/** Tells the Tickets page's streams that these tickets changed (each once; `queue`: their server's queue too). */
export function publishTickets(signals: Signals, tickets: Iterable<{ guild_id: string; ticket_id: string }>, queue: boolean): void {
  const topics = new Set<string>();
  for (const { guild_id, ticket_id } of tickets) {
    topics.add(ticketTopic(guild_id, ticket_id));
    if (queue) topics.add(queueTopic(guild_id));
  }
  for (const topic of topics) signals.publish(topic);
}

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { DataChange } from '../db/driver';


type Listener = (change: DataChange) => void;

/**
 * Tells every API instance's caches what changed. The instance that changed it applies the
 * change itself at once; the bus carries it to the others. Without Redis there are no others
 * to tell (one instance), or nothing carries it and each cache's TTL bounds how long they keep it.
 */
export interface InvalidationBus {
  publish(change: DataChange): void;
  /** `listener` gets other instances' changes, and `{ kind: 'all' }` whenever some may have been missed. */
  subscribe(listener: Listener): void;
  close(): Promise<void>;
}

/** One instance (no REDIS_URL): nobody else to tell. */
export class LocalInvalidationBus implements InvalidationBus {
  publish(): void {}
  subscribe(): void {}
  async close(): Promise<void> {}
}

const KINDS = new Set(['session', 'user-sessions', 'user', 'server', 'servers', 'all']);
const WITHOUT_ID = new Set(['servers', 'all']);

/** A message from the channel, or null when it is not one of ours (or this instance's own). */
function parse(text: string, self: string): DataChange | null {
  try {
    const message = JSON.parse(text) as { from?: unknown; kind?: unknown; id?: unknown };
    if (message.from === self || typeof message.kind !== 'string' || !KINDS.has(message.kind)) return null;
    if (WITHOUT_ID.has(message.kind)) return { kind: message.kind } as DataChange;
    return typeof message.id === 'string' ? ({ kind: message.kind, id: message.id } as DataChange) : null;
  } catch {
    return null;
  }
}

/**
 * Redis pub/sub on one channel per database schema (the instances that share the data share the
 * channel). A subscriber connection of its own: while it is down nothing arrives, so when it is back
 * the listeners hear `{ kind: 'all' }` (whatever was said meanwhile is lost) and, until then, each
 * cache's TTL bounds what they keep. Publishing never waits or fails the caller: it is bounded by the
 * client's command timeout and a failure is only logged (debug).
 */
export class RedisInvalidationBus implements InvalidationBus {
  readonly #self = randomUUID();
  readonly #listeners: Listener[] = [];
  readonly #subscriber: Redis;
  #closing = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false, autoResubscribe: false });
    this.#subscriber.on('message', (_channel: string, text: string) => {
      const change = parse(text, this.#self);
      if (change) this.#emit(change);
    });
    // Subscribed on every (re)connection, and only once the subscription holds is everything held
    // dropped: what was published while it was away is lost.
    this.#subscriber.on('ready', () => void this.#subscribe());
    this.#subscriber.on('error', (error: Error) => log.debug({ err: error.message }, 'cache change subscriber: redis error'));
  }

  publish(change: DataChange): void {
    if (this.#closing) return;
    this.redis.publish(this.channel, JSON.stringify({ from: this.#self, ...change })).catch((error: Error) => {
      // One warning per outage: the changes after it wait for the same catch-up.
      if (!this.#retry) {
        this.log.warn({ err: error.message, kind: change.kind }, 'cache change not published: other instances keep what they hold for at most SESSION_CACHE_SECONDS');
      }
      this.#tellEveryoneLater();
    });
  }

  async #subscribe(): Promise<void> {
    try {
      await this.#subscriber.subscribe(this.channel);
      this.#emit({ kind: 'all' });
    } catch (error) {
      this.log.debug({ err: (error as Error).message }, 'cache change subscriber: subscribe failed (tried again on reconnection)');
    }
  }

  /** A change that did not go out: once Redis takes messages again, every instance drops everything. */
  #tellEveryoneLater(): void {
    if (this.#retry || this.#closing) return;
    this.#retry = setInterval(() => {
      this.redis
        .publish(this.channel, JSON.stringify({ from: this.#self, kind: 'all' }))
        .then(() => {
          clearInterval(this.#retry);
          this.#retry = undefined;
        })
        .catch(() => undefined);
    }, 1_000);
    this.#retry.unref();
  }

  subscribe(listener: Listener): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#retry);
    // A Redis that is away would hold a polite QUIT until it came back.
    if (this.#subscriber.status !== 'ready') this.#subscriber.disconnect();
    else await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }

  #emit(change: DataChange): void {
    if (this.#closing) return;
    for (const listener of this.#listeners) listener(change);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type Clock, iso } from './clock';

/** How often a Redis marked unreachable is checked again while its connection looks open. */
const REDIS_PROBE_MS = 1_000;

interface RedisCheck {
  reachable: boolean;
  /** The check's round trip; null when it did not answer. */
  latencyMs: number | null;
}

/** What proves Redis usable: by default a PING; the app gives the rate limits' own kind of call (lib/limit-store.ts). */
type RedisProbe = (redis: Redis) => Promise<unknown>;

interface RedisState {
  reachable: boolean;
  /** When this instance last saw Redis become reachable or unreachable. */
  since: string;
  /** Why it is unreachable (the last error), null while it is reachable. */
  error: string | null;
}

const messageOf = (reason: unknown) => (reason instanceof Error ? reason.message : String(reason));

/**
 * Whether the rate limits may use Redis now, as this API instance sees it. Every Redis call is bounded
 * by the client's command timeout (REDIS_TIMEOUT_MS); the first one that fails or times out, a closed
 * connection, or a failed check marks Redis unreachable (one warning in the log), and the limits count
 * in this instance's memory without asking it again. It is reachable again once a check (the probe:
 * the rate limits' own kind of call, so a Redis that answers PING but refuses writes stays
 * unreachable) succeeds: at once when the client reconnects (its `ready`), else every second while the
 * connection looks open (a Redis that hung). That is one info line. Nothing is logged per request.
 */
export class RedisLink {
  #state: 'starting' | 'up' | 'down' = 'starting';
  #since: number;
  #error: string | null = 'not connected yet';
  #closing = false;
  #probing = false;
  readonly #timer: NodeJS.Timeout;

  constructor(
    readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
    private readonly probe: RedisProbe = (r) => r.ping(),
    probeMs: number = REDIS_PROBE_MS,
  ) {
    this.#since = clock();
    redis.on('ready', () => void this.check());
    redis.on('close', () => this.down('the connection closed'));
    // ioredis reports every failed reconnection attempt: the switch itself is logged once, in down().
    redis.on('error', (error: Error) => log.debug({ err: error.message }, 'redis connection error'));
    this.#timer = setInterval(() => void this.#recheck(), probeMs);
    this.#timer.unref();
  }

  /** Whether a rate limit may ask Redis now (else it counts in memory). */
  get usable(): boolean {
    if (this.#state !== 'up') return false;
    if (this.redis.status !== 'ready') {
      this.down(`the connection is ${this.redis.status}`);
      return false;
    }
    return true;
  }

  get state(): RedisState {
    return { reachable: this.#state === 'up', since: iso(this.#since), error: this.#state === 'up' ? null : this.#error };
  }

  /** Redis failed (an error, a timeout, a closed connection): the limits count per instance from now. */
  down(reason: unknown): void {
    if (this.#closing || this.#state === 'down') return;
    this.#state = 'down';
    this.#since = this.clock();
    this.#error = messageOf(reason);
    this.log.warn({ err: this.#error }, 'redis unreachable: rate limits are counted per instance until it answers');
  }

  /** Redis answers: the limits are shared through it from now. */
  up(): void {
    if (this.#closing || this.#state === 'up') return;
    const was = this.#state;
    const downSince = this.#since;
    this.#state = 'up';
    this.#since = this.clock();
    this.#error = null;
    if (was === 'down') this.log.info({ downForMs: this.#since - downSince }, 'redis reachable again: rate limits are shared through it');
  }

  /** The probe (bounded by the command timeout), which also moves the state: on reconnection, every second while down, for /api/status and the System page. */
  async check(): Promise<RedisCheck> {
    if (this.redis.status !== 'ready') {
      this.down(`the connection is ${this.redis.status}`);
      return { reachable: false, latencyMs: null };
    }
    const started = performance.now();
    try {
      await this.probe(this.redis);
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      this.up();
      return { reachable: true, latencyMs };
    } catch (error) {
      this.down(error);
      return { reachable: false, latencyMs: null };
    }
  }

  async #recheck(): Promise<void> {
    if (this.#state !== 'down' || this.#probing || this.#closing || this.redis.status !== 'ready') return;
    this.#probing = true;
    try {
      await this.check();
    } finally {
      this.#probing = false;
    }
  }

  /** The app closes: quitting is not an outage. */
  close(): void {
    this.#closing = true;
    clearInterval(this.#timer);
  }
}

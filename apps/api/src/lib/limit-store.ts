import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RedisLink } from './redis-link';

/** Keys a local counter remembers per limit (the least recently used are dropped), as @fastify/rate-limit's own. */
const LOCAL_KEYS = 5_000;

interface Counted {
  current: number;
  /** Milliseconds left in the window. */
  ttl: number;
}

/**
 * Fixed-window counters in this process's memory, one per key: what @fastify/rate-limit's local store
 * does (a window starts with a key's first request and lasts `windowMs`).
 */
class LocalCounts {
  readonly #entries = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly capacity: number = LOCAL_KEYS) {}

  incr(key: string, windowMs: number, now: number = Date.now()): Counted {
    let entry = this.#entries.get(key);
    if (entry) this.#entries.delete(key);
    if (!entry || entry.resetAt <= now) entry = { count: 0, resetAt: now + windowMs };
    entry.count += 1;
    // Re-inserted last: the Map's order is the recency order, its first key the one to drop.
    this.#entries.set(key, entry);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return { current: entry.count, ttl: entry.resetAt - now };
  }
}

// The same counter @fastify/rate-limit's Redis store keeps (INCR, the window's PEXPIRE on the first
// request), so instances of an older release share the counts during a rolling deploy; a key that lost
// its expiry gets one again instead of counting for ever.
const LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type LimitRedis = Redis & { ticketyRateLimit(key: string, windowMs: number): Promise<[number, number]> };

function withCommand(redis: Redis): LimitRedis {
  const commands = redis as LimitRedis;
  if (typeof commands.ticketyRateLimit !== 'function') redis.defineCommand('ticketyRateLimit', { numberOfKeys: 1, lua: LUA });
  return commands;
}

/** Where the counters live in Redis (before each limit's own prefix). */
export const LIMIT_NAMESPACE = 'tickety-rl:';

/**
 * RedisLink's probe: one count on a key of its own, the call every limit makes, so Redis is "reachable"
 * only when the limits can count there (a read-only replica or a full Redis answers PING but not this).
 */
export const limitProbe = (redis: Redis): Promise<unknown> => withCommand(redis).ticketyRateLimit(`${LIMIT_NAMESPACE}probe`, 10_000);

/**
 * A @fastify/rate-limit store that counts in Redis while Redis answers and in this instance's memory
 * while it does not (see RedisLink), for every limit of the app: the global one and each route's own
 * (sign-in, per user, per staff member, per provider call) and `createRateLimit`'s (refused bot keys),
 * which are its children. The memory counters always count too, so a fall-back starts from what this
 * instance has seen in the window rather than from zero. A failed or timed-out Redis call answers from
 * memory: a request is never let through uncounted, nor held longer than the command timeout.
 */
export function sharedOrLocalStore(link: RedisLink, namespace: string): FastifyRateLimitStoreCtor {
  const redis = withCommand(link.redis);

  class SharedOrLocalStore implements FastifyRateLimitStore {
    readonly #local = new LocalCounts();

    constructor(
      _options: unknown,
      private readonly prefix: string = namespace,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number): void {
      const local = this.#local.incr(key, timeWindow);
      if (!link.usable) {
        callback(null, local);
        return;
      }
      redis.ticketyRateLimit(this.prefix + key, timeWindow).then(
        ([current, ttl]) => callback(null, { current: Number(current), ttl: Number(ttl) }),
        (error: unknown) => {
          link.down(error);
          callback(null, local);
        },
      );
    }

    /**
     * A route's own limit: its own counters (in Redis under the route's method and URL, as
     * @fastify/rate-limit names them). The plugin passes the limit's options with `routeInfo`, the route
     * (its types say the route's options).
     */
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new SharedOrLocalStore(routeOptions, `${this.prefix}${String(route.method)}${String(route.url)}-`);
    }
  }
  return SharedOrLocalStore as unknown as FastifyRateLimitStoreCtor;
}

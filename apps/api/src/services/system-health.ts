import type { HealthState, ShardHeartbeat, StaffSystemAnswer, StatusResponse } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import type { LogThrottle } from '../lib/log';
import type { RecentErrors } from '../lib/recent-errors';
import type { RedisLink } from '../lib/redis-link';
import { API_VERSION } from '../lib/version';

/** A database check slower than this is "degraded" on the status page; one that does not finish in time is "down". */
const DB_SLOW_MS = 1_000;
const DB_TIMEOUT_MS = 3_000;
/** The System page's database check waits this long. */
const SYSTEM_DB_CHECK_MS = 2_000;
/** How old the status a page arrives with may be (one check per instance in that time, whoever asks). */
export const STATUS_SNAPSHOT_MAX_AGE_MS = 5_000;
/** A visitor past this age still gets the cached status at once, while a check refreshes it behind them. */
export const STATUS_SNAPSHOT_REFRESH_AFTER_MS = 2_500;
/** A page waits this long for a status check; past it, it says the status is unknown (degraded). */
export const STATUS_SNAPSHOT_WAIT_MS = 1_000;
/** A shard without a heartbeat for this long is not counted as healthy. */
export const SHARD_STALE_MS = 120_000;

const STARTED_AT = new Date().toISOString();
const rank: Record<HealthState, number> = { operational: 0, degraded: 1, down: 2 };

type Shard = StatusResponse['shards'][number];

interface SystemHealthDeps {
  db: Db;
  clock: Clock;
  /** The product's bot (its shards are the ones shown). */
  botId: string;
  /** REDIS_URL's link, null without one. */
  redis: RedisLink | null;
  recentErrors: RecentErrors;
  logThrottle: LogThrottle;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The service's health as the public status page (`/api/status`), the staff System page and the
 * readiness check read it: the database, Redis, the bot's shards (written by the bot's heartbeats).
 */
export class SystemHealth {
  constructor(private readonly deps: SystemHealthDeps) {}

  private snapshot: { at: number; status: StatusResponse } | null = null;
  private checking: Promise<StatusResponse> | null = null;

  /**
   * The public status for a page's HTML: the last check's if it is at most STATUS_SNAPSHOT_MAX_AGE_MS
   * old, else a new one, shared by every request that asks meanwhile (a crowd costs one check). Past
   * STATUS_SNAPSHOT_REFRESH_AFTER_MS a visitor still gets the cached status at once while a check
   * runs behind it, so under steady traffic no visitor waits for one. A check that takes longer than
   * STATUS_SNAPSHOT_WAIT_MS (a dead database: its ping waits 3 s) is not waited for: the page says
   * the status is unknown, and the check still fills the cache when it ends.
   */
  async statusSnapshot(log: FastifyBaseLogger): Promise<StatusResponse> {
    const age = this.snapshot ? this.deps.clock() - this.snapshot.at : Number.POSITIVE_INFINITY;
    if (this.snapshot && age < STATUS_SNAPSHOT_MAX_AGE_MS) {
      if (age >= STATUS_SNAPSHOT_REFRESH_AFTER_MS) void this.startCheck(log).catch(() => undefined);
      return this.snapshot.status;
    }
    const checking = this.startCheck(log);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), STATUS_SNAPSHOT_WAIT_MS);
    });
    try {
      return (await Promise.race([checking, late])) ?? this.unknownStatus();
    } catch {
      return this.unknownStatus();
    } finally {
      clearTimeout(timer);
    }
  }

  /** The running check for the snapshot, or a new one (which fills the cache when it ends). */
  private startCheck(log: FastifyBaseLogger): Promise<StatusResponse> {
    if (this.checking) return this.checking;
    const { clock } = this.deps;
    const check = this.status(log).then((status) => {
      this.snapshot = { at: clock(), status };
      return status;
    });
    this.checking = check;
    void check.then(
      () => undefined,
      (error: unknown) => log.warn({ err: messageOf(error) }, 'status: the check failed'),
    );
    void check.finally(() => {
      if (this.checking === check) this.checking = null;
    }).catch(() => undefined);
    return check;
  }

  /** What a page says while no check has answered in time: the API is up, the rest unknown. */
  private unknownStatus(): StatusResponse {
    return {
      status: 'degraded',
      checkedAt: iso(this.deps.clock()),
      services: [
        { name: 'api', status: 'operational', latencyMs: 0 },
        { name: 'database', status: 'degraded', latencyMs: null, reason: 'check_timeout', detail: 'The status check did not finish in time: the state of the database and the bot is unknown.' },
      ],
      shards: [],
    };
  }

  /** One round trip to the database within `deadlineMs`: its latency in ms (unrounded), or a throw. */
  async ping(deadlineMs: number): Promise<number> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.deps.db.query('SELECT 1 AS ok'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    return performance.now() - started;
  }

  /** The bot's shards as their last heartbeats said. */
  async shards(): Promise<Shard[]> {
    const { rows } = await this.deps.db.query<{ id: number; state: string; latency_ms: number | null; guilds: number; last_heartbeat: unknown }>(
      'SELECT id, state, latency_ms, guilds, last_heartbeat FROM bot_shards WHERE bot_id = $1 ORDER BY id',
      [this.deps.botId],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      state: row.state,
      latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
      guilds: Number(row.guilds),
      lastHeartbeat: iso(toMs(row.last_heartbeat) ?? 0),
    }));
  }

  /** A bot's heartbeat: each shard's state, stored (one row per bot and shard). */
  async recordShards(botId: string, shards: ShardHeartbeat[]): Promise<void> {
    await this.deps.db.query(
      `INSERT INTO bot_shards (bot_id, id, state, latency_ms, guilds, last_heartbeat)
       SELECT $6, s.*, $5::timestamptz FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) AS s(id, state, latency_ms, guilds)
       ON CONFLICT (bot_id, id) DO UPDATE SET state = EXCLUDED.state, latency_ms = EXCLUDED.latency_ms, guilds = EXCLUDED.guilds, last_heartbeat = EXCLUDED.last_heartbeat`,
      [shards.map((s) => s.id), shards.map((s) => s.state), shards.map((s) => s.latencyMs), shards.map((s) => s.guilds), iso(this.deps.clock()), botId],
    );
  }

  /** The public status: the API, the database (with latency), Redis when configured, and the bot's shards. */
  async status(log: FastifyBaseLogger): Promise<StatusResponse> {
    const { clock, redis, logThrottle } = this.deps;
    const services: StatusResponse['services'] = [{ name: 'api', status: 'operational', latencyMs: 0 }];
    let shards: Shard[] = [];
    let databaseUp = true;
    try {
      const latencyMs = Math.round(await this.ping(DB_TIMEOUT_MS));
      services.push(
        latencyMs > DB_SLOW_MS
          ? { name: 'database', status: 'degraded', latencyMs, reason: 'database_slow', detail: 'The database is answering slowly.' }
          : { name: 'database', status: 'operational', latencyMs },
      );
    } catch (error) {
      databaseUp = false;
      logThrottle.warn(log, { err: messageOf(error) }, 'status: database check failed', messageOf(error));
      services.push({ name: 'database', status: 'down', latencyMs: null, reason: 'database_down', detail: 'The database is not answering.' });
    }
    if (databaseUp) {
      try {
        shards = await this.shards();
      } catch (error) {
        log.warn({ err: messageOf(error) }, 'status: shard query failed');
      }
    }
    // Redis (REDIS_URL only): while it does not answer, the rate limits count per instance.
    if (redis) {
      const check = await redis.check();
      services.push(
        check.reachable
          ? { name: 'redis', status: 'operational', latencyMs: check.latencyMs }
          : { name: 'redis', status: 'down', latencyMs: null, reason: 'redis_down', detail: 'Redis is not answering: rate limits are counted on each API instance until it is back.' },
      );
    }
    if (shards.length > 0) {
      const now = clock();
      const healthy = shards.filter((s) => s.state === 'ready' && now - Date.parse(s.lastHeartbeat) < SHARD_STALE_MS).length;
      services.push({
        name: 'bot',
        status: healthy === shards.length ? 'operational' : healthy === 0 ? 'down' : 'degraded',
        latencyMs: null,
        ...(healthy === shards.length ? {} : { reason: 'shards_not_ready' as const, detail: `${shards.length - healthy} of ${shards.length} shards are not ready.` }),
      });
    }
    // The API answers, so the whole is at worst "degraded" when a dependency is slow or down.
    const worst = services.reduce<HealthState>((acc, s) => (rank[s.status] > rank[acc] ? s.status : acc), 'operational');
    return { status: worst === 'operational' ? 'operational' : 'degraded', checkedAt: iso(clock()), services, shards };
  }

  /**
   * The System page's health: the database (reachable, latency, pool, size), Redis (a probe, which
   * also moves the limits' state), the bot's shards, this instance's recent server errors, the API's version.
   */
  async system(log: FastifyBaseLogger): Promise<StaffSystemAnswer> {
    const { db, redis, recentErrors, logThrottle } = this.deps;
    let latencyMs: number | null = null;
    let sizeBytes: number | null = null;
    let shards: Shard[] = [];
    try {
      latencyMs = Math.round(await this.ping(SYSTEM_DB_CHECK_MS));
      const size = await db.query<{ size: string | number }>('SELECT pg_database_size(current_database()) AS size');
      sizeBytes = Number(size.rows[0]?.size ?? 0);
      shards = await this.shards();
    } catch (error) {
      logThrottle.warn(log, { err: messageOf(error) }, 'system: a database check failed', messageOf(error));
    }
    const redisLatencyMs = redis ? (await redis.check()).latencyMs : null;
    return {
      database: { kind: db.kind, reachable: latencyMs !== null, latencyMs, sizeBytes, pool: db.poolStats?.() ?? null },
      redis: redis ? { ...redis.state, latencyMs: redisLatencyMs } : null,
      shards,
      errors: recentErrors.list(),
      api: { version: API_VERSION, node: process.version, startedAt: STARTED_AT, uptimeSeconds: Math.round(process.uptime()) },
    };
  }
}

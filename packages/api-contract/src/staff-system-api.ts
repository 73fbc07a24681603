import { z } from './zod-setup';

/**
 * REDIS_URL's Redis as this API instance sees it (`GET /api/staff/system`): while it is unreachable
 * (refusing, or slower than REDIS_TIMEOUT_MS) every rate limit counts in each instance's memory.
 */
export const StaffSystemRedis = z.object({
  reachable: z.boolean(),
  /** The round trip of a check (one count on a probe key); null when it did not answer. */
  latencyMs: z.number().nullable(),
  /** When this instance last saw it become reachable or unreachable. */
  since: z.string(),
  /** Why it is unreachable (the client's last error); null while it answers. */
  error: z.string().nullable(),
});
export type StaffSystemRedis = z.infer<typeof StaffSystemRedis>;

export const StaffSystemDatabase = z.object({
  kind: z.enum(['pglite', 'postgres']),
  reachable: z.boolean(),
  latencyMs: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  pool: z.object({ total: z.number().int(), idle: z.number().int(), waiting: z.number().int(), max: z.number().int() }).nullable(),
});
export type StaffSystemDatabase = z.infer<typeof StaffSystemDatabase>;

/** A bot shard as its last heartbeat said. */
export const StaffSystemShard = z.object({ id: z.number().int(), state: z.string(), latencyMs: z.number().nullable(), guilds: z.number().int(), lastHeartbeat: z.string() });
export type StaffSystemShard = z.infer<typeof StaffSystemShard>;

/** One of this instance's recent server errors (its request id is the one to find in the logs). */
export const StaffSystemError = z.object({
  at: z.string(),
  requestId: z.string(),
  method: z.string(),
  route: z.string().nullable(),
  status: z.number().int(),
  code: z.number().int(),
  message: z.string(),
});
export type StaffSystemError = z.infer<typeof StaffSystemError>;

/** `GET /api/staff/system`: the System page's health. */
export const StaffSystemAnswer = z.object({
  database: StaffSystemDatabase,
  /** Null without REDIS_URL (the limits are then always per instance). */
  redis: StaffSystemRedis.nullable(),
  shards: z.array(StaffSystemShard),
  errors: z.array(StaffSystemError),
  api: z.object({ version: z.string(), node: z.string(), startedAt: z.string(), uptimeSeconds: z.number().int() }),
});
export type StaffSystemAnswer = z.infer<typeof StaffSystemAnswer>;

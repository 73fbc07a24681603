import { ApiError, BillingProvider, StaffSystemAnswer } from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { iso } from '../../lib/clock';
import { ApiHttpError } from '../../lib/errors';
import { API_VERSION } from '../../lib/version';
import { writeStaffAudit } from '../../services/staff-audit';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

const Queue = z.object({
  provider: BillingProvider,
  pending: z.number().int(),
  /** Pending events that failed at least once (retrying with backoff). */
  failing: z.number().int(),
  dead: z.number().int(),
  oldestPendingAt: z.string().nullable(),
});
const DeadLetter = z.object({
  id: z.string(),
  provider: BillingProvider,
  type: z.string(),
  key: z.string(),
  subject: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  receivedAt: z.string(),
});
const WebhooksAnswer = z.object({ queues: z.array(Queue), dead: z.array(DeadLetter), nextCursor: z.string().nullable() });
/** PostgreSQL's bigint: a larger id is no event's (and must be refused, not sent to the database). */
const BIGINT_MAX = 9_223_372_036_854_775_807n;
const WebhooksQuery = z.object({
  provider: BillingProvider.optional(),
  /** The last dead letter of the previous page (`nextCursor`). */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a cursor from the previous page')
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= BIGINT_MAX, 'must be a cursor from the previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
const STARTED_AT = new Date().toISOString();
const DB_CHECK_MS = 2_000;

const ReplayParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a webhook event id')
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= BIGINT_MAX, 'must be a webhook event id'),
});
const ReplayAnswer = z.object({ replayed: z.literal(true) });

/**
 * Staff tools' API (`/api/staff`). The payment providers' webhook queues: what waits, what retries,
 * and the dead letters (events that failed every attempt) with their last error, for staff with
 * DASHBOARD_SUPPORT_SYSTEM_READ; a dead letter is replayed (queued again, applied by the worker) by
 * staff with DASHBOARD_SUPPORT_SYSTEM_WRITE, written to the staff audit in the same transaction.
 */
export default async function staffRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_READ') } as const;
  const write = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_WRITE') } as const;
  const userOf = async (req: FastifyRequest) => (await req.getSession())!.userId;

  // The service's health for the System page: the database (reachable, latency, pool, size), Redis (the
  // shared rate limits: a probe count, bounded like every Redis call), the bot's shards, this instance's recent
  // server errors (request ids to find in the logs), the API's version.
  app.get('/system', { ...read, schema: { response: { 200: StaffSystemAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const started = performance.now();
    let reachable = true;
    let latencyMs: number | null = null;
    let sizeBytes: number | null = null;
    let shards: StaffSystemAnswer['shards'] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.db.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${DB_CHECK_MS} ms`)), DB_CHECK_MS);
        }),
      ]);
      latencyMs = Math.round(performance.now() - started);
      const size = await app.db.query<{ size: string | number }>('SELECT pg_database_size(current_database()) AS size');
      sizeBytes = Number(size.rows[0]?.size ?? 0);
      const { rows } = await app.db.query<{ id: number; state: string; latency_ms: number | null; guilds: number; last_heartbeat: Date | string }>(
        'SELECT id, state, latency_ms, guilds, last_heartbeat FROM bot_shards WHERE bot_id = $1 ORDER BY id',
        [app.config.discord.clientId],
      );
      shards = rows.map((r) => ({
        id: Number(r.id),
        state: r.state,
        latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
        guilds: Number(r.guilds),
        lastHeartbeat: new Date(r.last_heartbeat).toISOString(),
      }));
    } catch (error) {
      reachable = latencyMs !== null;
      const err = error instanceof Error ? error.message : String(error);
      app.logThrottle.warn(req.log, { err }, 'system: a database check failed', err);
    } finally {
      clearTimeout(timer);
    }
    // The check moves the limits' state too (a probe that answers ends a fall-back at once).
    const link = app.redisLink;
    const redisLatencyMs = link ? (await link.check()).latencyMs : null;
    return {
      database: { kind: app.db.kind, reachable, latencyMs, sizeBytes, pool: app.db.poolStats?.() ?? null },
      redis: link ? { ...link.state, latencyMs: redisLatencyMs } : null,
      shards,
      errors: app.recentErrors.list(),
      api: { version: API_VERSION, node: process.version, startedAt: STARTED_AT, uptimeSeconds: Math.round(process.uptime()) },
    };
  });

  app.get('/webhooks', { ...read, schema: { querystring: WebhooksQuery, response: { 200: WebhooksAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const { provider, cursor, limit } = req.query;
    const queues = await app.db.query<{ provider: BillingProvider; pending: string; failing: string; dead: string; oldest: Date | string | null }>(
      `SELECT provider, count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'pending' AND attempts > 0) AS failing,
              count(*) FILTER (WHERE state = 'dead') AS dead, min(received_at) FILTER (WHERE state = 'pending') AS oldest
       FROM webhook_events WHERE state <> 'applied' GROUP BY provider`,
    );
    const byProvider = new Map(queues.rows.map((r) => [r.provider, r]));
    const { rows } = await app.db.query<{ id: string; provider: BillingProvider; event_type: string; event_key: string; subject: string | null; attempts: number; last_error: string | null; received_at: Date | string }>(
      `SELECT id::text AS id, provider, event_type, event_key, subject, attempts, last_error, received_at FROM webhook_events
       WHERE state = 'dead' AND ($1::text IS NULL OR provider = $1) AND ($2::bigint IS NULL OR id < $2::bigint)
       ORDER BY id DESC LIMIT $3`,
      [provider ?? null, cursor ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    return {
      queues: BillingProvider.options.map((p) => {
        const r = byProvider.get(p);
        return {
          provider: p,
          pending: Number(r?.pending ?? 0),
          failing: Number(r?.failing ?? 0),
          dead: Number(r?.dead ?? 0),
          oldestPendingAt: r?.oldest ? new Date(r.oldest).toISOString() : null,
        };
      }),
      dead: page.map((r) => ({
        id: r.id,
        provider: r.provider,
        type: r.event_type,
        key: r.event_key,
        subject: r.subject,
        attempts: r.attempts,
        lastError: r.last_error,
        receivedAt: new Date(r.received_at).toISOString(),
      })),
      nextCursor: rows.length > limit ? page.at(-1)!.id : null,
    };
  });

  app.post('/webhooks/:id/replay', { ...write, schema: { params: ReplayParams, response: { 200: ReplayAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const staffId = await userOf(req);
    const replayed = await app.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ provider: string; event_key: string }>(
        `UPDATE webhook_events SET state = 'pending', attempts = 0, next_attempt_at = $2 WHERE id = $1 AND state = 'dead' RETURNING provider, event_key`,
        [req.params.id, iso(app.clock())],
      );
      const row = rows[0];
      if (!row) return false;
      await writeStaffAudit(tx, { at: app.clock(), staffId, action: 'webhook.replay', target: `${row.provider} event ${row.event_key} (#${req.params.id})` });
      return true;
    });
    if (!replayed) throw new ApiHttpError('NOT_FOUND', { message: 'There is no dead webhook event with this id (replayed already?).' });
    app.inboxWorker.nudge();
    return { replayed: true as const };
  });
}

import { BillingProvider, type StaffWebhooksAnswer, type StaffWebhooksQuery } from '@tickety/api-contract';
import type { Db } from '../../db/driver';
import { type Clock, iso, toMs } from '../../lib/clock';
import { writeStaffAudit } from '../staff-audit';

/**
 * The webhook inbox as staff see it on the System page: each provider's queue (what waits, what
 * retries, what died) and the dead letters; a dead letter replayed (queued again) with its staff audit row.
 */
export class WebhookQueue {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async view({ provider, cursor, limit }: StaffWebhooksQuery): Promise<StaffWebhooksAnswer> {
    const queues = await this.db.query<{ provider: BillingProvider; pending: string; failing: string; dead: string; oldest: unknown }>(
      `SELECT provider, count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'pending' AND attempts > 0) AS failing,
              count(*) FILTER (WHERE state = 'dead') AS dead, min(received_at) FILTER (WHERE state = 'pending') AS oldest
       FROM webhook_events WHERE state <> 'applied' GROUP BY provider`,
    );
    const byProvider = new Map(queues.rows.map((row) => [row.provider, row]));
    const { rows } = await this.db.query<{ id: string; provider: BillingProvider; event_type: string; event_key: string; subject: string | null; attempts: number; last_error: string | null; received_at: unknown }>(
      `SELECT id::text AS id, provider, event_type, event_key, subject, attempts, last_error, received_at FROM webhook_events
       WHERE state = 'dead' AND ($1::text IS NULL OR provider = $1) AND ($2::bigint IS NULL OR id < $2::bigint)
       ORDER BY id DESC LIMIT $3`,
      [provider ?? null, cursor ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    return {
      queues: BillingProvider.options.map((name) => {
        const row = byProvider.get(name);
        const oldest = toMs(row?.oldest);
        return {
          provider: name,
          pending: Number(row?.pending ?? 0),
          failing: Number(row?.failing ?? 0),
          dead: Number(row?.dead ?? 0),
          oldestPendingAt: oldest === null ? null : iso(oldest),
        };
      }),
      dead: page.map((row) => ({
        id: row.id,
        provider: row.provider,
        type: row.event_type,
        key: row.event_key,
        subject: row.subject,
        attempts: row.attempts,
        lastError: row.last_error,
        receivedAt: iso(toMs(row.received_at) ?? 0),
      })),
      nextCursor: rows.length > limit ? page.at(-1)!.id : null,
    };
  }

  /** Queues a dead letter again (the worker applies it), audited in the same transaction; false when there is no such dead letter. */
  async replay(id: string, staffId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ provider: string; event_key: string }>(
        `UPDATE webhook_events SET state = 'pending', attempts = 0, next_attempt_at = $2 WHERE id = $1 AND state = 'dead' RETURNING provider, event_key`,
        [id, iso(this.clock())],
      );
      const row = rows[0];
      if (!row) return false;
      await writeStaffAudit(tx, { at: this.clock(), staffId, action: 'webhook.replay', target: `${row.provider} event ${row.event_key} (#${id})` });
      return true;
    });
  }
}

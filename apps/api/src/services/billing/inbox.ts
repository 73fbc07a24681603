import { ZodError } from 'zod';
import type { Db } from '../../db/driver';
import { type Clock, iso } from '../../lib/clock';
import { type Applier, type InboxEvent, NotYetError, type Provider } from './types';

interface InboxOptions {
  /** Attempts before an event goes to the dead letters (staff replay it from there). */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_INBOX_OPTIONS: InboxOptions = { maxAttempts: 8, baseDelayMs: 5_000, maxDelayMs: 3_600_000 };

interface InboxWaiter {
  provider: Provider;
  event: InboxEvent;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
}

interface Row {
  id: string;
  provider: Provider;
  event_key: string;
  event_type: string;
  subject: string | null;
  occurred_at: Date | string | null;
  payload: unknown;
  attempts: number;
}

/**
 * The webhook inbox: a durable queue in the database. `store` writes each verified provider event
 * once (by the provider's event key) before the provider gets its answer; `work` takes due events
 * with row locks that skip what another instance holds, applies each in a savepoint of the same
 * transaction that marks it applied (so a crash between storing and applying leaves it pending, and
 * applying never happens twice), and on failure records the attempt and its next time, ending in
 * `dead` after the last attempt.
 */
export class WebhookInbox {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly appliers: Partial<Record<Provider, Applier>>,
    private readonly options: InboxOptions = DEFAULT_INBOX_OPTIONS,
  ) {}

  /**
   * The provider's subscription a checkout made, once its webhook has been applied (null before):
   * Paddle's by the checkout's transaction, FastSpring's by its initial order.
   */
  async checkoutSubject(provider: 'paddle' | 'fastspring', reference: string): Promise<string | null> {
    const where =
      provider === 'paddle'
        ? `provider = 'paddle' AND ((event_type = 'subscription.created' AND payload->'data'->>'transaction_id' = $1) OR (event_type = 'transaction.completed' AND payload->'data'->>'id' = $1))`
        : `provider = 'fastspring' AND event_type = 'subscription.activated' AND payload->'data'->>'initialOrderId' = $1`;
    const { rows } = await this.db.query<{ subject: string | null }>(`SELECT subject FROM webhook_events WHERE ${where} AND state = 'applied' LIMIT 1`, [reference]);
    return rows[0]?.subject ?? null;
  }

  /** Events waiting for the next write, with whoever waits for them. */
  #queue: InboxWaiter[] = [];
  #flushing = false;

  /**
   * Stores events; answers which keys were new. Duplicates (the same provider and key, stored before
   * or in the same write) change nothing. Webhooks arriving together are written together: each call
   * joins the next write (one INSERT for all, so one commit instead of one each), and resolves once
   * that write has committed, so an answer still means the event is stored.
   */
  async store(provider: Provider, events: readonly InboxEvent[]): Promise<{ stored: string[]; duplicates: string[] }> {
    const results = await Promise.all(
      events.map(
        (event) =>
          new Promise<boolean>((resolve, reject) => {
            this.#queue.push({ provider, event, resolve, reject });
            if (!this.#flushing) {
              this.#flushing = true;
              setImmediate(() => void this.#flush());
            }
          }),
      ),
    );
    return { stored: events.filter((_, i) => results[i]).map((e) => e.key), duplicates: events.filter((_, i) => !results[i]).map((e) => e.key) };
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, 500);
      try {
        await this.#write(batch);
      } catch (error) {
        // One event the database refuses must not fail the others written with it: each alone.
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const one of batch) await this.#write([one]).catch((e: unknown) => one.reject(e));
      }
    }
    this.#flushing = false;
  }

  async #write(batch: InboxWaiter[]): Promise<void> {
    const now = iso(this.clock());
    const { rows } = await this.db.query<{ provider: Provider; event_key: string }>(
      `INSERT INTO webhook_events (provider, event_key, event_type, subject, occurred_at, payload, received_at, next_attempt_at)
       SELECT k.provider, k.key, k.type, k.subject, k.occurred_at, k.payload, $7, $7
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::jsonb[]) AS k(provider, key, type, subject, occurred_at, payload)
       ON CONFLICT (provider, event_key) DO NOTHING
       RETURNING provider, event_key`,
      [
        batch.map((b) => b.provider),
        batch.map((b) => b.event.key),
        batch.map((b) => b.event.type),
        batch.map((b) => b.event.subject),
        batch.map((b) => b.event.occurredAt),
        batch.map((b) => JSON.stringify(b.event.payload)),
        now,
      ],
    );
    // Each new key is the first of its copies in the batch; the others are duplicates.
    const fresh = new Set(rows.map((r) => `${r.provider}\u0000${r.event_key}`));
    for (const b of batch) b.resolve(fresh.delete(`${b.provider}\u0000${b.event.key}`));
  }

  /**
   * Applies up to `limit` due events; answers how many were applied, failed (to retry) and went dead.
   * A batch is first applied straight (one statement per event, one to mark them all); should any
   * event fail, that transaction is rolled back and the batch applied again with a savepoint around
   * each event, so the failing ones are set aside and the rest still applied.
   */
  async work(limit = 100): Promise<{ applied: number; failed: number; dead: number }> {
    try {
      return await this.#work(limit, false);
    } catch (error) {
      if (!(error instanceof BatchFailed)) throw error;
      return this.#work(limit, true);
    }
  }

  async #work(limit: number, careful: boolean): Promise<{ applied: number; failed: number; dead: number }> {
    const result = { applied: 0, failed: 0, dead: 0 };
    return this.db.transaction(async (tx) => {
      const now = iso(this.clock());
      const { rows } = await tx.query<Row>(
        `SELECT id, provider, event_key, event_type, subject, occurred_at, payload, attempts FROM webhook_events
         WHERE state = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      const applied: Array<{ id: string; outcome: string }> = [];
      const failures: Array<{ row: Row; error: string }> = [];
      for (const row of rows) {
        if (careful) await tx.query('SAVEPOINT apply_event');
        try {
          const applier = this.appliers[row.provider];
          if (!applier) throw new Error(`no applier for ${row.provider} on this instance`);
          const outcome = await applier(tx, {
            id: String(row.id),
            provider: row.provider,
            key: row.event_key,
            type: row.event_type,
            subject: row.subject,
            occurredAt: row.occurred_at === null ? null : new Date(row.occurred_at).toISOString(),
            payload: row.payload,
            attempts: row.attempts,
          });
          if (careful) await tx.query('RELEASE SAVEPOINT apply_event');
          applied.push({ id: String(row.id), outcome: outcome.slice(0, 500) });
        } catch (error) {
          if (!careful) throw new BatchFailed();
          await tx.query('ROLLBACK TO SAVEPOINT apply_event');
          failures.push({ row, error: describe(error) });
        }
      }
      if (applied.length > 0) {
        await tx.query(
          `UPDATE webhook_events w SET state = 'applied', applied_at = $1, outcome = a.outcome, attempts = w.attempts + 1, last_error = NULL
           FROM unnest($2::bigint[], $3::text[]) AS a(id, outcome) WHERE w.id = a.id`,
          [now, applied.map((a) => a.id), applied.map((a) => a.outcome)],
        );
        result.applied = applied.length;
      }
      for (const { row, error } of failures) {
        const attempts = row.attempts + 1;
        const dead = attempts >= this.options.maxAttempts;
        const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (attempts - 1));
        await tx.query(`UPDATE webhook_events SET attempts = $2, state = $3, next_attempt_at = $4, last_error = $5 WHERE id = $1`, [
          row.id,
          attempts,
          dead ? 'dead' : 'pending',
          iso(this.clock() + delay),
          error.slice(0, 1000),
        ]);
        if (dead) result.dead++;
        else result.failed++;
      }
      return result;
    });
  }

  /** Puts a dead event back in the queue, due now, with its attempts reset (staff's replay). Answers whether it was dead. */
  async replay(id: string): Promise<boolean> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE webhook_events SET state = 'pending', attempts = 0, next_attempt_at = $2 WHERE id = $1 AND state = 'dead' RETURNING id`,
      [id, iso(this.clock())],
    );
    return rows.length > 0;
  }

  /** Pending and dead events per provider (the system page's backlog). */
  async backlog(): Promise<Array<{ provider: Provider; pending: number; dead: number; oldestPendingAt: string | null }>> {
    const { rows } = await this.db.query<{ provider: Provider; pending: string; dead: string; oldest: Date | string | null }>(
      `SELECT provider, count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'dead') AS dead,
              min(received_at) FILTER (WHERE state = 'pending') AS oldest
       FROM webhook_events WHERE state <> 'applied' GROUP BY provider ORDER BY provider`,
    );
    return rows.map((r) => ({ provider: r.provider, pending: Number(r.pending), dead: Number(r.dead), oldestPendingAt: r.oldest === null ? null : new Date(r.oldest).toISOString() }));
  }
}

/** A batch applied straight hit a failing event: it is applied again, carefully. */
class BatchFailed extends Error {}

function describe(error: unknown): string {
  if (error instanceof NotYetError) return `not yet: ${error.message}`;
  if (error instanceof ZodError) return `invalid payload: ${error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

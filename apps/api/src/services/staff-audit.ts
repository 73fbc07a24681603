import type { Db, Queryable } from '../db/driver';
import { type Clock, iso } from '../lib/clock';

/**
 * Every action the staff audit records (one definition: writers name one of these, and the team
 * manager's filter offers exactly these, without scanning the audit for them).
 * - `team.add` / `team.update` / `team.remove`: a member's flags changed (before and after);
 * - `announcement.create` / `.edit` / `.publish` / `.withdraw`: System Update;
 * - `webhook.replay`: a dead payment webhook sent back to the queue;
 * - `user.sessions.end`: every live session of a user ended (after: how many);
 * - views of someone's data: `server.view` (a server's dashboard read-only), `support.user.view`
 *   and `support.server.view` (support search's cards), `billing.view` (a user's billing pages).
 */
export const STAFF_AUDIT_ACTIONS = [
  'announcement.create',
  'announcement.edit',
  'announcement.publish',
  'announcement.withdraw',
  'billing.view',
  'server.view',
  'support.server.view',
  'support.user.view',
  'team.add',
  'team.remove',
  'team.update',
  'user.sessions.end',
  'webhook.replay',
] as const;
export type StaffAuditAction = (typeof STAFF_AUDIT_ACTIONS)[number];

/**
 * A view of someone's data is one row per staff member, action and target within this window: a
 * page's calls and its refreshes are one view, not dozens of rows. Across instances (the audit
 * itself decides).
 */
export const STAFF_VIEW_AUDIT_WINDOW_MS = 5 * 60_000;

export interface StaffAuditEntry {
  /** When (epoch ms). */
  at: number;
  staffId: string;
  action: StaffAuditAction;
  target: string;
  /** A change's state before and after (null or left out: not a change of state). */
  before?: unknown;
  after?: unknown;
}

/** Writes one row; run it in the transaction of the change it records, so neither stands without the other. */
export async function writeStaffAudit(queryable: Queryable, entry: StaffAuditEntry): Promise<void> {
  const { before = null, after = null } = entry;
  await queryable.query('INSERT INTO staff_audit (at, staff_id, action, target, before, after) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)', [
    iso(entry.at),
    entry.staffId,
    entry.action,
    entry.target,
    before === null ? null : JSON.stringify(before),
    after === null ? null : JSON.stringify(after),
  ]);
}

/**
 * Writes a view (no before/after) unless the same staff member's same view of the same target is in
 * the audit within STAFF_VIEW_AUDIT_WINDOW_MS before `at`. A failed write throws: callers answer
 * nothing then (no unaudited view).
 */
export async function writeStaffView(queryable: Queryable, view: Omit<StaffAuditEntry, 'before' | 'after'>): Promise<void> {
  await queryable.query(
    `INSERT INTO staff_audit (at, staff_id, action, target)
     SELECT $1::timestamptz, $2, $3, $4
      WHERE NOT EXISTS (SELECT 1 FROM staff_audit
                         WHERE staff_id = $2 AND action = $3 AND target = $4
                           AND at > $5::timestamptz AND at <= $1::timestamptz)`,
    [iso(view.at), view.staffId, view.action, view.target, iso(view.at - STAFF_VIEW_AUDIT_WINDOW_MS)],
  );
}

/** The staff audit for routes: a change or a view, at the clock's now, outside any other transaction. */
export class StaffAudit {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async write(entry: Omit<StaffAuditEntry, 'at'>): Promise<void> {
    await writeStaffAudit(this.db, { ...entry, at: this.clock() });
  }

  async view(entry: Omit<StaffAuditEntry, 'at' | 'before' | 'after'>): Promise<void> {
    await writeStaffView(this.db, { ...entry, at: this.clock() });
  }
}

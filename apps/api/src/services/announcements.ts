import type {
  Announcement,
  AnnouncementAudience,
  AnnouncementSeverity,
  AnnouncementStatus,
  PublicAnnouncement,
} from '@tickety/api-contract';
import type { Db, Queryable } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { ApiHttpError } from '../lib/errors';
import { type StaffAuditAction, writeStaffAudit } from './staff-audit';

/** What staff did with a notice (the stored `state`); scheduled / active / ended follow from the clock. */
type State = 'draft' | 'published' | 'withdrawn';

interface Row {
  id: string;
  severity: AnnouncementSeverity;
  body: string;
  audience: AnnouncementAudience;
  state: State;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  revision: number;
  version: number;
  created_at: Date | string;
  created_by: string;
  updated_at: Date | string;
  updated_by: string;
  published_at: Date | string | null;
  withdrawn_at: Date | string | null;
  updated_by_name?: string | null;
}

const COLUMNS = `a.id::text AS id, a.severity, a.body, a.audience, a.state, a.starts_at, a.ends_at, a.revision, a.version,
  a.created_at, a.created_by, a.updated_at, a.updated_by, a.published_at, a.withdrawn_at`;

/** Fields of a new notice (validated by the route's schema: AnnouncementText, AnnouncementTime). */
interface NewAnnouncement {
  severity: AnnouncementSeverity;
  text: string;
  audience: AnnouncementAudience;
  startsAt: string | null;
  endsAt: string | null;
  publish: boolean;
}

/** Fields to change (absent: unchanged) from `version`. */
interface AnnouncementEdit {
  version: number;
  severity?: AnnouncementSeverity | undefined;
  text?: string | undefined;
  audience?: AnnouncementAudience | undefined;
  startsAt?: string | null | undefined;
  endsAt?: string | null | undefined;
  publish?: true | undefined;
}

/** Who sees what: a visitor `everyone`; a signed-in user also `signedIn`; staff also `staff`. */
export function audiencesFor(viewer: 'visitor' | 'user' | 'staff'): AnnouncementAudience[] {
  if (viewer === 'visitor') return ['everyone'];
  if (viewer === 'user') return ['everyone', 'signedIn'];
  return ['everyone', 'signedIn', 'staff'];
}

const SEVERITY_ORDER: Record<AnnouncementSeverity, number> = { critical: 0, maintenance: 1, info: 2 };

function iso_(value: Date | string | null): string | null {
  const ms = toMs(value);
  return ms === null ? null : iso(ms);
}

function statusOf(row: Pick<Row, 'state' | 'starts_at' | 'ends_at'>, now: number): AnnouncementStatus {
  if (row.state === 'draft' || row.state === 'withdrawn') return row.state;
  const start = toMs(row.starts_at);
  const end = toMs(row.ends_at);
  if (end !== null && end <= now) return 'ended';
  if (start !== null && start > now) return 'scheduled';
  return 'active';
}

function invalid(message: string): ApiHttpError {
  return new ApiHttpError('VALIDATION_FAILED', { message });
}

/** The window's rules, on the values a change would leave: an end after the start; a published notice's end to come. */
function checkWindow(startsAt: string | null, endsAt: string | null, published: boolean, now: number): void {
  const start = startsAt === null ? null : Date.parse(startsAt);
  const end = endsAt === null ? null : Date.parse(endsAt);
  if (published && end !== null && end <= now) throw invalid('endsAt must be in the future: a notice that has already ended would never be shown.');
  if (end !== null && start !== null && end <= start) throw invalid('endsAt must be after startsAt.');
}

/** An ISO time as stored and answered (UTC, milliseconds), whatever zone it was sent in. */
function normalTime(value: string | null): string | null {
  return value === null ? null : iso(Date.parse(value));
}

/**
 * Announcements and maintenance notices: staff list, create, edit, publish and withdraw them (each
 * change written to `staff_audit` in its transaction); the banner reads the active ones for an
 * audience. Times come from the API's clock.
 */
export class Announcements {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  #listeners = new Set<() => void>();

  /** Calls `listener` after each change this instance commits (a notice created, edited, published or withdrawn). */
  onChange(listener: () => void): void {
    this.#listeners.add(listener);
  }

  async #changing<T>(work: Promise<T>): Promise<T> {
    const result = await work;
    for (const listener of this.#listeners) listener();
    return result;
  }

  #toAnnouncement(row: Row, now: number): Announcement {
    return {
      id: row.id,
      severity: row.severity,
      text: row.body,
      audience: row.audience,
      status: statusOf(row, now),
      startsAt: iso_(row.starts_at),
      endsAt: iso_(row.ends_at),
      revision: row.revision,
      version: row.version,
      createdAt: iso_(row.created_at)!,
      createdBy: row.created_by,
      updatedAt: iso_(row.updated_at)!,
      updatedBy: row.updated_by,
      updatedByName: row.updated_by_name ?? null,
      publishedAt: iso_(row.published_at),
      withdrawnAt: iso_(row.withdrawn_at),
    };
  }

  /** Every notice, newest first, `limit` at a time after `cursor` (an id). */
  async list(options: { cursor?: string | undefined; limit: number }): Promise<{ announcements: Announcement[]; nextCursor: string | null }> {
    const now = this.clock();
    const { rows } = await this.db.query<Row>(
      `SELECT ${COLUMNS}, COALESCE(u.global_name, u.username) AS updated_by_name
         FROM announcements a LEFT JOIN users u ON u.id = a.updated_by
        WHERE ($1::bigint IS NULL OR a.id < $1::bigint)
        ORDER BY a.id DESC LIMIT $2`,
      [options.cursor ?? null, options.limit + 1],
    );
    const page = rows.slice(0, options.limit);
    return { announcements: page.map((r) => this.#toAnnouncement(r, now)), nextCursor: rows.length > options.limit ? page.at(-1)!.id : null };
  }

  async #one(queryable: Queryable, id: string): Promise<Announcement> {
    const { rows } = await queryable.query<Row>(
      `SELECT ${COLUMNS}, COALESCE(u.global_name, u.username) AS updated_by_name FROM announcements a LEFT JOIN users u ON u.id = a.updated_by WHERE a.id = $1`,
      [id],
    );
    return this.#toAnnouncement(rows[0]!, this.clock());
  }

  async #audit(tx: Queryable, at: number, staffId: string, action: StaffAuditAction, target: string): Promise<void> {
    await writeStaffAudit(tx, { at, staffId, action, target });
  }

  /** A draft, or a published notice (`publish`: from `startsAt`, else from now). */
  async create(staffId: string, input: NewAnnouncement): Promise<Announcement> {
    const now = this.clock();
    const startsAt = input.publish ? (normalTime(input.startsAt) ?? iso(now)) : normalTime(input.startsAt);
    const endsAt = normalTime(input.endsAt);
    checkWindow(startsAt, endsAt, input.publish, now);
    return this.#changing(this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO announcements (severity, body, audience, state, starts_at, ends_at, created_at, created_by, updated_at, updated_by, published_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, $8, $9) RETURNING id::text AS id`,
        [input.severity, input.text, input.audience, input.publish ? 'published' : 'draft', startsAt, endsAt, iso(now), staffId, input.publish ? iso(now) : null],
      );
      const id = rows[0]!.id;
      const created = await this.#one(tx, id);
      await this.#audit(tx, now, staffId, input.publish ? 'announcement.publish' : 'announcement.create', describe(created));
      return created;
    }));
  }

  /**
   * Changes a draft, scheduled or active notice (an ended or withdrawn one is history: 409), from the
   * version the editor started from (409 when someone changed it since); `publish` publishes a draft.
   */
  async edit(staffId: string, id: string, input: AnnouncementEdit): Promise<Announcement> {
    return this.#changing(this.db.transaction(async (tx) => {
      const now = this.clock();
      const { rows } = await tx.query<Row>(`SELECT ${COLUMNS} FROM announcements a WHERE a.id = $1 FOR UPDATE`, [id]);
      const row = rows[0];
      if (!row) throw new ApiHttpError('NOT_FOUND', { message: 'There is no announcement with this id.' });
      const status = statusOf(row, now);
      if (status === 'ended' || status === 'withdrawn') {
        throw new ApiHttpError('CONFIG_CONFLICT', { message: `This announcement has ${status === 'ended' ? 'ended' : 'been withdrawn'}: it cannot be changed. Write a new one instead.` });
      }
      if (row.version !== input.version) {
        throw new ApiHttpError('CONFIG_CONFLICT', {
          message: 'Someone changed this announcement while you were editing it. Your changes were not saved: reload to see theirs, then make yours again.',
        });
      }
      const publishing = input.publish === true && row.state === 'draft';
      const published = row.state === 'published' || publishing;
      const severity = input.severity ?? row.severity;
      const text = input.text ?? row.body;
      const audience = input.audience ?? row.audience;
      let startsAt = input.startsAt === undefined ? iso_(row.starts_at) : normalTime(input.startsAt);
      const endsAt = input.endsAt === undefined ? iso_(row.ends_at) : normalTime(input.endsAt);
      // Published without a start: from now (a published notice always has one).
      if (published && startsAt === null) startsAt = iso(now);
      // A published notice whose start staff moved: its end must still come after it, and still be to come.
      checkWindow(startsAt, endsAt, published, now);
      const changed: string[] = [];
      if (severity !== row.severity) changed.push('severity');
      if (text !== row.body) changed.push('text');
      if (audience !== row.audience) changed.push('audience');
      if (startsAt !== iso_(row.starts_at)) changed.push('startsAt');
      if (endsAt !== iso_(row.ends_at)) changed.push('endsAt');
      if (changed.length === 0 && !publishing) return this.#one(tx, id);
      const revision = severity !== row.severity || text !== row.body ? row.revision + 1 : row.revision;
      await tx.query(
        `UPDATE announcements SET severity = $2, body = $3, audience = $4, starts_at = $5, ends_at = $6, revision = $7, version = version + 1,
                state = $8, published_at = COALESCE(published_at, $9), updated_at = $10, updated_by = $11
          WHERE id = $1`,
        [id, severity, text, audience, startsAt, endsAt, revision, published ? 'published' : 'draft', publishing ? iso(now) : null, iso(now), staffId],
      );
      const updated = await this.#one(tx, id);
      const what = changed.length > 0 ? `: ${changed.join(', ')}` : '';
      await this.#audit(tx, now, staffId, publishing ? 'announcement.publish' : 'announcement.edit', `${describe(updated)}${what}`);
      return updated;
    }));
  }

  /** Takes a draft, scheduled or active notice down (409 when it has ended or is withdrawn already; when `version` is given and stale). */
  async withdraw(staffId: string, id: string, version?: number): Promise<Announcement> {
    return this.#changing(this.db.transaction(async (tx) => {
      const now = this.clock();
      const { rows } = await tx.query<Row>(`SELECT ${COLUMNS} FROM announcements a WHERE a.id = $1 FOR UPDATE`, [id]);
      const row = rows[0];
      if (!row) throw new ApiHttpError('NOT_FOUND', { message: 'There is no announcement with this id.' });
      const status = statusOf(row, now);
      if (status === 'withdrawn') throw new ApiHttpError('CONFIG_CONFLICT', { message: 'This announcement has already been withdrawn.' });
      if (status === 'ended') throw new ApiHttpError('CONFIG_CONFLICT', { message: 'This announcement has ended already: there is nothing to withdraw.' });
      if (version !== undefined && version !== row.version) {
        throw new ApiHttpError('CONFIG_CONFLICT', { message: 'Someone changed this announcement since you loaded it: reload, then withdraw it again if you still mean to.' });
      }
      await tx.query(`UPDATE announcements SET state = 'withdrawn', withdrawn_at = $2, version = version + 1, updated_at = $2, updated_by = $3 WHERE id = $1`, [
        id,
        iso(now),
        staffId,
      ]);
      const withdrawn = await this.#one(tx, id);
      await this.#audit(tx, now, staffId, 'announcement.withdraw', `${describe(withdrawn)} (was ${status})`);
      return withdrawn;
    }));
  }

  /** The notices active now for these audiences: most severe first, then the newest. */
  async active(audiences: readonly AnnouncementAudience[]): Promise<PublicAnnouncement[]> {
    const now = iso(this.clock());
    const { rows } = await this.db.query<Pick<Row, 'id' | 'revision' | 'severity' | 'body' | 'ends_at' | 'starts_at'>>(
      `SELECT id::text AS id, revision, severity, body, starts_at, ends_at FROM announcements
        WHERE state = 'published' AND starts_at <= $1::timestamptz AND (ends_at IS NULL OR ends_at > $1::timestamptz)
          AND audience = ANY($2::text[])
        ORDER BY starts_at DESC, id DESC LIMIT 20`,
      [now, [...audiences]],
    );
    return rows
      .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
      .map((r) => ({ id: r.id, revision: r.revision, severity: r.severity, text: r.body, endsAt: iso_(r.ends_at) }));
  }
}

/** The audit's target: which notice, what kind, for whom. */
function describe(announcement: Announcement): string {
  return `announcement #${announcement.id} (${announcement.severity}, ${announcement.audience})`;
}

import { z } from './zod-setup';
import { Snowflake } from './auth';
import { StaffPermission } from './staff';

/**
 * The team manager's API (`/api/staff/team`, `/api/staff/audit`): the staff members with their flags
 * and who granted each, adding / editing / removing a member (SPECIAL_TEAM_MANAGER_WRITE), and the
 * staff audit log. Rules of a change (refused with 1026 / 1027 / 1028, nothing written): nobody grants
 * or revokes a flag they do not hold, nobody changes their own flags, owners (STAFF_OWNER_IDS) are
 * never edited or removed.
 */

/** A person as the team manager shows them: id, name (null when the dashboard never saw them), avatar. */
export const StaffPerson = z.object({
  id: Snowflake,
  /** Display name (Discord's global name, else the username); null when unknown. */
  name: z.string().nullable(),
  username: z.string().nullable(),
  /** Their avatar, or Discord's default one for the id. */
  avatarUrl: z.string(),
});
export type StaffPerson = z.infer<typeof StaffPerson>;

/** One flag a member holds: who granted it and when (null for owners, who hold every flag by configuration). */
export const StaffGrant = z.object({
  permission: StaffPermission,
  grantedBy: StaffPerson.nullable(),
  grantedAt: z.string().nullable(),
});
export type StaffGrant = z.infer<typeof StaffGrant>;

export const StaffTeamMember = StaffPerson.extend({
  /** Listed in STAFF_OWNER_IDS: every flag, never edited from the page. */
  owner: z.boolean(),
  /** The flags held, in the order of STAFF_PERMISSIONS. */
  permissions: z.array(StaffPermission),
  grants: z.array(StaffGrant),
  /** Who added them and when (null for owners). */
  addedBy: StaffPerson.nullable(),
  addedAt: z.string().nullable(),
});
export type StaffTeamMember = z.infer<typeof StaffTeamMember>;

/** `GET /api/staff/team`: owners first, then the others by name. */
export const StaffTeamAnswer = z.object({ members: z.array(StaffTeamMember) });
export type StaffTeamAnswer = z.infer<typeof StaffTeamAnswer>;

export const StaffTeamUserParams = z.object({ user: Snowflake });

/** `GET /api/staff/team/lookup/:user`: who a Discord id is, before adding them. */
export const StaffLookupAnswer = StaffPerson.extend({
  /** Already a staff member (added, or an owner). */
  member: z.boolean(),
  owner: z.boolean(),
});
export type StaffLookupAnswer = z.infer<typeof StaffLookupAnswer>;

/** `PUT /api/staff/team/:user`: the member's flags after the change (at least one; remove a member to take every flag). */
export const StaffTeamPutBody = z.object({
  permissions: z
    .array(StaffPermission)
    .min(1, 'a member holds at least one flag (remove the member instead)')
    .max(StaffPermission.options.length)
    .refine((flags) => new Set(flags).size === flags.length, 'each flag at most once'),
});
export type StaffTeamPutBody = z.infer<typeof StaffTeamPutBody>;

export const StaffTeamPutAnswer = z.object({
  member: StaffTeamMember,
  /** Whether they were added now (else their flags were set). */
  added: z.boolean(),
  /** Whether anything changed (the same flags again: nothing written). */
  changed: z.boolean(),
});
export type StaffTeamPutAnswer = z.infer<typeof StaffTeamPutAnswer>;

export const StaffTeamDeleteAnswer = z.object({ removed: z.literal(true) });

/** The audit's cursor: the last entry of the previous page (its time, to the microsecond, and id). */
export const STAFF_AUDIT_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z_(\d{1,19})$/;

/** A cursor the audit can continue from: the pattern, a real instant, an id within bigint. */
export function isStaffAuditCursor(value: string): boolean {
  const match = STAFF_AUDIT_CURSOR.exec(value);
  if (!match) return false;
  const at = new Date(`${match[1]}Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 19) === match[1] && BigInt(match[2]!) <= 9_223_372_036_854_775_807n;
}


export const StaffAuditQuery = z.object({
  /** Only what this staff member did. */
  staff: Snowflake.optional(),
  /** An action (`team.update`) or a family of them (`team`: every `team.*`). */
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/, 'must be an action such as team.update, or a family such as team')
    .max(64)
    .optional(),
  /** Text the target contains (case-insensitive): an id, a name, a provider… */
  target: z
    .string()
    .trim()
    .min(1)
    .max(100)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional(),
  cursor: z.string().max(50).refine(isStaffAuditCursor, 'must be a cursor from the previous page').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type StaffAuditQuery = z.infer<typeof StaffAuditQuery>;

/** A team change's state: `{ permissions: [...] }` (null: not a member). Other actions may record other shapes. */
export const StaffAuditState = z.record(z.string(), z.unknown()).nullable();

export const StaffAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  staff: StaffPerson,
  action: z.string(),
  target: z.string(),
  before: StaffAuditState,
  after: StaffAuditState,
});
export type StaffAuditEntry = z.infer<typeof StaffAuditEntry>;

/** `GET /api/staff/audit`: newest first; `actions` lists every action the audit holds (the filter's choices). */
export const StaffAuditAnswer = z.object({
  entries: z.array(StaffAuditEntry),
  nextCursor: z.string().nullable(),
  actions: z.array(z.string()),
});
export type StaffAuditAnswer = z.infer<typeof StaffAuditAnswer>;

import { z } from './zod-setup';
import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_SEVERITIES,
  ANNOUNCEMENT_STATUSES,
  ANNOUNCEMENT_TEXT_MAX,
  announcementTextLength,
  normalizeAnnouncementText,
} from './announcement-text';
import { Snowflake } from './auth';

/**
 * Announcements and maintenance notices: staff's `/api/staff/announcements` (System Update) and the
 * public `GET /api/announcements` the shell's banner reads. The words and the text's markdown are in
 * announcement-text.ts (no zod, imported by the front ends at run time).
 */

export const AnnouncementSeverity = z.enum(ANNOUNCEMENT_SEVERITIES);
export const AnnouncementAudience = z.enum(ANNOUNCEMENT_AUDIENCES);
export const AnnouncementStatus = z.enum(ANNOUNCEMENT_STATUSES);
export type AnnouncementSeverity = z.infer<typeof AnnouncementSeverity>;
export type AnnouncementAudience = z.infer<typeof AnnouncementAudience>;
export type AnnouncementStatus = z.infer<typeof AnnouncementStatus>;

/** A notice's text as sent: line endings made `\n`, trimmed, 1 to ANNOUNCEMENT_TEXT_MAX characters. */
export const AnnouncementText = z
  .string()
  .transform(normalizeAnnouncementText)
  .refine((text) => text.length > 0, 'must not be empty')
  .refine((text) => announcementTextLength(text) <= ANNOUNCEMENT_TEXT_MAX, `must be at most ${ANNOUNCEMENT_TEXT_MAX} characters`);

/** A start or end: an ISO 8601 time with its zone, between the years 2000 and 2999. */
export const AnnouncementTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time with a zone, such as 2026-11-23T10:00:00Z' })
  .refine((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 2000 && year < 3000;
  }, 'must be between the years 2000 and 2999');

/** A notice as staff see it. */
export const Announcement = z.object({
  id: z.string(),
  severity: AnnouncementSeverity,
  text: z.string(),
  audience: AnnouncementAudience,
  status: AnnouncementStatus,
  /** Null on a draft that starts when it is published. */
  startsAt: z.string().nullable(),
  /** Null: until withdrawn. */
  endsAt: z.string().nullable(),
  /** Grows when what readers see changes (severity, text): a banner dismissed at an older revision shows again. */
  revision: z.number().int(),
  /** Grows with every change: an edit names the version it started from (409 when someone changed it since). */
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: Snowflake,
  updatedAt: z.string(),
  updatedBy: Snowflake,
  /** The name of the last staff member who changed it (null when the dashboard never saw them). */
  updatedByName: z.string().nullable(),
  publishedAt: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
});
export type Announcement = z.infer<typeof Announcement>;

/** A bigint id as digits (PostgreSQL's bigint: larger is no row's, refused as input, never sent to the database). */
const BigintId = (what: string) =>
  z
    .string()
    .regex(/^\d{1,19}$/, what)
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= 9_223_372_036_854_775_807n, what);

export const AnnouncementsQuery = z.object({
  /** The last notice of the previous page (`nextCursor`). */
  cursor: BigintId('must be a cursor from the previous page').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AnnouncementsQuery = z.infer<typeof AnnouncementsQuery>;

/** `GET /api/staff/announcements`: newest first, a page at a time. */
export const AnnouncementsAnswer = z.object({ announcements: z.array(Announcement), nextCursor: z.string().nullable() });
export type AnnouncementsAnswer = z.infer<typeof AnnouncementsAnswer>;

export const AnnouncementParams = z.object({ id: BigintId('must be an announcement id') });

/** `POST /api/staff/announcements`: a draft, or published at once (`publish`). */
export const CreateAnnouncementBody = z.object({
  severity: AnnouncementSeverity,
  text: AnnouncementText,
  audience: AnnouncementAudience,
  startsAt: AnnouncementTime.nullable().default(null),
  endsAt: AnnouncementTime.nullable().default(null),
  publish: z.boolean().default(false),
});
export type CreateAnnouncementBody = z.input<typeof CreateAnnouncementBody>;

/**
 * `PATCH /api/staff/announcements/:id`: the fields to change (absent: unchanged), from `version`;
 * `publish: true` publishes a draft in the same change.
 */
export const EditAnnouncementBody = z.object({
  version: z.number().int().min(1),
  severity: AnnouncementSeverity.optional(),
  text: AnnouncementText.optional(),
  audience: AnnouncementAudience.optional(),
  startsAt: AnnouncementTime.nullable().optional(),
  endsAt: AnnouncementTime.nullable().optional(),
  publish: z.literal(true).optional(),
});
export type EditAnnouncementBody = z.input<typeof EditAnnouncementBody>;

/** `POST /api/staff/announcements/:id/withdraw`: gone from every banner within a minute. */
export const WithdrawAnnouncementBody = z.object({ version: z.number().int().min(1).optional() }).default({});

/** A notice as the banner shows it. */
export const PublicAnnouncement = z.object({
  id: z.string(),
  revision: z.number().int(),
  severity: AnnouncementSeverity,
  text: z.string(),
  /** The banner hides it at this time even before its next read. */
  endsAt: z.string().nullable(),
});
export type PublicAnnouncement = z.infer<typeof PublicAnnouncement>;

/** `GET /api/announcements`: the active notices for the caller's audience, most severe first. */
export const PublicAnnouncementsAnswer = z.object({ announcements: z.array(PublicAnnouncement) });
export type PublicAnnouncementsAnswer = z.infer<typeof PublicAnnouncementsAnswer>;

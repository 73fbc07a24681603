/**
 * The server configuration routes' bodies and answers (`/api/guilds/:server/config`, its versions and
 * the server's Web Logs), shared by the API (route schemas, OpenAPI) and the dashboard.
 * The configuration itself is checked by `serverConfigSchema` with the server's own limits.
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';
import { PanelPost } from './server-resources-api';

/** Who made a change, as Web Logs and the version list show them. */
export const ConfigActor = z.object({ id: Snowflake, name: z.string(), avatarUrl: z.string().nullable() });
export type ConfigActor = z.infer<typeof ConfigActor>;

export const ConfigChange = z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() });

/** The live configuration: its version (0 before the first save), the server's limits. */
export const ServerConfigAnswer = z.object({
  version: z.number().int().nonnegative(),
  config: z.record(z.string(), z.unknown()),
  /** When and by whom the live version was saved (null for the defaults, version 0). */
  savedAt: z.string().nullable(),
  savedBy: ConfigActor.nullable(),
  premium: z.boolean(),
  panelLimit: z.number().int().positive(),
  /** The plan's `limits.tags` and `limits.blocklist` (the Automation page's counters). */
  tagLimit: z.number().int().positive(),
  blocklistLimit: z.number().int().positive(),
});
export type ServerConfigAnswer = z.infer<typeof ServerConfigAnswer>;

/** A save: the version the editor started from (a newer one means someone else saved: 1013). */
export const SaveServerConfigBody = z.object({
  expectedVersion: z.number().int().nonnegative(),
  config: z.record(z.string(), z.unknown()),
});

/** A version number as PostgreSQL's integer holds it (larger ones are refused as invalid, never a 500). */
export const VERSION_MAX = 2_147_483_647;
export const ConfigVersionParams = z.object({ server: Snowflake, version: z.coerce.number().int().positive().max(VERSION_MAX) });

export const ConfigVersionSummary = z.object({
  version: z.number().int().positive(),
  savedAt: z.string(),
  savedBy: ConfigActor,
  summary: z.string(),
  /** The version this one restored, when it was a restore. */
  restoredFrom: z.number().int().positive().nullable(),
});
/** `GET /config/versions`: a page of versions, older than `cursor`. */
export const ConfigVersionListQuery = z.object({ cursor: z.coerce.number().int().positive().max(VERSION_MAX).optional(), limit: z.coerce.number().int().min(1).max(100).default(25) });
export const ConfigVersionList = z.object({ versions: z.array(ConfigVersionSummary), nextCursor: z.string().nullable() });
export const ConfigVersionAnswer = ConfigVersionSummary.extend({ config: z.record(z.string(), z.unknown()), changes: z.array(ConfigChange) });

export const RestoreConfigBody = z.object({ expectedVersion: z.number().int().nonnegative() });

/** `POST /config/reset`: the defaults as a new version, confirmed with the server's name as Discord shows it. */
export const ResetConfigBody = z.strictObject({ expectedVersion: z.number().int().nonnegative(), confirmName: z.string().max(200) });
/** A posted panel or multi-panel whose message no longer shows the configuration, with its name (as typed) in the version it was posted from. */
export const ResetPanelPost = PanelPost.extend({ name: z.string() });
export const ResetConfigAnswer = ServerConfigAnswer.extend({ postedPanels: z.array(ResetPanelPost) });
export type ResetConfigAnswer = z.infer<typeof ResetConfigAnswer>;

export const WEB_LOG_ACTIONS = [
  'config.update',
  'config.restore',
  'config.import',
  'config.reset',
  'panel.send',
  'panel.update',
  // From the bot's ticket events (what members did in tickets) and transcript reads.
  'ticket.opened',
  'ticket.claimed',
  'ticket.closed',
  'ticket.reopened',
  'ticket.rated',
  'transcript.view',
  // What staff asked of the bot in a ticket from the Tickets page (the labels are stored at once).
  'ticket.reply',
  'ticket.claim',
  'ticket.unclaim',
  'ticket.close',
  'ticket.add_member',
  'ticket.labels',
  // Premium slots: put on this server, or moved from it to another.
  'premium.assigned',
  'premium.removed',
] as const;
export const WebLogEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: ConfigActor,
  action: z.enum(WEB_LOG_ACTIONS),
  /** What the change was about, in a few words ("Panel “Support”", "General settings"). */
  target: z.string(),
  version: z.number().int().positive().nullable(),
  changes: z.array(ConfigChange),
});
export type WebLogEntry = z.infer<typeof WebLogEntry>;
/** A time filter: an ISO date-time between the years 1970 and 9999 (PostgreSQL's range, no surprises). */
const LogTime = z.iso.datetime({ offset: true }).refine((value) => {
  const time = Date.parse(value);
  return time >= 0 && time < Date.UTC(10000, 0, 1);
}, 'Must be a time between 1970 and 9999.');
export const WebLogQuery = z.object({
  // A Web Logs id: a bigint (at most 2^63 - 1).
  cursor: z
    .string()
    .regex(/^\d{1,19}$/)
    .refine((value) => BigInt(value) <= 9_223_372_036_854_775_807n, 'Not a Web Logs cursor.')
    .optional(),
  actor: Snowflake.optional(),
  action: z.enum(WEB_LOG_ACTIONS).optional(),
  from: LogTime.optional(),
  to: LogTime.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const WebLogPage = z.object({ entries: z.array(WebLogEntry), nextCursor: z.string().nullable() });
/** `GET /api/guilds/:server/logs/actors`: everyone who appears in the server's Web Logs (their latest name and avatar), by name. */
export const WebLogActors = z.object({ actors: z.array(ConfigActor) });

/**
 * Support search (`/support-team`, DASHBOARD_SUPPORT_SEARCH_READ): users and servers by id or name,
 * and their cards. Every card view is written to the staff audit (`support.user.view`,
 * `support.server.view`), so the cards answer only the dashboard's own fetch.
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';
import { BillingSubscription } from './billing-api';
import { WebLogEntry } from './server-config-api';

/** Results of each kind the search answers at most. */
export const STAFF_SEARCH_LIMIT = 20;
/** The longest query (characters). */
export const STAFF_SEARCH_MAX_LENGTH = 100;

/** `GET /api/staff/search?q=`: an id (17 to 20 digits) or a part of a name. */
export const StaffSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(STAFF_SEARCH_MAX_LENGTH, `must be at most ${STAFF_SEARCH_MAX_LENGTH} characters`),
});
export type StaffSearchQuery = z.infer<typeof StaffSearchQuery>;

/**
 * Why a result matched, best first: its id; its whole name; the start of its name; the start of a word
 * in it; somewhere in it; a similar name (a typo, a letter missing). Case and accents never matter.
 */
export const SEARCH_MATCHES = ['id', 'exact', 'prefix', 'word', 'contains', 'similar'] as const;
export const SearchMatch = z.enum(SEARCH_MATCHES);
export type SearchMatch = z.infer<typeof SearchMatch>;

export const StaffSearchUser = z.object({
  id: Snowflake,
  username: z.string(),
  globalName: z.string().nullable(),
  avatarUrl: z.string(),
  match: SearchMatch,
});
export type StaffSearchUser = z.infer<typeof StaffSearchUser>;

export const StaffSearchServer = z.object({
  id: Snowflake,
  name: z.string(),
  iconUrl: z.string().nullable(),
  botInGuild: z.boolean(),
  match: SearchMatch,
});
export type StaffSearchServer = z.infer<typeof StaffSearchServer>;

export const StaffSearchAnswer = z.object({
  /** The query as searched (trimmed). */
  q: z.string(),
  users: z.array(StaffSearchUser),
  servers: z.array(StaffSearchServer),
});
export type StaffSearchAnswer = z.infer<typeof StaffSearchAnswer>;

/** A ticket on a card, with its transcript (v2) when one is stored. */
export const StaffTicket = z.object({
  serverId: Snowflake,
  serverName: z.string().nullable(),
  ticketId: z.string(),
  number: z.number().int().nullable(),
  panelId: z.string().nullable(),
  openerId: z.string().nullable(),
  openedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  rating: z.number().int().nullable(),
  /** The stored transcript's id (`/transcript/v2/:server/:fileid`), or null. */
  transcriptId: z.string().nullable(),
});
export type StaffTicket = z.infer<typeof StaffTicket>;

/** Tickets a card shows at most (newest first). */
export const STAFF_CARD_TICKETS = 20;
/** Web Logs entries a server's card shows at most (newest first). */
export const STAFF_CARD_WEB_LOGS = 10;

export const StaffCardPerson = z.object({ id: Snowflake, name: z.string(), avatarUrl: z.string() });
export type StaffCardPerson = z.infer<typeof StaffCardPerson>;

/** `GET /api/staff/users/:user`. */
export const StaffUserCard = z.object({
  user: z.object({
    id: Snowflake,
    username: z.string(),
    globalName: z.string().nullable(),
    avatarUrl: z.string(),
    /** First and latest sign-in (the profile is Discord's as of the latter). */
    createdAt: z.string(),
    updatedAt: z.string(),
    /** When their server list was last read from Discord (what `servers` is as of), or null. */
    guildsRefreshedAt: z.string().nullable(),
  }),
  /** The servers they manage (owner, Administrator or Manage Server), from their stored server list. */
  servers: z.array(z.object({ id: Snowflake, name: z.string(), iconUrl: z.string().nullable(), owner: z.boolean(), botInGuild: z.boolean() })),
  subscriptions: z.array(BillingSubscription),
  /** Whether the viewer may open the user's billing (`/billing/:user`: DASHBOARD_SUPPORT_SYSTEM_READ). */
  canViewBilling: z.boolean(),
  /**
   * Their live dashboard sessions (not revoked, not past either expiry), and whether the viewer may
   * end them all (`POST /api/staff/users/:user/sessions/end`: DASHBOARD_SUPPORT_SYSTEM_WRITE).
   */
  sessions: z.object({ active: z.number().int().min(0), canEnd: z.boolean() }),
  /** Tickets they opened, newest first. */
  tickets: z.array(StaffTicket),
});
export type StaffUserCard = z.infer<typeof StaffUserCard>;

/** `GET /api/staff/servers/:server`. */
export const StaffServerCard = z.object({
  server: z.object({ id: Snowflake, name: z.string(), iconUrl: z.string().nullable(), botInGuild: z.boolean(), updatedAt: z.string() }),
  premium: z.object({
    active: z.boolean(),
    /** The subscription whose premium slot covers the server, its owner and the slot. */
    coveredBy: z.object({ subscription: BillingSubscription, owner: StaffCardPerson, slot: z.number().int() }).nullable(),
  }),
  /** Whether the viewer may open the covering subscription's owner's billing (DASHBOARD_SUPPORT_SYSTEM_READ). */
  canViewBilling: z.boolean(),
  /** The live configuration: its version (0: never saved), its panels and multi-panels. */
  config: z.object({ version: z.number().int(), savedAt: z.string().nullable(), panels: z.number().int(), multiPanels: z.number().int() }),
  /** Who manages it, from the stored server lists of users who signed in. */
  managers: z.array(StaffCardPerson.extend({ owner: z.boolean() })),
  webLogs: z.array(WebLogEntry),
  tickets: z.array(StaffTicket),
});
export type StaffServerCard = z.infer<typeof StaffServerCard>;

export const StaffUserParams = z.object({ user: Snowflake });
export const StaffServerParams = z.object({ server: Snowflake });

/** `POST /api/staff/users/:user/sessions/end`: how many live sessions were ended. */
export const StaffEndSessionsAnswer = z.object({ ended: z.number().int().min(0) });
export type StaffEndSessionsAnswer = z.infer<typeof StaffEndSessionsAnswer>;

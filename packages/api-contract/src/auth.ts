import { z } from './zod-setup';
import { SNOWFLAKE_PATTERN } from './ids';
import { StaffPermission } from './staff';

/** A Discord snowflake id, the one check of a Discord id (ids.ts: the API, the pages, the configuration). */
export const Snowflake = z.string().regex(SNOWFLAKE_PATTERN, 'must be a Discord id (17 to 20 digits)');

/** One of the signed-in user's servers, as stored at the last refresh. */
export const Guild = z.object({
  id: z.string(),
  name: z.string(),
  /** Icon hash, or null. */
  icon: z.string().nullable(),
  /** Full CDN URL of the icon, or null. */
  iconUrl: z.string().nullable(),
  owner: z.boolean(),
  /** The member's role-based permissions, Discord's decimal string. */
  permissions: z.string(),
  /** Owner, ADMINISTRATOR or MANAGE_GUILD: may manage the server on the dashboard. */
  canManage: z.boolean(),
  /** Whether the bot has joined the server (false: show "Invite the bot"). */
  botInGuild: z.boolean(),
  /**
   * Not a manager (`canManage` false), but the server's access rules give one of the user's roles
   * dashboard access to some area (checked with the bot when the list was fetched; `GET
   * /api/guilds/:server` decides afresh and says which areas). Absent: false.
   */
  roleAccess: z.boolean().optional(),
});
export type Guild = z.infer<typeof Guild>;

export const User = z.object({
  id: z.string(),
  username: z.string(),
  globalName: z.string().nullable(),
  avatar: z.string().nullable(),
  /** CDN avatar, or Discord's default avatar when the user has none. */
  avatarUrl: z.string(),
});
export type User = z.infer<typeof User>;

/** Staff info; null for everyone who is not staff. */
export const StaffInfo = z
  .object({
    permissions: z.array(StaffPermission),
    /** Listed in STAFF_OWNER_IDS: holds every flag. */
    owner: z.boolean(),
  })
  .nullable();
export type StaffInfo = z.infer<typeof StaffInfo>;

/** Subscription summary; null when the user has no subscription records. */
export const SubscriptionSummary = z
  .object({
    premium: z.boolean(),
    /** Ids of the servers the user's premium covers. */
    servers: z.array(z.string()),
  })
  .nullable();
export type SubscriptionSummary = z.infer<typeof SubscriptionSummary>;

export const AuthenticatedMe = z.object({
  isAuthenticated: z.literal(true),
  user: User,
  guilds: z.array(Guild),
  team: StaffInfo,
  sub: SubscriptionSummary,
  /** When the guild list was last fetched from Discord (ISO 8601), or null. */
  guildsRefreshedAt: z.string().nullable(),
});
export type AuthenticatedMe = z.infer<typeof AuthenticatedMe>;

export const AnonymousMe = z.object({
  isAuthenticated: z.literal(false),
  user: z.null(),
  guilds: z.tuple([]),
  team: z.null(),
  sub: z.null(),
  guildsRefreshedAt: z.null(),
});
export type AnonymousMe = z.infer<typeof AnonymousMe>;

/** `GET /api/auth/@me` and `POST /api/auth/guilds/refresh`. */
export const MeResponse = z.discriminatedUnion('isAuthenticated', [AuthenticatedMe, AnonymousMe]);
export type MeResponse = z.infer<typeof MeResponse>;

/** `GET /api/auth/logout`. */
export const LogoutResponse = z.object({ isAuthenticated: z.literal(false) });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** What the sign-in popup posts to its opener (target origin: the dashboard's exact origin). */
export const AuthPopupMessage = z.union([
  z.object({ auth: z.literal(true) }),
  z.object({ auth: z.literal(false), error: z.string(), code: z.number().int().optional() }),
]);
export type AuthPopupMessage = z.infer<typeof AuthPopupMessage>;

/** Discord permission bits used by the manage check. */
export const DISCORD_PERMISSION_ADMINISTRATOR = 1n << 3n;
export const DISCORD_PERMISSION_MANAGE_GUILD = 1n << 5n;

/** Owner, ADMINISTRATOR or MANAGE_GUILD. `permissions` is Discord's decimal string. */
export function canManageGuild(owner: boolean, permissions: string): boolean {
  if (owner) return true;
  let bits: bigint;
  try {
    bits = BigInt(permissions);
  } catch {
    return false;
  }
  return (bits & (DISCORD_PERMISSION_ADMINISTRATOR | DISCORD_PERMISSION_MANAGE_GUILD)) !== 0n;
}

/** `GET /api/auth/login` (the popup's first address) takes no parameters; any it is given are ignored. */
export const AuthLoginQuery = z.object({});

/** `GET /api/auth/callback`'s query, as Discord sends it back (a code and the state, or an error). */
export const AuthCallbackQuery = z.object({
  code: z.string().min(1).max(512).optional(),
  state: z.string().min(1).max(256).optional(),
  error: z.string().max(100).optional(),
  error_description: z.string().max(1000).optional(),
});
export type AuthCallbackQuery = z.infer<typeof AuthCallbackQuery>;

/** The address of one of the user's servers: `/api/guilds/:server`. */
export const GuildParams = z.object({ server: Snowflake });

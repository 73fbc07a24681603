/**
 * What the signed-in user may do on one server's dashboard, by area (`GET /api/guilds/:server`
 * answers it; every route under `/api/guilds/:server` decides with the same rules on the server).
 * Full access: the owner, and members with Administrator or Manage Server. Otherwise the server's
 * access rules (the configuration's `access`) grant each of the member's roles read or write per area;
 * the highest level any of the member's roles grants wins (`accessFromRules`, access-areas.ts).
 * Staff read (`via: 'staff'`): a staff member holding DASHBOARD_SUPPORT_SEARCH_READ, with no access of
 * their own, reads every area (never writes) of a server the product knows; each visit is audited.
 * The helpers (`allows`, `FULL_ACCESS`, ...) live in the zod-free access-areas.ts.
 */
import { z } from './zod-setup';
import { ACCESS_AREAS, ACCESS_LEVELS, type AccessArea, type ServerAccessShape } from './access-areas';
import { Guild } from './auth';

export const AreaAccess = z.enum(ACCESS_LEVELS).nullable();

export const ServerAccess = z.object({
  /**
   * 'full': owner, Administrator or Manage Server (everything, write); 'roles': the server's access
   * rules; 'staff': a staff member's read-only view (every area 'read', nothing can be saved).
   */
  via: z.enum(['full', 'roles', 'staff']),
  /** Per area: 'write' (see and change), 'read' (see only) or null (no access). */
  areas: z.object(Object.fromEntries(ACCESS_AREAS.map((area) => [area, AreaAccess])) as Record<AccessArea, typeof AreaAccess>),
  /** The names of the member's roles that grant the access (empty with full and staff access). */
  grantedBy: z.array(z.string()),
});
export type ServerAccess = z.infer<typeof ServerAccess>;

// The schema and the zod-free shape describe the same object.
const _sameShape: ServerAccessShape = {} as ServerAccess;
void _sameShape;

/** `GET /api/guilds/:server`: the server and what the user may do on it. */
export const GuildWithAccess = Guild.extend({ access: ServerAccess });
export type GuildWithAccess = z.infer<typeof GuildWithAccess>;

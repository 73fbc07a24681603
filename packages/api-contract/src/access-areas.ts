/**
 * The parts of a server's dashboard a role can be given, and the rule that turns a member's roles
 * into per-area access. No zod here: the front ends' shared singleton (the shell's guard, the route
 * table check) imports this module at run time and loads no zod (server-access.ts builds the
 * `ServerAccess` schema on it; server-config/schemas.ts the `AccessRule` schema).
 */

/** The parts of the server dashboard a role can be given. */
export const ACCESS_AREAS = ['panels', 'tickets', 'statistics', 'logs', 'configs', 'premium'] as const;
export type AccessArea = (typeof ACCESS_AREAS)[number];
export const ACCESS_LEVELS = ['read', 'write'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Per area: 'write' (see and change), 'read' (see only) or null (no access). */
export type AreaLevels = Record<AccessArea, AccessLevel | null>;

/**
 * What the signed-in user may do on one server's dashboard (the shape of the `ServerAccess` schema):
 * `via: 'full'` for the owner and members with Administrator or Manage Server (every area, write);
 * `via: 'roles'` when the server's access rules give some of the member's roles access;
 * `via: 'staff'` for a staff member with DASHBOARD_SUPPORT_SEARCH_READ who has no access of their own
 * there: every area 'read', on reads only (`STAFF_READ_ACCESS`; never a write, docs/api.md).
 */
export interface ServerAccessShape {
  via: 'full' | 'roles' | 'staff';
  areas: AreaLevels;
  /** The names of the member's roles that grant the access (empty with full access). */
  grantedBy: string[];
}

/** The English name of each area, as the dashboard names the pages (the API's messages use them). */
export const ACCESS_AREA_NAMES: Record<AccessArea, string> = {
  panels: 'Panel Menu',
  tickets: 'Tickets',
  statistics: 'Statistics',
  logs: 'Web Logs',
  configs: 'Restore Configs',
  premium: 'Premium',
};

export const FULL_ACCESS: ServerAccessShape = {
  via: 'full',
  areas: Object.fromEntries(ACCESS_AREAS.map((area) => [area, 'write'])) as AreaLevels,
  grantedBy: [],
};

/**
 * Staff read-only access (`via: 'staff'`): a staff member holding DASHBOARD_SUPPORT_SEARCH_READ sees
 * every area of a server they have no access of their own to, and changes nothing.
 */
export const STAFF_READ_ACCESS: ServerAccessShape = {
  via: 'staff',
  areas: Object.fromEntries(ACCESS_AREAS.map((area) => [area, 'read'])) as AreaLevels,
  grantedBy: [],
};

/** Whether `access` allows `level` in `area` ('write' includes 'read'). */
export function allows(access: Pick<ServerAccessShape, 'areas'>, area: AccessArea, level: AccessLevel): boolean {
  const granted = access.areas[area];
  return granted === 'write' || (granted === 'read' && level === 'read');
}

/** Whether `access` allows `level` in any of `areas`. */
export function allowsAny(access: Pick<ServerAccessShape, 'areas'>, areas: readonly AccessArea[], level: AccessLevel): boolean {
  return areas.some((area) => allows(access, area, level));
}

/** Whether `access` opens anything at all (some area at least readable). */
export function hasAnyAccess(access: Pick<ServerAccessShape, 'areas'>): boolean {
  return ACCESS_AREAS.some((area) => access.areas[area] !== null);
}

/** A rule of the server's configuration (`AccessRule`), as far as this computation reads it. */
export interface AccessRuleShape {
  roleId: string;
  areas: Partial<Record<AccessArea, AccessLevel>>;
}

/**
 * The access a member's roles give under the server's access rules: per area the highest level any
 * of the roles grants ('write' over 'read'), and the rules that grant something. `roleIds` are the
 * member's roles; the @everyone role (its id is the server's) counts for every member, so pass
 * `guildId` and a rule for @everyone applies to all.
 */
export function accessFromRules(
  rules: readonly AccessRuleShape[],
  roleIds: readonly string[],
  guildId: string,
): { areas: AreaLevels; grantingRoleIds: string[] } {
  const held = new Set([...roleIds, guildId]);
  const areas = Object.fromEntries(ACCESS_AREAS.map((area) => [area, null])) as AreaLevels;
  const grantingRoleIds: string[] = [];
  for (const rule of rules) {
    if (!held.has(rule.roleId)) continue;
    let grants = false;
    for (const area of ACCESS_AREAS) {
      const level = rule.areas[area];
      if (level !== 'read' && level !== 'write') continue;
      grants = true;
      if (level === 'write' || areas[area] === null) areas[area] = level;
    }
    if (grants) grantingRoleIds.push(rule.roleId);
  }
  return { areas, grantingRoleIds };
}

/** "Panel Menu: write, Web Logs: read" (English, for the API's messages); "nothing" when empty. */
export function describeAreas(areas: Partial<Record<AccessArea, AccessLevel | null>>): string {
  const parts = ACCESS_AREAS.flatMap((area) => {
    const level = areas[area];
    return level ? [`${ACCESS_AREA_NAMES[area]} (${level})`] : [];
  });
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

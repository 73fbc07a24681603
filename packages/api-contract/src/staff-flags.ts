/**
 * The staff flags, without zod (the front ends import these at run time; `staff.ts` builds the
 * schema on them).
 */

/** Staff permission flags. `STAFF_OWNER_IDS` hold all of them; the team manager grants the rest. */
export const STAFF_PERMISSIONS = [
  'DASHBOARD_SUPPORT_SYSTEM_READ',
  'DASHBOARD_SUPPORT_SYSTEM_WRITE',
  'DASHBOARD_SUPPORT_SEARCH_READ',
  'SPECIAL_TEAM_MANAGER_READ',
  'SPECIAL_TEAM_MANAGER_WRITE',
] as const;

/**
 * Flags only an owner grants, revokes, or removes from a member (who manages the team is the owners'
 * call; code 1029 otherwise). The team manager's page disables them for everyone else.
 */
export const OWNER_ONLY_STAFF_PERMISSIONS: readonly (typeof STAFF_PERMISSIONS)[number][] = ['SPECIAL_TEAM_MANAGER_WRITE'];

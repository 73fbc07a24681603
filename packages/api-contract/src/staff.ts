import { z } from 'zod';

/** Staff permission flags. `STAFF_OWNER_IDS` hold all of them; the team manager grants the rest. */
export const STAFF_PERMISSIONS = [
  'DASHBOARD_SUPPORT_SYSTEM_READ',
  'DASHBOARD_SUPPORT_SYSTEM_WRITE',
  'DASHBOARD_SUPPORT_SEARCH_READ',
  'SPECIAL_TEAM_MANAGER_READ',
  'SPECIAL_TEAM_MANAGER_WRITE',
] as const;

export const StaffPermission = z.enum(STAFF_PERMISSIONS);
export type StaffPermission = z.infer<typeof StaffPermission>;

export function isStaffPermission(value: unknown): value is StaffPermission {
  return typeof value === 'string' && (STAFF_PERMISSIONS as readonly string[]).includes(value);
}

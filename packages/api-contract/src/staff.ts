import { z } from './zod-setup';

import { STAFF_PERMISSIONS } from './staff-flags';

export { OWNER_ONLY_STAFF_PERMISSIONS, STAFF_PERMISSIONS } from './staff-flags';

export const StaffPermission = z.enum(STAFF_PERMISSIONS);
export type StaffPermission = z.infer<typeof StaffPermission>;

export function isStaffPermission(value: unknown): value is StaffPermission {
  return typeof value === 'string' && (STAFF_PERMISSIONS as readonly string[]).includes(value);
}

import { type StaffPermission, selectStaffPermissions, useAppSelector } from '@tickety/shared';

/** Whether the signed-in staff member holds a flag (owners hold every flag). */
export function useHoldsFlag(flag: StaffPermission): boolean {
  return useAppSelector(selectStaffPermissions).includes(flag);
}

/** Classes of an inline text link. */
export const linkClasses =
  'font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:text-primary-400 dark:hover:text-primary-300';

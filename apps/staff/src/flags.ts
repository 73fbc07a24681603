import type { StaffPermission } from '@tickety/shared';

/**
 * What each staff flag allows (product design, Staff pages). A Record over the union, so a new flag
 * in the contract fails the type check here until it is described. Type-only import: no zod at run time.
 */
export const STAFF_FLAGS: Record<StaffPermission, { label: string; allows: string }> = {
  DASHBOARD_SUPPORT_SYSTEM_READ: {
    label: 'System (read)',
    allows: "Open System and System Update, and view any user's billing and subscriptions.",
  },
  DASHBOARD_SUPPORT_SYSTEM_WRITE: {
    label: 'System (write)',
    allows: 'Publish announcements and maintenance notices, and make changes on the system pages.',
  },
  DASHBOARD_SUPPORT_SEARCH_READ: {
    label: 'Support search',
    allows: "Open Support Team: search users and servers, and read a server's configuration and tickets.",
  },
  SPECIAL_TEAM_MANAGER_READ: {
    label: 'Team manager (read)',
    allows: 'Open Team Manager and the Test playground, and see every staff member and their flags.',
  },
  SPECIAL_TEAM_MANAGER_WRITE: {
    label: 'Team manager (write)',
    allows: 'Grant and revoke staff flags (every change is logged).',
  },
};

export const FLAG_ORDER = Object.keys(STAFF_FLAGS) as StaffPermission[];

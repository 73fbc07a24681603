import { hasPermission, type StaffPermission, type Team } from '@tickety/shared';

export interface NavItem {
  label: string;
  to: string;
  /** An external URL (opens in the same tab, e.g. the docs site). */
  external?: boolean;
  permission?: StaffPermission;
}

export const PUBLIC_NAV: NavItem[] = [
  { label: 'Features', to: '/#features' },
  { label: 'Premium', to: '/premium' },
  { label: 'Docs', to: '/docs' },
  { label: 'Support', to: '/support' },
  { label: 'Status', to: '/status' },
];

export const APP_NAV: NavItem[] = [
  { label: 'Servers', to: '/dashboard' },
  { label: 'Billing', to: '/billing' },
  { label: 'Premium', to: '/premium-purchase' },
];

/** Staff pages, each shown only to holders of its flag. */
export const STAFF_NAV: NavItem[] = [
  { label: 'Team Manager', to: '/team-manager', permission: 'SPECIAL_TEAM_MANAGER_READ' },
  { label: 'Support Team', to: '/support-team', permission: 'DASHBOARD_SUPPORT_SEARCH_READ' },
  { label: 'System', to: '/system', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
  { label: 'System Update', to: '/systemUpdate', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
  { label: 'Test', to: '/test', permission: 'SPECIAL_TEAM_MANAGER_READ' },
];

export function staffNavFor(team: Team): NavItem[] {
  return STAFF_NAV.filter((item) => item.permission && hasPermission(team, item.permission));
}

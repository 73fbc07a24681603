import { hasPermission, type StaffInfo, type StaffPermission, siteHref } from '@tickety/shared';
import type { ShellKey } from '../lib/i18n';

export interface NavItem {
  /** The label's key in the shell's catalogue (translated when shown). */
  label: ShellKey;
  to: string;
  /** An external URL (opens in the same tab, e.g. the docs site). */
  external?: boolean;
  permission?: StaffPermission;
}

export const PUBLIC_NAV: NavItem[] = [
  { label: 'nav.features', to: `${siteHref('/')}#features` },
  { label: 'nav.premium', to: siteHref('/premium') },
  { label: 'nav.docs', to: siteHref('/docs') },
  { label: 'nav.support', to: siteHref('/support') },
  { label: 'nav.status', to: siteHref('/status') },
];

export const APP_NAV: NavItem[] = [
  { label: 'nav.servers', to: siteHref('/dashboard') },
  { label: 'nav.billing', to: siteHref('/billing') },
  { label: 'nav.premium', to: siteHref('/premium-purchase') },
];

/** Staff pages, each shown only to holders of its flag. */
export const STAFF_NAV: NavItem[] = [
  { label: 'nav.teamManager', to: siteHref('/team-manager'), permission: 'SPECIAL_TEAM_MANAGER_READ' },
  { label: 'nav.supportTeam', to: siteHref('/support-team'), permission: 'DASHBOARD_SUPPORT_SEARCH_READ' },
  { label: 'nav.system', to: siteHref('/system'), permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
  { label: 'nav.systemUpdate', to: siteHref('/systemUpdate'), permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' },
  { label: 'nav.test', to: siteHref('/test'), permission: 'SPECIAL_TEAM_MANAGER_READ' },
];

export function staffNavFor(team: StaffInfo): NavItem[] {
  return STAFF_NAV.filter((item) => item.permission && hasPermission(team, item.permission));
}

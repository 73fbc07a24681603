import type { StaffPermission } from '@tickety/shared';
import type { t } from '../../lib/i18n';

/** A message of this remote's catalogue. */
type MessageKey = Parameters<typeof t>[0];

/**
 * What each staff flag allows: the catalogue keys of its human label and
 * its description, shown with `t(...)` when the page renders (the language can change while it is open).
 * A Record over the union, so a new flag in the contract fails the type check here until it is
 * described. Type-only imports: no zod at run time.
 */
export const STAFF_FLAGS: Record<StaffPermission, { label: MessageKey; allows: MessageKey }> = {
  DASHBOARD_SUPPORT_SYSTEM_READ: { label: 'flags.systemRead.label', allows: 'flags.systemRead.allows' },
  DASHBOARD_SUPPORT_SYSTEM_WRITE: { label: 'flags.systemWrite.label', allows: 'flags.systemWrite.allows' },
  DASHBOARD_SUPPORT_SEARCH_READ: { label: 'flags.searchRead.label', allows: 'flags.searchRead.allows' },
  SPECIAL_TEAM_MANAGER_READ: { label: 'flags.teamManagerRead.label', allows: 'flags.teamManagerRead.allows' },
  SPECIAL_TEAM_MANAGER_WRITE: { label: 'flags.teamManagerWrite.label', allows: 'flags.teamManagerWrite.allows' },
};

export const FLAG_ORDER = Object.keys(STAFF_FLAGS) as StaffPermission[];

/** Classes of a flag's code name (`SPECIAL_TEAM_MANAGER_READ`) beside its label. */
export const flagCode = 'font-mono text-xs break-all';

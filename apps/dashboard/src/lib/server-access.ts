/**
 * What the signed-in user may do on the open server's dashboard, as the shell's server layout read it
 * from `GET /api/guilds/:server` (the API decides on every request; pages only mirror it, so a
 * read-only member sees the page with its actions off and the reason, instead of a refusal after
 * trying).
 */
import { type AccessArea, allows, type ServerAccess } from '@tickety/api-contract';
import { selectOpenServer, selectOpenServerAccess, useAppSelector } from '@tickety/shared';
import { useT } from './i18n';

interface AreaWrite {
  /** Whether saving and the bot's actions are allowed (true while unknown: the API still decides). */
  canWrite: boolean;
  /** Why not, for the page's note (null when allowed). */
  reason: string | null;
  /** Whether the user has full access (owner, Administrator or Manage Server). */
  full: boolean;
}

/** The open server's name (the shell's server layout marks the server it checked access to); null when unknown. */
export function useServerName(): string | null {
  return useAppSelector(selectOpenServer)?.name ?? null;
}

function useServerAccess(): ServerAccess | null {
  return useAppSelector(selectOpenServerAccess);
}

/** Whether the open server is a staff member's read-only view (`via` 'staff'). */
export function useStaffRead(): boolean {
  return useServerAccess()?.via === 'staff';
}

export function useAreaWrite(area: AccessArea): AreaWrite {
  const t = useT();
  const access = useServerAccess();
  if (!access) return { canWrite: true, reason: null, full: true };
  if (allows(access, area, 'write')) return { canWrite: true, reason: null, full: access.via === 'full' };
  // A staff member's read-only view (the API's staff read): no roles to name, nothing to grant.
  if (access.via === 'staff') return { canWrite: false, full: false, reason: t('access.staffReadOnly') };
  return {
    canWrite: false,
    full: false,
    reason: t('access.readOnly', { area: t(`access.area.${area}`), roles: access.grantedBy.join(', ') || '—' }),
  };
}

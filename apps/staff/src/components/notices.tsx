import { type StaffPermission, selectStaffPermissions, useAppSelector } from '@tickety/shared';
import { Alert, Badge } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Clock from 'lucide-react/icons/clock';
import Minus from 'lucide-react/icons/minus';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';

/** An honest notice of what this page does not do yet (ui has no such component; kept local). */
export function ComingNext({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Alert tone="info" title={title} icon={<Clock className="size-5" aria-hidden="true" />}>
      {children}
    </Alert>
  );
}

/** Whether the signed-in staff member holds a flag (owners hold every flag). */
export function useHoldsFlag(flag: StaffPermission): boolean {
  return useAppSelector(selectStaffPermissions).includes(flag);
}

/** "Granted" / "Not granted" with an icon; the words carry the meaning, the colour only repeats it. */
export function GrantBadge({ granted }: { granted: boolean }) {
  const t = useT();
  return granted ? (
    <Badge tone="primary">
      <Check className="size-3.5" aria-hidden="true" />
      {t('grant.granted')}
    </Badge>
  ) : (
    <Badge>
      <Minus className="size-3.5" aria-hidden="true" />
      {t('grant.notGranted')}
    </Badge>
  );
}

/** Classes of an inline text link. */
export const linkClasses =
  'font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:text-primary-400 dark:hover:text-primary-300';

export const flagCode = 'font-mono text-xs break-all';

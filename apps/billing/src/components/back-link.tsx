import { Link } from '@tickety/shared';
import { buttonClasses } from '@tickety/ui';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';

/** The header's way back to a billing page (the one definition of that button in this remote). */
export function BackLink({ to, children }: { to: string; children?: ReactNode }) {
  const t = useT();
  return (
    <Link to={to} className={buttonClasses({ variant: 'secondary' })}>
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children ?? t('backLink.billing')}
    </Link>
  );
}

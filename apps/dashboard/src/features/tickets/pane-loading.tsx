import { Skeleton } from '@tickety/ui';
import { useT } from './i18n';

/** A ticket's pane while its code or its detail arrives. */
export function PaneLoading() {
  const t = useT();
  return (
    <div aria-busy="true" className="space-y-3">
      <span role="status" className="sr-only">
        {t('tickets.ticket.loading')}
      </span>
      <Skeleton className="h-8 w-1/2" />
      <Skeleton className="h-64" />
    </div>
  );
}

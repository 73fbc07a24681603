import { Button, Skeleton } from '@tickety/ui';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { lazy, Suspense, useId, useState } from 'react';
import { useT } from '../configs/i18n';
import { HEALTH_READ, healthApi } from './api';

// The problems with their texts: a chunk of their own, fetched when the summary is opened (or pointed at).
const loadList = () => import('./health-list').then((module) => module.load());
const HealthList = lazy(loadList);

/**
 * The configuration check at the top of the Panel Menu: how many problems (the sidebar's count), opened
 * into the list of them. Nothing while the check runs (it never holds the page up).
 */
export function HealthSummary({ server }: { server: string }) {
  const t = useT();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const health = healthApi.endpoints.configHealth.useQuery(server, { ...HEALTH_READ, skip: server === '' });
  const problems = health.data?.problems;
  const line = 'mb-6 flex flex-wrap items-center gap-2 text-sm text-surface-600 dark:text-surface-400';
  if (!problems) {
    return health.isError ? (
      <p className={line}>
        {t('health.failed')}
        <Button variant="ghost" size="sm" onClick={() => void health.refetch()}>
          {t('common.retry')}
        </Button>
      </p>
    ) : null;
  }
  if (problems.length === 0) return <p className={line}>{t('health.none')}</p>;
  return (
    <section className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 font-semibold text-amber-900 dark:text-amber-100">
          <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
          {t('health.badge', { count: problems.length })}
        </h2>
        <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)} onPointerEnter={() => void loadList()}>
          {t(open ? 'health.hide' : 'health.show')}
        </Button>
      </div>
      <div id={listId}>
        {open ? (
          <Suspense fallback={<Skeleton className="mt-3 h-16 w-full" />}>
            <HealthList problems={problems} />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}

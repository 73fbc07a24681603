import { Alert, Button } from '@tickety/ui';
import { lazy, Suspense, useState } from 'react';
import { useT } from '../configs/i18n';
import { HEALTH_READ, healthApi } from './badge';

// The problems with their texts: a chunk of their own, fetched when the summary is opened (or pointed at).
const loadList = () => import('./health-list').then((module) => module.load());
const HealthList = lazy(loadList);

/**
 * The configuration check at the top of the Panel Menu: how many problems (the sidebar's count), opened
 * into the list of them. Nothing while the check runs or when it finds nothing.
 */
export function HealthSummary({ server }: { server: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const health = healthApi.endpoints.configHealth.useQuery(server, { ...HEALTH_READ, skip: !server });
  const problems = health.data?.problems;
  // A failed read is tried again with the next minute's.
  if (!problems?.length) return health.isError ? <p className="mb-6 text-sm text-surface-600 dark:text-surface-400">{t('health.failed')}</p> : null;
  return (
    <Alert
      tone="warning"
      className="mb-6"
      title={t('health.badge', { count: problems.length })}
      actions={
        <Button variant="secondary" size="sm" aria-expanded={open} onClick={() => setOpen(!open)} onPointerEnter={loadList}>
          {t(open ? 'health.hide' : 'health.show')}
        </Button>
      }
    >
      {open ? (
        <Suspense fallback={null}>
          <HealthList problems={problems} />
        </Suspense>
      ) : null}
    </Alert>
  );
}

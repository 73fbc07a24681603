import { allows } from '@tickety/api-contract';
import { selectOpenServerAccess, setSidebarBadge, useAppSelector, useParams } from '@tickety/shared';
import { useEffect } from 'react';
import { useT } from '../../lib/i18n';
import { HEALTH_READ, healthApi } from './api';

/**
 * The count of configuration problems on the Panel Menu's sidebar entry, while a server page is open
 * (each server page renders it beside itself: routes.tsx). Read only with Panel Menu access.
 */
export function HealthBadge() {
  const t = useT();
  const { server = '' } = useParams();
  const access = useAppSelector(selectOpenServerAccess);
  const skip = server === '' || (access !== null && !allows(access, 'panels', 'read'));
  const count = healthApi.endpoints.configHealth.useQuery(server, { ...HEALTH_READ, skip, selectFromResult: ({ data }) => ({ count: data?.problems.length }) }).count;
  useEffect(() => setSidebarBadge(server, 'configs', count === undefined || skip ? null : { count, label: t('health.badge', { count }) }), [server, count, skip, t]);
  useEffect(() => () => setSidebarBadge(server, 'configs', null), [server]);
  return null;
}

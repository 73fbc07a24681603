import { Card, PageHeader } from '@tickety/ui';
import { ComingNext, flagCode, GrantBadge, useHoldsFlag } from '../components/notices';
import { T, useT } from '../lib/i18n';

/** /systemUpdate: announcements and maintenance notices, for staff. */
export default function SystemUpdatePage() {
  const t = useT();
  const canPublish = useHoldsFlag('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  return (
    <div>
      <PageHeader title={t('title.systemUpdate')} description={t('systemUpdate.description')} />
      <div className="space-y-6">
        <ComingNext title={t('systemUpdate.next.title')}>{t('systemUpdate.next.body')}</ComingNext>
        <Card className="flex flex-col gap-3 p-5 text-sm sm:flex-row sm:items-center sm:justify-between sm:p-6">
          <div className="min-w-0">
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('systemUpdate.whoCanPublish')}</h2>
            <p className="mt-1 text-surface-700 dark:text-surface-300">
              <T k="systemUpdate.whoCanPublishBody" components={{ code: <code className={flagCode} /> }} />
            </p>
          </div>
          <GrantBadge granted={canPublish} />
        </Card>
      </div>
    </div>
  );
}

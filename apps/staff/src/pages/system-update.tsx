import { Card, PageHeader } from '@tickety/ui';
import { ComingNext, flagCode, GrantBadge, useHoldsFlag } from '../components/notices';

/** /systemUpdate: announcements and maintenance notices, for staff. */
export default function SystemUpdatePage() {
  const canPublish = useHoldsFlag('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  return (
    <div>
      <PageHeader title="System Update" description="Publish announcements and maintenance notices, shown to every visitor as a banner." />
      <div className="space-y-6">
        <ComingNext title="Publishing notices comes with the staff tools">
          This version cannot publish or list announcements, and no banner is shown to visitors yet.
        </ComingNext>
        <Card className="flex flex-col gap-3 p-5 text-sm sm:flex-row sm:items-center sm:justify-between sm:p-6">
          <div>
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">Who can publish</h2>
            <p className="mt-1 text-surface-700 dark:text-surface-300">
              Staff holding <code className={flagCode}>DASHBOARD_SUPPORT_SYSTEM_WRITE</code>. Your account:
            </p>
          </div>
          <GrantBadge granted={canPublish} />
        </Card>
      </div>
    </div>
  );
}

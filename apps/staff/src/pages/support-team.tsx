import { Card, PageHeader } from '@tickety/ui';
import { ComingNext } from '../components/notices';
import { useT } from '../lib/i18n';

/** /support-team: search users and servers, read-only, for staff. */
export default function SupportTeamPage() {
  const t = useT();
  return (
    <div>
      <PageHeader title={t('title.supportTeam')} description={t('supportTeam.description')} />
      <div className="space-y-6">
        <ComingNext title={t('supportTeam.next.title')}>{t('supportTeam.next.body')}</ComingNext>
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('supportTeam.willShow')}</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>{t('supportTeam.willShow.find')}</li>
            <li>{t('supportTeam.willShow.config')}</li>
            <li>{t('supportTeam.willShow.subscriptions')}</li>
          </ul>
        </Card>
      </div>
    </div>
  );
}

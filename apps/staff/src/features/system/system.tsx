import { Link } from '@tickety/shared';
import { Card, PageHeader } from '@tickety/ui';
import { linkClasses } from '../../components/notices';
import { href } from '../../lib/hrefs';
import { Message, useT } from '../../lib/i18n';
import { PaymentWebhooks } from './payment-webhooks';
import { StaffSystemAnswer } from './system-health';

/** /system: the health of the service, for staff (the page is guarded by DASHBOARD_SUPPORT_SYSTEM_READ). */
export default function SystemPage() {
  const t = useT();
  return (
    <div>
      <PageHeader title={t('title.system')} description={t('system.description')} />
      <div className="space-y-10">
        <StaffSystemAnswer />
        <PaymentWebhooks />
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('system.public.heading')}</h2>
          <p className="mt-2">
            <Message k="system.public.body" components={{ link: <Link to={href('/status')} className={linkClasses} /> }} />
          </p>
        </Card>
      </div>
    </div>
  );
}

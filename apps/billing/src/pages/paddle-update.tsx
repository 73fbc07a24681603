import { Card, PageHeader } from '@tickety/ui';
import { BackLink } from '../components/back-link';
import { CheckoutAvailability } from '../components/notices';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';

/** /billing/paddleUpdate: Paddle's update-payment-method checkout. */
export default function PaddleUpdatePage() {
  const t = useT();
  return (
    <div>
      <PageHeader title={t('title.paddleUpdate')} description={t('paddleUpdate.description')} actions={<BackLink to={href('/billing')} />} />
      <div className="space-y-6">
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('paddle.whatItDoes')}</h2>
          <p className="mt-2">{t('paddleUpdate.body')}</p>
        </Card>
        <CheckoutAvailability purpose="update" />
      </div>
    </div>
  );
}

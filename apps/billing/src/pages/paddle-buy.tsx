import { Link, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses, Card, PageHeader } from '@tickety/ui';
import { CheckoutAvailability } from '../components/notices';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';

/** /billing/paddleBuy: Paddle's checkout for the chosen plan. */
export default function PaddleBuyPage() {
  const t = useT();
  const { productName } = useRuntimeConfig();
  return (
    <div>
      <PageHeader
        title={t('title.paddleBuy')}
        description={t('paddleBuy.description')}
        actions={
          <Link to={href('/premium-purchase')} className={buttonClasses({ variant: 'secondary' })}>
            {t('paddleBuy.comparePlans')}
          </Link>
        }
      />
      <div className="space-y-6">
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('paddle.whatItDoes')}</h2>
          <p className="mt-2">{t('paddleBuy.body', { product: productName })}</p>
        </Card>
        <CheckoutAvailability purpose="purchase" />
      </div>
    </div>
  );
}

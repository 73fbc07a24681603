import type { Plan } from '@tickety/api-contract';
import { formatPrice } from '@tickety/shared';
import { Badge, Card } from '@tickety/ui';
import { useT } from '../lib/i18n';

/** The plan being bought: its name, interval, price and limits. */
export function PlanSummary({ plan, interval }: { plan: Plan; interval: 'month' | 'year' }) {
  const t = useT();
  const price = interval === 'year' ? plan.priceYearly : plan.priceMonthly;
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold text-surface-900 dark:text-surface-50">{plan.name}</h2>
        <Badge tone="primary">{t(interval === 'year' ? 'billing.card.yearly' : 'billing.card.monthly')}</Badge>
      </div>
      {price !== null ? (
        <p className="mt-2 text-2xl font-bold text-surface-900 dark:text-surface-50">
          {formatPrice(price, plan.currency)}{' '}
          <span className="text-sm font-normal text-surface-600 dark:text-surface-400">{t(interval === 'year' ? 'premium.plan.perYear' : 'premium.plan.perMonth')}</span>
        </p>
      ) : null}
      <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">{t('premium.plan.limits', { panels: plan.limits.panels, servers: plan.limits.servers })}</p>
    </Card>
  );
}

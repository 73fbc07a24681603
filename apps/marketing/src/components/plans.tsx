import type { Plan } from '@tickety/api-contract';
import { type BillingInterval, formatNumber, formatPrice, isPaid, priceFor, usePlansQuery, yearlySaving } from '@tickety/shared';
import { Alert, Badge, Button, Card, cx, EmptyState, Skeleton } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import { type ReactNode, useId, useState } from 'react';
import { type MessageKey, useT } from '../lib/i18n';

export type BillingPeriod = BillingInterval;

/** The catalogue keys of the period names ("Monthly", "Yearly"). */
const PERIOD_LABEL: Record<BillingPeriod, MessageKey> = { monthly: 'plans.period.monthly', yearly: 'plans.period.yearly' };

export { priceFor };

export function isFreePlan(plan: Plan): boolean {
  return !isPaid(plan);
}

/** The best saving of paying yearly instead of 12 months over the plans, in whole percent (null when none). */
function yearlySavingPercent(plans: Plan[]): number | null {
  const savings = plans.map(yearlySaving).filter((p): p is number => p !== null);
  return savings.length ? Math.max(...savings) : null;
}

/** Monthly / yearly as a pair of radio buttons that look like a segmented control. */
function BillingPeriodToggle({ value, onChange, saving, className }: { value: BillingPeriod; onChange: (period: BillingPeriod) => void; saving: number | null; className?: string }) {
  const name = useId();
  const t = useT();
  return (
    <fieldset className={cx('inline-flex rounded-full bg-surface-200/70 p-1 ring-1 ring-inset ring-surface-300 dark:bg-surface-800 dark:ring-surface-700', className)}>
      <legend className="sr-only">{t('plans.period.legend')}</legend>
      {(['monthly', 'yearly'] as const).map((period) => (
        <label
          key={period}
          className={cx(
            'relative inline-flex cursor-pointer items-center gap-2 rounded-full px-4 py-1.5 text-sm font-semibold transition select-none',
            'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-primary-500',
            value === period
              ? 'bg-white text-surface-900 shadow-sm dark:bg-surface-600 dark:text-white'
              : 'text-surface-600 hover:text-surface-900 dark:text-surface-300 dark:hover:text-white',
          )}
        >
          <input type="radio" name={name} value={period} checked={value === period} onChange={() => onChange(period)} className="sr-only" />
          {t(PERIOD_LABEL[period])}
          {period === 'yearly' && saving ? (
            <span className="rounded-full bg-primary-100 px-2 py-0.5 text-xs font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-200">
              {t('plans.save', { percent: formatNumber(saving) })}
            </span>
          ) : null}
        </label>
      ))}
    </fieldset>
  );
}

function PriceBlock({ plan, period, compact }: { plan: Plan; period: BillingPeriod; compact: boolean }) {
  const t = useT();
  const big = compact ? 'text-3xl' : 'text-4xl';
  if (isFreePlan(plan)) {
    return (
      <div>
        <p className="flex flex-wrap items-baseline gap-x-1">
          <span className={cx(big, 'font-bold tracking-tight text-surface-900 dark:text-surface-50')}>{formatPrice(0, plan.currency)}</span>
          <span className="text-sm text-surface-600 dark:text-surface-400">{t('plans.freeForever')}</span>
        </p>
        <p className="mt-1 min-h-5 text-sm text-surface-600 dark:text-surface-400">{t('plans.noCard')}</p>
      </div>
    );
  }
  const chosen = priceFor(plan, period);
  const other: BillingPeriod = period === 'monthly' ? 'yearly' : 'monthly';
  const shownPeriod = chosen === null ? other : period;
  const amount = chosen ?? priceFor(plan, other);
  if (amount === null) return <p className="text-sm text-surface-600 dark:text-surface-400">{t('plans.priceOnRequest')}</p>;
  return (
    <div>
      <p className="flex flex-wrap items-baseline gap-x-1">
        <span className={cx(big, 'font-bold tracking-tight text-surface-900 dark:text-surface-50')}>{formatPrice(amount, plan.currency)}</span>
        <span className="text-sm text-surface-600 dark:text-surface-400">{t(shownPeriod === 'monthly' ? 'plans.perMonth' : 'plans.perYear')}</span>
      </p>
      <p className="mt-1 min-h-5 text-sm text-surface-600 dark:text-surface-400">
        {chosen === null
          ? t(other === 'monthly' ? 'plans.onlyMonthly' : 'plans.onlyYearly')
          : period === 'yearly'
            ? t('plans.monthlyEquivalent', { price: formatPrice(Math.round((amount / 12) * 100) / 100, plan.currency) })
            : t('plans.billedMonthly')}
      </p>
    </div>
  );
}

/** The plan's limits as two figures. */
function Limits({ plan, compact }: { plan: Plan; compact: boolean }) {
  const t = useT();
  const { panels, servers } = plan.limits;
  const items = [
    { id: 'panels', label: t('plans.limit.panels', { count: panels }), value: panels },
    { id: 'servers', label: t(servers === 1 ? 'plans.limit.server' : 'plans.limit.servers'), value: servers },
  ];
  return (
    <dl className={cx('grid grid-cols-2 gap-3', compact ? 'mt-4' : 'mt-6')}>
      {items.map((i) => (
        <div key={i.id} className="rounded-lg bg-surface-100 px-3 py-2 dark:bg-surface-800">
          <dt className="text-xs text-surface-600 dark:text-surface-400">{i.label}</dt>
          <dd className="text-lg font-semibold text-surface-900 tabular-nums dark:text-surface-50">{formatNumber(i.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One plan: name, price for the chosen period, limits, features and a call to action. */
export function PlanCard({ plan, period, cta, compact = false, headingLevel = 2 }: { plan: Plan; period: BillingPeriod; cta: ReactNode; compact?: boolean; headingLevel?: 2 | 3 }) {
  const t = useT();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = useId();
  return (
    <Card
      aria-labelledby={headingId}
      role="group"
      className={cx(
        'relative flex h-full flex-col',
        compact ? 'p-5' : 'p-6 sm:p-8',
        plan.highlight && 'ring-2 ring-primary-500 dark:ring-primary-400',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading id={headingId} className={cx('font-semibold text-surface-900 dark:text-surface-50', compact ? 'text-lg' : 'text-xl')}>
          {plan.name}
        </Heading>
        {plan.highlight ? <Badge tone="primary">{t('plans.mostPopular')}</Badge> : null}
      </div>
      <div className={compact ? 'mt-3' : 'mt-5'}>
        <PriceBlock plan={plan} period={period} compact={compact} />
      </div>
      <div className={compact ? 'mt-4' : 'mt-6'}>{cta}</div>
      <Limits plan={plan} compact={compact} />
      <ul className={cx('space-y-2.5 text-sm text-surface-700 dark:text-surface-300', compact ? 'mt-4' : 'mt-6')} aria-label={t('plans.includes', { plan: plan.name })}>
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2.5">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Placeholder cards in the plans' layout while they load. */
function PlanSkeletons({ count = 2, compact = false }: { count?: number; compact?: boolean }) {
  const t = useT();
  return (
    <div role="status" aria-busy="true" aria-label={t('plans.loading')} className={cx('grid gap-6', count > 1 && 'md:grid-cols-2')}>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Card key={i} className={compact ? 'p-5' : 'p-6 sm:p-8'}>
          <Skeleton className="h-6 w-24" />
          <Skeleton className="mt-5 h-10 w-32" />
          <Skeleton className="mt-6 h-10 w-full" />
          <div className="mt-8 space-y-3">
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-4/5" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        </Card>
      ))}
    </div>
  );
}

/**
 * Plans in a grid of one, two or three columns: by viewport on pages, by the container's own width
 * when compact (a display page lives in a frame of any size).
 */
function planGridClasses(count: number, compact = false): string {
  if (compact) return cx('grid gap-4', count >= 2 && '@xl:grid-cols-2', count >= 3 && '@4xl:grid-cols-3');
  return cx('grid gap-6', count === 2 && 'md:grid-cols-2', count >= 3 && 'md:grid-cols-2 lg:grid-cols-3');
}

/**
 * The plan catalogue from `GET /api/plans` with its period toggle, in every state: skeletons while
 * loading, a retry after a failed (cancelled) load, a message when nothing is on sale. The overlay
 * already reported any error; this only keeps the page useful afterwards.
 */
export function PlanCatalogue({
  compact = false,
  renderCta,
  footer,
}: {
  compact?: boolean;
  renderCta: (plan: Plan, period: BillingPeriod) => ReactNode;
  footer?: (plans: Plan[]) => ReactNode;
}) {
  const t = useT();
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const { data: plans, isError, isFetching, refetch } = usePlansQuery();

  if (plans && plans.length > 0) {
    return (
      <div className={compact ? '@container' : undefined}>
        <div className={cx('flex justify-center', compact ? 'mb-4' : 'mb-8')}>
          <BillingPeriodToggle value={period} onChange={setPeriod} saving={yearlySavingPercent(plans)} />
        </div>
        <div className={planGridClasses(plans.length, compact)}>
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} period={period} compact={compact} cta={renderCta(plan, period)} />
          ))}
        </div>
        {footer?.(plans)}
      </div>
    );
  }
  if (plans) {
    return <EmptyState title={t('plans.empty.title')} description={t('plans.empty.text')} />;
  }
  if (isError && !isFetching) {
    return (
      <Alert
        tone="warning"
        title={t('plans.error.title')}
        actions={
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            {t('common.tryAgain')}
          </Button>
        }
      >
        {t('plans.error.text')}
      </Alert>
    );
  }
  return <PlanSkeletons compact={compact} />;
}

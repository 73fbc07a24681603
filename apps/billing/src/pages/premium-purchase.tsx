import type { Plan } from '@tickety/api-contract';
import { type BillingInterval, formatNumber, formatPrice, isPaid, Link, login, priceFor, selectSub, selectUser, useAppDispatch, useAppSelector, usePlansQuery, useRuntimeConfig, yearlySaving } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, cx, PageHeader, Skeleton } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Crown from 'lucide-react/icons/crown';
import LogIn from 'lucide-react/icons/log-in';
import { useId, useState } from 'react';
import { href } from '../lib/hrefs';
import { T, useT } from '../lib/i18n';

const INTERVALS = [
  { id: 'monthly', label: 'premium.interval.monthly' },
  { id: 'yearly', label: 'premium.interval.yearly' },
] as const satisfies ReadonlyArray<{ id: BillingInterval; label: string }>;

/** /premium-purchase: the plan catalogue (monthly or yearly) and where checkout stands on this deployment. */
export default function PremiumPurchasePage() {
  const t = useT();
  const { data: plans, isError, refetch } = usePlansQuery();
  const [billingInterval, setBillingInterval] = useState<BillingInterval>('monthly');
  const user = useAppSelector(selectUser);
  const sub = useAppSelector(selectSub);
  const { paddleToken } = useRuntimeConfig();

  const paid = plans?.filter(isPaid) ?? [];
  const free = plans?.find((p) => !isPaid(p));

  return (
    <div>
      <PageHeader title={t('title.premiumPurchase')} description={t('premium.description')} />

      {sub?.premium ? (
        <Alert tone="primary" title={t('premium.alreadyPremium.title')} className="mb-6">
          <T k="premium.alreadyPremium.body" components={{ link: <Link to={href('/billing')} className="font-medium underline underline-offset-2" /> }} />
        </Alert>
      ) : null}

      <IntervalPicker value={billingInterval} onChange={setBillingInterval} />

      <section aria-label={t('premium.plans.label')} aria-busy={!plans && !isError} className="mt-6">
        {plans ? (
          paid.length > 0 ? (
            <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
              {paid.map((plan) => (
                <li key={plan.id} className="flex">
                  <PlanCard plan={plan} interval={billingInterval} canBuy={user !== null && paddleToken !== null} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-surface-600 dark:text-surface-400">{t('premium.plans.noPaid')}</p>
          )
        ) : isError ? (
          <Alert
            tone="danger"
            title={t('premium.plans.loadFailed')}
            actions={
              <Button variant="secondary" size="sm" onClick={() => void refetch()}>
                {t('premium.plans.retry')}
              </Button>
            }
          >
            {t('premium.plans.loadFailedBody')}
          </Alert>
        ) : (
          <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            <Skeleton className="h-80" />
            <Skeleton className="h-80" />
          </div>
        )}
        {free ? (
          <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">
            {t('premium.free', { name: free.name, panels: free.limits.panels })}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="checkout-heading" className="mt-10">
        <h2 id="checkout-heading" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
          {t('premium.checkout.heading')}
        </h2>
        {!user ? (
          <LoginToBuy />
        ) : paddleToken ? (
          <p className="text-sm text-surface-700 dark:text-surface-300">{t('premium.checkout.paddle')}</p>
        ) : (
          <Alert tone="warning" title={t('checkout.notConfigured.title')}>
            {t('paddleBuy.notConfigured')}
          </Alert>
        )}
      </section>
    </div>
  );
}

function IntervalPicker({ value, onChange }: { value: BillingInterval; onChange: (v: BillingInterval) => void }) {
  const t = useT();
  const name = useId();
  return (
    <fieldset>
      <legend className="sr-only">{t('premium.interval.legend')}</legend>
      <div className="inline-flex rounded-lg bg-surface-100 p-1 ring-1 ring-inset ring-surface-200 dark:bg-surface-900 dark:ring-surface-800">
        {INTERVALS.map((option) => (
          <label key={option.id} className="relative">
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
              className="peer sr-only"
            />
            <span
              className={cx(
                'block cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium text-surface-700 transition dark:text-surface-300',
                'peer-checked:bg-white peer-checked:text-surface-900 peer-checked:shadow-sm dark:peer-checked:bg-surface-700 dark:peer-checked:text-surface-50',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-500',
              )}
            >
              {t(option.label)}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PlanCard({ plan, interval, canBuy }: { plan: Plan; interval: BillingInterval; canBuy: boolean }) {
  const t = useT();
  const paddlePrice = plan.providerPrices.find((p) => p.provider === 'paddle' && p.interval === (interval === 'yearly' ? 'year' : 'month'));
  const headingId = useId();
  const price = priceFor(plan, interval);
  const saving = interval === 'yearly' ? yearlySaving(plan) : null;
  return (
    <Card
      aria-labelledby={headingId}
      role="group"
      className={cx('flex w-full flex-col p-6', plan.highlight && 'ring-2 ring-primary-500 dark:ring-primary-400')}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Crown className="size-5 text-primary-600 dark:text-primary-400" aria-hidden="true" />
        <h2 id={headingId} className="text-lg font-semibold text-surface-900 dark:text-surface-50">
          {plan.name}
        </h2>
        {plan.highlight ? <Badge tone="primary">{t('premium.plan.mostPopular')}</Badge> : null}
      </div>
      <p className="mt-4 flex flex-wrap items-baseline gap-x-1">
        {price === null ? (
          <span className="text-sm text-surface-600 dark:text-surface-400">
            {interval === 'monthly' ? t('premium.plan.notSoldMonthly') : t('premium.plan.notSoldYearly')}
          </span>
        ) : (
          <>
            <span className="text-3xl font-bold tracking-tight text-surface-900 dark:text-surface-50">{formatPrice(price, plan.currency)}</span>
            <span className="text-sm text-surface-600 dark:text-surface-400">{interval === 'monthly' ? t('premium.plan.perMonth') : t('premium.plan.perYear')}</span>
          </>
        )}
        {saving ? (
          <Badge tone="info" className="ml-2">
            {t('premium.plan.save', { percent: formatNumber(saving) })}
          </Badge>
        ) : null}
      </p>
      <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
        {t('premium.plan.limits', { panels: plan.limits.panels, servers: plan.limits.servers })}
      </p>
      <ul className="mt-5 space-y-2 text-sm text-surface-700 dark:text-surface-300">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" aria-hidden="true" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      {canBuy && paddlePrice ? (
        <Link to={href('/billing/paddleBuy', {}, { price: paddlePrice.id })} className={buttonClasses({ className: 'mt-6 w-full' })}>
          {t('premium.plan.buy', { plan: plan.name })}
        </Link>
      ) : null}
    </Card>
  );
}

function LoginToBuy() {
  const t = useT();
  const dispatch = useAppDispatch();
  return (
    <Card className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h3 className="font-semibold text-surface-900 dark:text-surface-50">{t('premium.login.title')}</h3>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('premium.login.body')}</p>
      </div>
      <Button variant="discord" onClick={() => void dispatch(login())}>
        <LogIn className="size-4" aria-hidden="true" />
        {t('premium.login.button')}
      </Button>
    </Card>
  );
}

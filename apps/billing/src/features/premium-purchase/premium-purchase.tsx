import type { Plan } from '@tickety/api-contract';
import { type BillingInterval, formatNumber, formatPrice, isPaid, Link, login, priceFor, selectSub, selectUser, useAppDispatch, useAppSelector, usePlansQuery, useRuntimeConfig, yearlySaving } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, cx, PageHeader, Skeleton } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Crown from 'lucide-react/icons/crown';
import LogIn from 'lucide-react/icons/log-in';
import { useId, useState } from 'react';
import { href } from '../../lib/hrefs';
import { Message, useT } from '../../lib/i18n';
import { PROVIDER_ORDER, PROVIDERS, type ProviderId } from '../../lib/providers';
import { useBillingProvidersQuery } from './api';

const INTERVALS = [
  { id: 'monthly', label: 'premium.interval.monthly' },
  { id: 'yearly', label: 'premium.interval.yearly' },
] as const satisfies ReadonlyArray<{ id: BillingInterval; label: string }>;

/**
 * /premium-purchase: the plan catalogue (monthly or yearly) and, for a signed-in user, one buy button
 * per provider that sells the plan at that interval and that this server sells through now
 * (`GET /api/billing/providers`; Paddle also needs the deployment's Paddle.js token).
 */
export default function PremiumPurchasePage() {
  const t = useT();
  const { data: plans, isError, refetch } = usePlansQuery();
  const [billingInterval, setBillingInterval] = useState<BillingInterval>('monthly');
  const user = useAppSelector(selectUser);
  const sub = useAppSelector(selectSub);
  const { paddleToken } = useRuntimeConfig();
  const providers = useBillingProvidersQuery(undefined, { skip: user === null });
  const kindIds = useId();

  const paid = plans?.filter(isPaid) ?? [];
  const free = plans?.find((p) => !isPaid(p));
  // What this server sells through now: null while that is not known (loading, or its read failed).
  const available: ProviderId[] | null = providers.data
    ? PROVIDER_ORDER.filter((p) => providers.data!.available.includes(p) && (p !== 'paddle' || paddleToken !== null))
    : null;
  const offered = available?.filter((p) => paid.some((plan) => plan.providerPrices.some((price) => price.provider === p))) ?? [];
  const kindId = (provider: ProviderId) => `${kindIds}-${provider}`;
  const buying: Buying | null = user === null ? null : available ? { available, kindId } : providers.isError ? null : 'loading';

  return (
    <div>
      <PageHeader title={t('title.premiumPurchase')} description={t('premium.description')} />

      {sub?.premium ? (
        <Alert tone="primary" title={t('premium.alreadyPremium.title')} className="mb-6">
          <Message k="premium.alreadyPremium.body" components={{ link: <Link to={href('/billing')} className="font-medium underline underline-offset-2" /> }} />
        </Alert>
      ) : null}

      <IntervalPicker value={billingInterval} onChange={setBillingInterval} />

      {user !== null && providers.isError ? (
        <Alert
          tone="warning"
          title={t('premium.providers.loadFailed')}
          className="mt-6"
          actions={
            <Button variant="secondary" size="sm" loading={providers.isFetching} onClick={() => void providers.refetch()}>
              {t('premium.plans.retry')}
            </Button>
          }
        >
          {t('premium.providers.loadFailedBody')}
        </Alert>
      ) : null}

      <section aria-label={t('premium.plans.label')} aria-busy={!plans && !isError} className="mt-6">
        {plans ? (
          paid.length > 0 ? (
            <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
              {paid.map((plan) => (
                <li key={plan.id} className="flex">
                  <PlanCard plan={plan} interval={billingInterval} buying={buying} />
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
        ) : providers.isError ? (
          <p className="text-sm text-surface-700 dark:text-surface-300">{t('premium.providers.loadFailedBody')}</p>
        ) : !available || !plans ? (
          isError ? null : <Skeleton className="h-16" />
        ) : offered.length > 0 ? (
          <>
            <p className="text-sm text-surface-700 dark:text-surface-300">{t('premium.checkout.choose')}</p>
            <ul className="mt-3 space-y-1 text-sm text-surface-700 dark:text-surface-300">
              {offered.map((provider) => (
                <li key={provider} className="flex gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" aria-hidden="true" />
                  <span id={kindId(provider)}>{t('premium.checkout.providerLine', { name: PROVIDERS[provider].name, kind: t(PROVIDERS[provider].kind) })}</span>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <Alert tone="warning" title={t('checkout.notConfigured.title')}>
            {t('paddleBuy.notConfigured')}
          </Alert>
        )}
      </section>
    </div>
  );
}

function IntervalPicker({ value, onChange }: { value: BillingInterval; onChange: (interval: BillingInterval) => void }) {
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

/** A signed-in buyer: the providers that sell now (and the id of the line saying what each is), or 'loading'. */
type Buying = 'loading' | { available: ProviderId[]; kindId: (provider: ProviderId) => string };

function PlanCard({ plan, interval, buying }: { plan: Plan; interval: BillingInterval; buying: Buying | null }) {
  const t = useT();
  const want = interval === 'yearly' ? 'year' : 'month';
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
      {buying === 'loading' ? (
        <div className="mt-auto pt-6" aria-hidden="true">
          <Skeleton className="h-10" />
        </div>
      ) : buying ? (
        <BuyButtons plan={plan} interval={want} buying={buying} />
      ) : null}
    </Card>
  );
}

/** One link per provider that sells this plan at this interval and sells now. */
function BuyButtons({ plan, interval, buying }: { plan: Plan; interval: 'month' | 'year'; buying: Exclude<Buying, 'loading'> }) {
  const t = useT();
  const prices = buying.available.flatMap((provider) => plan.providerPrices.filter((p) => p.provider === provider && p.interval === interval).slice(0, 1));
  if (prices.length === 0) return null;
  return (
    <ul className="mt-auto flex flex-col gap-2 pt-6">
      {prices.map((price, i) => (
        <li key={price.provider}>
          <Link
            to={price.provider === 'paddle' ? href('/billing/paddleBuy', {}, { price: price.id }) : href('/billing/checkout', {}, { provider: price.provider, price: price.id })}
            aria-describedby={buying.kindId(price.provider)}
            className={buttonClasses({ variant: price.provider === 'discord' ? 'discord' : i === 0 ? 'primary' : 'secondary', className: 'w-full' })}
          >
            {t(PROVIDERS[price.provider].buy)}
          </Link>
        </li>
      ))}
    </ul>
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

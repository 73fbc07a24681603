import type { Plan } from '@tickety/api-contract';
import { type BillingInterval, formatPrice, isPaid, Link, login, priceFor, selectSub, selectUser, useAppDispatch, useAppSelector, usePlansQuery, useRuntimeConfig, yearlySaving } from '@tickety/shared';
import { Alert, Badge, Button, Card, cx, PageHeader, Skeleton } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Crown from 'lucide-react/icons/crown';
import LogIn from 'lucide-react/icons/log-in';
import { useId, useState } from 'react';
import { CheckoutAvailability } from '../components/notices';

const INTERVALS: Array<{ id: BillingInterval; label: string }> = [
  { id: 'monthly', label: 'Monthly' },
  { id: 'yearly', label: 'Yearly' },
];

/** /premium-purchase: the plan catalogue (monthly or yearly) and where checkout stands on this deployment. */
export default function PremiumPurchasePage() {
  const { data: plans, isError, refetch } = usePlansQuery();
  const [billingInterval, setBillingInterval] = useState<BillingInterval>('monthly');
  const user = useAppSelector(selectUser);
  const sub = useAppSelector(selectSub);
  const { paddleToken } = useRuntimeConfig();

  const paid = plans?.filter(isPaid) ?? [];
  const free = plans?.find((p) => !isPaid(p));

  return (
    <div>
      <PageHeader title="Premium Purchase" description="Choose a premium plan for your servers, billed monthly or yearly." />

      {sub?.premium ? (
        <Alert tone="primary" title="Your account already has premium" className="mb-6">
          See which servers it covers on your{' '}
          <Link to="/billing" className="font-medium underline underline-offset-2">
            Billing
          </Link>{' '}
          page.
        </Alert>
      ) : null}

      <IntervalPicker value={billingInterval} onChange={setBillingInterval} />

      <section aria-label="Plans" aria-busy={!plans && !isError} className="mt-6">
        {plans ? (
          paid.length > 0 ? (
            <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
              {paid.map((plan) => (
                <li key={plan.id} className="flex">
                  <PlanCard plan={plan} interval={billingInterval} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-surface-600 dark:text-surface-400">This deployment's catalogue has no paid plan.</p>
          )
        ) : isError ? (
          <Alert tone="danger" title="The plan catalogue could not be loaded" actions={<Button variant="secondary" size="sm" onClick={() => void refetch()}>Try again</Button>}>
            Prices are shown once the catalogue loads.
          </Alert>
        ) : (
          <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            <Skeleton className="h-80" />
            <Skeleton className="h-80" />
          </div>
        )}
        {free ? (
          <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">
            {free.name} needs no purchase: every server starts on it, with up to {free.limits.panels} ticket panels.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="checkout-heading" className="mt-10">
        <h2 id="checkout-heading" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
          Checkout
        </h2>
        {paddleToken && !user ? <LoginToBuy /> : <CheckoutAvailability purpose="purchase" />}
      </section>
    </div>
  );
}

function IntervalPicker({ value, onChange }: { value: BillingInterval; onChange: (v: BillingInterval) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="sr-only">Billing interval</legend>
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
              {option.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PlanCard({ plan, interval }: { plan: Plan; interval: BillingInterval }) {
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
        {plan.highlight ? <Badge tone="primary">Most popular</Badge> : null}
      </div>
      <p className="mt-4 flex flex-wrap items-baseline gap-x-1">
        {price === null ? (
          <span className="text-sm text-surface-600 dark:text-surface-400">Not sold {interval}</span>
        ) : (
          <>
            <span className="text-3xl font-bold tracking-tight text-surface-900 dark:text-surface-50">{formatPrice(price, plan.currency)}</span>
            <span className="text-sm text-surface-600 dark:text-surface-400">{interval === 'monthly' ? 'per month' : 'per year'}</span>
          </>
        )}
        {saving ? (
          <Badge tone="info" className="ml-2">
            Save {saving}%
          </Badge>
        ) : null}
      </p>
      <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
        Up to {plan.limits.panels} ticket panels · covers {plan.limits.servers} {plan.limits.servers === 1 ? 'server' : 'servers'}
      </p>
      <ul className="mt-5 space-y-2 text-sm text-surface-700 dark:text-surface-300">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" aria-hidden="true" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function LoginToBuy() {
  const dispatch = useAppDispatch();
  return (
    <Card className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h3 className="font-semibold text-surface-900 dark:text-surface-50">Log in to buy</h3>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
          Premium belongs to your Discord account and is then attached to your servers. Log in with Discord to continue.
        </p>
      </div>
      <Button variant="discord" onClick={() => void dispatch(login())}>
        <LogIn className="size-4" aria-hidden="true" />
        Log in with Discord
      </Button>
    </Card>
  );
}

import type { Plan } from '@tickety/api-contract';
import { failureText, formatPrice, Link, selectSub, useAppSelector, usePlansQuery, useSearchParams } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, PageHeader, Skeleton, Spinner } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import { useEffect, useState } from 'react';
import { LoadFailed } from '../components/load-failed';
import { useCheckoutStatusQuery, usePaddleCheckoutMutation } from '../lib/billing-api';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';
import { usePaddleCheckout } from '../lib/paddle-checkout';

/** How often "activating" asks whether Paddle's webhook has landed. */
const ACTIVATION_POLL_MS = 1500;

/**
 * /billing/paddleBuy?price=<Paddle price id>: Paddle's checkout for a plan of the catalogue. Once
 * Paddle says the payment is complete, the address becomes ?txn=<transaction> (so a refresh shows
 * where the purchase stands instead of a second checkout) and the page shows "activating" until the
 * webhook has landed and the subscription gives premium.
 */
export default function PaddleBuyPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const txn = params.get('txn');
  const checkout = usePaddleCheckout();

  useEffect(() => {
    if (checkout.phase === 'completed' && checkout.transactionId && !txn) setParams({ txn: checkout.transactionId }, { replace: true });
  }, [checkout.phase, checkout.transactionId, txn, setParams]);

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
      {txn ? <Activation transaction={txn} /> : <Checkout priceId={params.get('price')} checkout={checkout} />}
    </div>
  );
}

function Checkout({ priceId, checkout }: { priceId: string | null; checkout: ReturnType<typeof usePaddleCheckout> }) {
  const t = useT();
  const { data: plans, isLoading } = usePlansQuery();
  const sub = useAppSelector(selectSub);
  const [prepare, { isLoading: preparing, error }] = usePaddleCheckoutMutation();
  const found = plans?.flatMap((plan) => plan.providerPrices.filter((p) => p.provider === 'paddle' && p.id === priceId).map((p) => ({ plan, interval: p.interval }))).at(0);

  if (isLoading) return <Skeleton className="h-48" />;
  if (!found) {
    return (
      <Alert tone="warning" title={t('paddleBuy.noPlan.title')}>
        {t('paddleBuy.noPlan.body')}{' '}
        <Link to={href('/premium-purchase')} className="font-medium underline underline-offset-2">
          {t('paddleBuy.comparePlans')}
        </Link>
      </Alert>
    );
  }
  if (!checkout.configured) {
    return (
      <Alert tone="warning" title={t('checkout.notConfigured.title')}>
        {t('paddleBuy.notConfigured')}
      </Alert>
    );
  }
  const busy = preparing || checkout.phase === 'loading' || checkout.phase === 'open';
  const pay = async () => {
    try {
      const data = await prepare({ priceId: priceId! }).unwrap();
      await checkout.open({ items: [{ priceId: data.priceId, quantity: 1 }], customData: data.customData });
    } catch {
      // Shown below.
    }
  };
  return (
    <div className="space-y-6">
      {sub?.premium ? (
        <Alert tone="info" title={t('paddleBuy.already.title')}>
          {t('paddleBuy.already.body')}
        </Alert>
      ) : null}
      <PlanSummary plan={found.plan} interval={found.interval} />
      {error ? (
        <Alert tone="danger" title={t('paddleBuy.failed')}>
          {failureText(error)}
        </Alert>
      ) : null}
      {checkout.problem ? (
        <Alert tone="danger" title={checkout.problem === 'payment' ? t('paddleBuy.declined.title') : t('paddleBuy.failed')}>
          {checkout.problem === 'payment' ? t('paddleBuy.declined.body') : checkout.problem}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button size="lg" loading={busy} disabled={busy} onClick={() => void pay()}>
          {t('paddleBuy.pay')}
        </Button>
        {checkout.phase === 'open' ? <span className="text-sm text-surface-600 dark:text-surface-400">{t('paddleBuy.inProgress')}</span> : null}
      </div>
      <p className="text-xs text-surface-500 dark:text-surface-400">{t('paddleBuy.note')}</p>
    </div>
  );
}

function PlanSummary({ plan, interval }: { plan: Plan; interval: 'month' | 'year' }) {
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

function Activation({ transaction }: { transaction: string }) {
  const t = useT();
  const [done, setDone] = useState(false);
  const { data, error, refetch } = useCheckoutStatusQuery(transaction, { pollingInterval: done ? 0 : ACTIVATION_POLL_MS, skipPollingIfUnfocused: false });
  const active = data?.state === 'active' && data.subscription;
  useEffect(() => {
    if (active) setDone(true);
  }, [active]);
  if (error) {
    return (
      <LoadFailed title={t('paddleBuy.statusFailed')} error={error} onRetry={() => void refetch()} />
    );
  }
  if (!active) {
    return (
      <Card className="flex items-start gap-4 p-6" role="status" aria-live="polite">
        <Spinner className="mt-0.5 size-5" />
        <div>
          <h2 className="font-semibold text-surface-900 dark:text-surface-50">{t('paddleBuy.activating.title')}</h2>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('paddleBuy.activating.body')}</p>
        </div>
      </Card>
    );
  }
  const s = data.subscription!;
  return (
    <Card className="p-6" role="status" aria-live="polite">
      <div className="flex items-center gap-3">
        <CircleCheck className="size-6 text-primary-600 dark:text-primary-400" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-surface-900 dark:text-surface-50">{t('paddleBuy.active.title', { plan: s.planName ?? '' })}</h2>
      </div>
      <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">{t('paddleBuy.active.body', { count: s.slots.length })}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={href('/billing/paddle/:id', { id: s.id })} className={buttonClasses()}>
          {t('paddleBuy.active.open')}
        </Link>
        <Link to={href('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
          {t('paddleBuy.active.servers')}
        </Link>
      </div>
    </Card>
  );
}

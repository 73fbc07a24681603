import { failureText, Link, selectSub, useAppSelector, usePlansQuery, useSearchParams } from '@tickety/shared';
import { Alert, Button, buttonClasses, PageHeader, Skeleton } from '@tickety/ui';
import { useEffect } from 'react';
import { Activation } from '../../components/activation';
import { PlanSummary } from '../../components/plan-summary';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { usePaddleCheckout } from '../../lib/paddle-checkout';
import { usePaddleCheckoutMutation } from './api';

/**
 * /billing/paddleBuy?price=<Paddle price id>: Paddle's checkout for a plan of the catalogue (the
 * transaction the API makes for the signed-in user, opened in Paddle.js by its id). Once
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
      {txn ? <Activation provider="paddle" reference={txn} /> : <Checkout priceId={params.get('price')} checkout={checkout} />}
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
      // The API makes the transaction for the signed-in user; Paddle.js only opens it (its buyer is
      // the transaction's user, nothing this page could add).
      const { transactionId } = await prepare({ priceId: priceId! }).unwrap();
      await checkout.open({ transactionId });
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

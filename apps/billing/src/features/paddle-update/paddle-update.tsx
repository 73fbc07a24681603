import { failureText, Link, useSearchParams } from '@tickety/shared';
import { Alert, Button, buttonClasses, Card, LoadFailed, PageHeader, Skeleton, Spinner } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import { useEffect, useRef, useState } from 'react';
import { BackLink } from '../../components/back-link';
import { useSubscriptionActionMutation, useSubscriptionQuery } from '../../lib/billing-api';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { usePaddleCheckout } from '../../lib/paddle-checkout';

const CONFIRM_POLL_MS = 1500;

/**
 * /billing/paddleUpdate?subscription=<id>: Paddle's update-payment-method checkout for one of the
 * user's Paddle subscriptions (the API asks Paddle for the transaction that updates it). Once Paddle
 * says it is complete, the page waits for the webhook and shows the new payment method.
 */
export default function PaddleUpdatePage() {
  const t = useT();
  const [params] = useSearchParams();
  const id = params.get('subscription');
  const back = id ? href('/billing/paddle/:id', { id }) : href('/billing');
  return (
    <div>
      <PageHeader title={t('title.paddleUpdate')} description={t('paddleUpdate.description')} actions={<BackLink to={back} />} />
      {id ? (
        <Update id={id} />
      ) : (
        <Alert tone="warning" title={t('paddleUpdate.noSubscription.title')}>
          {t('paddleUpdate.noSubscription.body')}{' '}
          <Link to={href('/billing')} className="font-medium underline underline-offset-2">
            {t('title.billing')}
          </Link>
        </Alert>
      )}
    </div>
  );
}

function Update({ id }: { id: string }) {
  const t = useT();
  const checkout = usePaddleCheckout();
  const before = useRef<string | null | undefined>(undefined);
  const [waiting, setWaiting] = useState(false);
  const { data, error, isLoading, refetch } = useSubscriptionQuery({ provider: 'paddle', id }, { pollingInterval: waiting ? CONFIRM_POLL_MS : 0, skipPollingIfUnfocused: false });
  const [act, { isLoading: preparing, error: actionError }] = useSubscriptionActionMutation();

  if (data && before.current === undefined) before.current = data.paymentMethod;
  useEffect(() => {
    if (checkout.phase === 'completed') setWaiting(true);
  }, [checkout.phase]);
  const updated = waiting && data !== undefined && data.paymentMethod !== before.current;
  useEffect(() => {
    if (updated) setWaiting(false);
  }, [updated]);

  if (isLoading) return <Skeleton className="h-40" />;
  if (error || !data) {
    return (
      <LoadFailed title={t('provider.loadFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />
    );
  }
  if (checkout.phase === 'completed') {
    return updated || !waiting ? (
      <Card className="p-6" role="status" aria-live="polite">
        <div className="flex items-center gap-3">
          <CircleCheck className="size-6 text-primary-600 dark:text-primary-400" aria-hidden="true" />
          <h2 className="text-lg font-semibold text-surface-900 dark:text-surface-50">{t('paddleUpdate.done.title')}</h2>
        </div>
        <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">{t('paddleUpdate.done.body', { method: data.paymentMethod ?? '—' })}</p>
        <Link to={href('/billing/paddle/:id', { id })} className={buttonClasses({ className: 'mt-4' })}>
          {t('paddleUpdate.back')}
        </Link>
      </Card>
    ) : (
      <Card className="flex items-start gap-4 p-6" role="status" aria-live="polite">
        <Spinner className="mt-0.5 size-5" />
        <div>
          <h2 className="font-semibold text-surface-900 dark:text-surface-50">{t('paddleUpdate.confirming.title')}</h2>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('paddleUpdate.confirming.body')}</p>
        </div>
      </Card>
    );
  }
  if (!data.actions.includes('updatePaymentMethod')) {
    return (
      <Alert tone="warning" title={t('paddleUpdate.notNow.title')}>
        {t('paddleUpdate.notNow.body', { status: data.status.replace(/_/g, ' ') })}
      </Alert>
    );
  }
  const busy = preparing || checkout.phase === 'loading' || checkout.phase === 'open';
  const start = async () => {
    try {
      const answer = await act({ provider: 'paddle', id, action: 'payment-method' }).unwrap();
      if (answer.transactionId) await checkout.open({ transactionId: answer.transactionId });
    } catch {
      // Shown below.
    }
  };
  return (
    <div className="space-y-6">
      <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
        <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('paddleUpdate.current')}</h2>
        <p className="mt-2">{data.paymentMethod ?? t('provider.details.noPaymentMethod')}</p>
        <p className="mt-2">{t('paddleUpdate.body')}</p>
      </Card>
      {actionError || checkout.problem ? (
        <Alert tone="danger" title={t('paddleUpdate.failed')}>
          {actionError ? failureText(actionError) : checkout.problem === 'payment' ? t('paddleBuy.declined.body') : checkout.problem}
        </Alert>
      ) : null}
      <Button loading={busy} disabled={busy} onClick={() => void start()}>
        {t('paddleUpdate.start')}
      </Button>
    </div>
  );
}

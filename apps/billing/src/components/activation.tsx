import type { BillingProvider } from '@tickety/api-contract';
import { failureText, Link, useAppDispatch } from '@tickety/shared';
import { buttonClasses, Card, LoadFailed, Spinner } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import { type ReactNode, useEffect, useState } from 'react';
import { billingApi, useCheckoutStatusQuery } from '../lib/billing-api';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';

/** How often "activating" asks whether the provider's webhook has landed. */
const ACTIVATION_POLL_MS = 1500;

/**
 * Whether a purchase reads active in the answer `Activation` keeps (a read of its cache entry: no
 * request of its own). A page that changes around `Activation` once the purchase is active uses this,
 * so both change in the same render (never "Premium is active" beside what the page hides then).
 */
export function useActivated(provider: BillingProvider, reference: string, skip = false): boolean {
  const { data } = billingApi.endpoints.checkoutStatus.useQueryState({ provider, reference }, { skip });
  return data?.state === 'active' && Boolean(data.subscription);
}

/**
 * Where a purchase stands after the provider's checkout (`GET /api/billing/checkouts/:provider/:reference`):
 * "activating" (asked again every 1.5 s) until the provider's webhook has landed and the subscription
 * gives premium, then the active state with the way to the subscription and to the servers. The
 * waiting texts may be the provider's own (`title`, `body`); `children` shows under them while waiting.
 * Paddle's, FastSpring's, Chargebee's and Discord's purchases all end here.
 */
export function Activation({
  provider,
  reference,
  title,
  body,
  children,
}: {
  provider: BillingProvider;
  reference: string;
  title?: string;
  body?: ReactNode;
  children?: ReactNode;
}) {
  const t = useT();
  const dispatch = useAppDispatch();
  const [done, setDone] = useState(false);
  const { data, error, refetch } = useCheckoutStatusQuery({ provider, reference }, { pollingInterval: done ? 0 : ACTIVATION_POLL_MS, skipPollingIfUnfocused: false });
  const active = data?.state === 'active' && data.subscription;
  const activeNow = Boolean(active);
  // Polling stops once the purchase is active; the user's list of subscriptions has a new one.
  useEffect(() => {
    if (!activeNow) return;
    setDone(true);
    dispatch(billingApi.util.invalidateTags(['BillingSubscriptions']));
  }, [activeNow, dispatch]);
  if (error && !active) {
    return <LoadFailed title={t('paddleBuy.statusFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />;
  }
  if (!active) {
    return (
      <Card className="p-6">
        <div className="flex items-start gap-4" role="status" aria-live="polite">
          <Spinner size="sm" label={null} className="mt-1" />
          <div>
            <h2 className="font-semibold text-surface-900 dark:text-surface-50">{title ?? t('paddleBuy.activating.title')}</h2>
            <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{body ?? t('paddleBuy.activating.body')}</p>
          </div>
        </div>
        {children ? <div className="mt-4">{children}</div> : null}
      </Card>
    );
  }
  const bought = data.subscription!;
  return (
    <Card className="p-6" role="status" aria-live="polite">
      <div className="flex items-center gap-3">
        <CircleCheck className="size-6 shrink-0 text-primary-600 dark:text-primary-400" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-surface-900 dark:text-surface-50">{t('paddleBuy.active.title', { plan: bought.planName ?? '' })}</h2>
      </div>
      <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">
        {bought.guildId
          ? t('paddleBuy.active.server', { server: bought.slots.find((slot) => slot.guildId === bought.guildId)?.guildName ?? bought.guildId })
          : t('paddleBuy.active.body', { count: bought.slots.length })}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={href(`/billing/${bought.provider}/:id`, { id: bought.id })} className={buttonClasses()}>
          {t('paddleBuy.active.open')}
        </Link>
        <Link to={href('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
          {t('paddleBuy.active.servers')}
        </Link>
      </div>
    </Card>
  );
}

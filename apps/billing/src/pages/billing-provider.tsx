import type { BillingAction, BillingSubscription } from '@tickety/api-contract';
import { failureDetail, failureText, formatDateTime, Link, useNavigate, useOpenBilling, useParams, useRouteData } from '@tickety/shared';
import { Alert, Button, buttonClasses, Card, PageHeader, Skeleton, Spinner } from '@tickety/ui';
import { useEffect, useRef, useState } from 'react';
import { BackLink } from '../components/back-link';
import { LoadFailed } from '../components/load-failed';
import { DetailsCard } from '../components/notices';
import { RenewalLine, StatusBadge } from '../components/subscription-status';
import { type ActionPath, useSubscriptionActionMutation, useSubscriptionQuery } from '../lib/billing-api';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';
import { isProviderId, PROVIDERS } from '../lib/providers';

/** How often the page asks again while it waits for the provider's webhook to confirm an action, and for how long. */
const CONFIRM_POLL_MS = 1500;
const CONFIRM_WAIT_MS = 60_000;

const ACTION_PATHS: Record<Exclude<BillingAction, 'updatePaymentMethod'>, ActionPath> = { cancel: 'cancel', resume: 'resume', portal: 'portal' };

/**
 * /billing/<provider>/:id and, for staff, /billing/:user/<provider>/:id (read-only): one
 * subscription: plan, status, renewal or end date, payment method, the servers its slots cover, and
 * the actions the provider offers. An action is confirmed first; the page then shows "waiting for
 * <provider>" until the provider's webhook has changed the subscription (or says it is taking long).
 */
export default function BillingProviderPage() {
  const t = useT();
  const { provider } = useRouteData();
  const { id = '', user } = useParams();
  useOpenBilling(isProviderId(provider) && id ? { provider, id } : null);
  const back = user ? href('/billing/:user', { user }) : href('/billing');
  const backLink = <BackLink to={back} />;

  if (!isProviderId(provider)) {
    return (
      <div>
        <PageHeader title={t('title.billingProvider')} description={t('provider.unknown.description')} actions={backLink} />
        <Alert tone="danger" title={t('provider.unknown.title')}>
          {t('provider.unknown.body')}
        </Alert>
      </div>
    );
  }
  return <Subscription provider={provider} id={id} user={user} backLink={backLink} />;
}

function Subscription({ provider, id, user, backLink }: { provider: keyof typeof PROVIDERS; id: string; user: string | undefined; backLink: React.ReactNode }) {
  const t = useT();
  const navigate = useNavigate();
  const { name } = PROVIDERS[provider];
  const [waitingFor, setWaitingFor] = useState<{ action: 'cancel' | 'resume'; since: number } | null>(null);
  const { data, error, isLoading, refetch } = useSubscriptionQuery(
    { provider, id, ...(user ? { user } : {}) },
    { pollingInterval: waitingFor ? CONFIRM_POLL_MS : 0, skipPollingIfUnfocused: false },
  );
  const [act, { isLoading: acting, error: actionError, reset }] = useSubscriptionActionMutation();
  const [confirming, setConfirming] = useState<'cancel' | null>(null);
  const [slow, setSlow] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // The webhook landed: the subscription shows the change the action asked for.
  useEffect(() => {
    if (!waitingFor || !data) return;
    const done = waitingFor.action === 'cancel' ? data.cancelAtPeriodEnd || !data.premium : !data.cancelAtPeriodEnd;
    if (done) {
      setWaitingFor(null);
      setSlow(false);
    }
  }, [data, waitingFor]);
  useEffect(() => {
    if (!waitingFor) return;
    const timer = setTimeout(() => setSlow(true), CONFIRM_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waitingFor]);

  const run = async (action: Exclude<BillingAction, 'updatePaymentMethod'>) => {
    reset();
    setConfirming(null);
    try {
      const answer = await act({ id, action: ACTION_PATHS[action] }).unwrap();
      if (action === 'portal') {
        if (answer.url) window.open(answer.url, '_blank', 'noopener');
        return;
      }
      setWaitingFor({ action, since: Date.now() });
    } catch {
      // Shown below.
    }
  };

  if (isLoading) {
    return (
      <div>
        <PageHeader title={t('provider.title', { name })} actions={backLink} />
        <div className="space-y-4" aria-busy="true">
          <Skeleton className="h-24" />
          <Skeleton className="h-48" />
        </div>
      </div>
    );
  }
  if (error || !data) {
    return (
      <div>
        <PageHeader title={t('provider.title', { name })} actions={backLink} />
        <LoadFailed title={t('provider.loadFailed')} error={error} onRetry={() => void refetch()} />
      </div>
    );
  }

  const readOnly = user !== undefined;
  const actions = readOnly ? [] : data.actions;
  return (
    <div>
      <PageHeader title={t('provider.planTitle', { plan: data.planName ?? t('billing.card.unknownPlan'), name })} description={t('provider.description', { name })} actions={backLink} />
      <div className="space-y-6">
        {waitingFor ? (
          <Alert tone="info" title={t('provider.waiting.title', { name })} icon={<Spinner className="size-5" />}>
            {slow ? t('provider.waiting.slow', { name }) : t(waitingFor.action === 'cancel' ? 'provider.waiting.cancel' : 'provider.waiting.resume', { name })}
          </Alert>
        ) : null}
        {actionError ? (
          <Alert tone="danger" title={t('provider.actionFailed')}>
            {failureText(actionError)}
            {failureDetail(actionError) ? <span className="mt-1 block">{failureDetail(actionError)}</span> : null}
          </Alert>
        ) : null}
        <DetailsCard
          title={t('provider.details.title')}
          rows={[
            { label: t('provider.details.status'), value: <StatusBadge subscription={data} /> },
            { label: t('provider.details.plan'), value: `${data.planName ?? t('billing.card.unknownPlan')}${data.interval ? ` · ${t(data.interval === 'year' ? 'billing.card.yearly' : 'billing.card.monthly')}` : ''}` },
            { label: t('provider.details.renewal'), value: <RenewalLine subscription={data} /> },
            { label: t('provider.details.paymentMethod'), value: data.paymentMethod ?? t('provider.details.noPaymentMethod') },
            { label: t('provider.details.provider'), value: name },
            { label: t('provider.details.id'), value: <code className="font-mono">{data.id}</code> },
            { label: t('provider.details.updated'), value: formatDateTime(data.updatedAt) },
          ]}
        />
        <Slots subscription={data} readOnly={readOnly} />
        {data.provider === 'discord' && !readOnly ? (
          <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('provider.actions.title')}</h2>
            <p className="mt-2">{t('provider.discordManaged')}</p>
          </Card>
        ) : null}
        {actions.length > 0 ? (
          <Card className="p-5 sm:p-6">
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('provider.actions.title')}</h2>
            <div className="mt-4 flex flex-wrap gap-3">
              {actions.includes('cancel') ? (
                <Button ref={cancelButton} variant="danger" disabled={acting || waitingFor !== null} onClick={() => setConfirming('cancel')}>
                  {t('provider.actions.cancel')}
                </Button>
              ) : null}
              {actions.includes('resume') ? (
                <Button disabled={acting || waitingFor !== null} onClick={() => void run('resume')}>
                  {t('provider.actions.resume')}
                </Button>
              ) : null}
              {actions.includes('updatePaymentMethod') ? (
                <Button variant="secondary" disabled={acting} onClick={() => navigate(href('/billing/paddleUpdate', {}, { subscription: data.id }))}>
                  {t('provider.actions.updatePaymentMethod')}
                </Button>
              ) : null}
              {actions.includes('portal') ? (
                <Button variant="ghost" disabled={acting} onClick={() => void run('portal')}>
                  {t('provider.actions.portal', { name })}
                </Button>
              ) : null}
            </div>
            {confirming === 'cancel' ? (
              <div role="alertdialog" aria-labelledby="cancel-title" aria-describedby="cancel-body" className="mt-4 rounded-lg border border-red-300 p-4 dark:border-red-800">
                <h3 id="cancel-title" className="font-semibold text-surface-900 dark:text-surface-50">
                  {t('provider.cancel.title')}
                </h3>
                <p id="cancel-body" className="mt-1 text-sm text-surface-700 dark:text-surface-300">
                  {data.currentPeriodEnd ? t('provider.cancel.body', { date: formatDateTime(data.currentPeriodEnd) }) : t('provider.cancel.bodyNoDate')}
                </p>
                <div className="mt-3 flex gap-3">
                  <Button variant="danger" loading={acting} onClick={() => void run('cancel')}>
                    {t('provider.cancel.confirm')}
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={() => {
                      setConfirming(null);
                      cancelButton.current?.focus();
                    }}
                  >
                    {t('provider.cancel.keep')}
                  </Button>
                </div>
              </div>
            ) : null}
          </Card>
        ) : null}
      </div>
    </div>
  );
}

function Slots({ subscription, readOnly }: { subscription: BillingSubscription; readOnly: boolean }) {
  const t = useT();
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('provider.slots.title', { count: subscription.slots.length })}</h2>
      <ul className="mt-3 divide-y divide-surface-200 dark:divide-surface-800">
        {subscription.slots.map((slot) => (
          <li key={slot.slot} className="flex flex-wrap items-center gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-surface-900 dark:text-surface-50">
                {slot.guildId ? t('provider.slots.on', { slot: slot.slot, server: slot.guildName ?? slot.guildId }) : t('provider.slots.free', { slot: slot.slot })}
              </p>
              {slot.movableAt ? <p className="text-xs text-surface-500 dark:text-surface-400">{t('provider.slots.movableAt', { at: formatDateTime(slot.movableAt) })}</p> : null}
            </div>
            {!readOnly && slot.guildId ? (
              <Link to={href('/dashboard/:server/premium', { server: slot.guildId })} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
                {t('provider.slots.manage')}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
      {!readOnly && subscription.premium && subscription.slots.some((s) => s.guildId === null) ? (
        <p className="mt-3 text-sm text-surface-600 dark:text-surface-400">{t('provider.slots.howToUse')}</p>
      ) : null}
    </Card>
  );
}

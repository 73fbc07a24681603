import type { BillingAction, BillingInvoice, BillingSubscription, ChangePlanPreview, Plan } from '@tickety/api-contract';
import { failureDetail, failureText, formatDate, formatDateTime, formatPrice, Link, useNavigate, useOpenBilling, useParams, usePlansQuery, useRouteData } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, LoadFailed, PageHeader, Skeleton, Spinner, Table, type TableColumn, type Tone } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import ExternalLink from 'lucide-react/icons/external-link';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { BackLink } from '../../components/back-link';
import { ConfirmInPlace } from './confirm-in-place';
import { RenewalLine, StatusBadge } from '../../components/subscription-status';
import { type ActionPath, useSubscriptionActionMutation, useSubscriptionQuery } from '../../lib/billing-api';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { isProviderId, PROVIDERS } from '../../lib/providers';
import { invoiceDocumentUrl, useChangePlanMutation, useChangePlanPreviewMutation, useInvoicesQuery } from './api';
import { DetailsCard, linkClasses } from './details-card';

/** How often the page asks again while it waits for the provider's webhook to confirm an action, and for how long. */
const CONFIRM_POLL_MS = 1500;
const CONFIRM_WAIT_MS = 60_000;

/** The actions that are one request to the provider (a plan change has its own dialog; Paddle's payment method its own page). */
type SimpleAction = Exclude<BillingAction, 'changePlan'>;
const ACTION_PATHS: Record<SimpleAction, ActionPath> = { cancel: 'cancel', resume: 'resume', portal: 'portal', updatePaymentMethod: 'payment-method' };

/** What the page waits for the provider's webhook to confirm (the plan and interval before a plan change). */
type Waiting = { action: 'cancel' } | { action: 'resume' } | { action: 'changePlan'; planId: string | null; interval: BillingSubscription['interval'] };

/**
 * /billing/<provider>/:id and, for staff, /billing/:user/<provider>/:id (read-only): one
 * subscription: plan, status, renewal or end date, payment method, the servers its slots cover, its
 * receipts, and the actions the provider offers (cancel, keep, portal, payment method, plan change
 * with the provider's proration preview). An action is confirmed first; the page then shows
 * "waiting for <provider>" until the provider's webhook has changed the subscription (or says it is
 * taking long).
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

function Subscription({ provider, id, user, backLink }: { provider: keyof typeof PROVIDERS; id: string; user: string | undefined; backLink: ReactNode }) {
  const t = useT();
  const navigate = useNavigate();
  const { name } = PROVIDERS[provider];
  const [waitingFor, setWaitingFor] = useState<Waiting | null>(null);
  const { data, error, isLoading, refetch } = useSubscriptionQuery(
    { provider, id, ...(user ? { user } : {}) },
    { pollingInterval: waitingFor ? CONFIRM_POLL_MS : 0, skipPollingIfUnfocused: false },
  );
  const [act, { isLoading: acting, error: actionError, reset }] = useSubscriptionActionMutation();
  const [confirming, setConfirming] = useState<'cancel' | null>(null);
  const [changing, setChanging] = useState(false);
  const [changed, setChanged] = useState<string | null>(null);
  const [opened, setOpened] = useState<{ action: 'portal' | 'updatePaymentMethod'; url: string } | null>(null);
  const [slow, setSlow] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const waitingBox = useRef<HTMLDivElement>(null);

  // The webhook landed: the subscription shows the change the action asked for.
  useEffect(() => {
    if (!waitingFor || !data) return;
    let done: boolean;
    if (waitingFor.action === 'cancel') done = data.cancelAtPeriodEnd || !data.premium;
    else if (waitingFor.action === 'resume') done = !data.cancelAtPeriodEnd;
    else done = data.planId !== waitingFor.planId || data.interval !== waitingFor.interval;
    if (done) {
      if (waitingFor.action === 'changePlan') setChanged(data.planName ?? t('billing.card.unknownPlan'));
      setWaitingFor(null);
      setSlow(false);
    }
  }, [data, waitingFor, t]);
  useEffect(() => {
    if (!waitingFor) return;
    const timer = setTimeout(() => setSlow(true), CONFIRM_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waitingFor]);

  /** Waits for the webhook; the waiting note has the focus (the control that started it is gone or disabled). */
  const wait = (waiting: Waiting) => {
    setChanged(null);
    setWaitingFor(waiting);
    setTimeout(() => waitingBox.current?.focus(), 0);
  };

  const run = async (action: SimpleAction) => {
    reset();
    setConfirming(null);
    setOpened(null);
    if (action === 'updatePaymentMethod' && provider === 'paddle') {
      navigate(href('/billing/paddleUpdate', {}, { subscription: id }));
      return;
    }
    try {
      const answer = await act({ provider, id, action: ACTION_PATHS[action] }).unwrap();
      if (action === 'portal' || action === 'updatePaymentMethod') {
        if (answer.url) {
          window.open(answer.url, '_blank', 'noopener');
          // A popup blocker may have stopped it (the page opens it after the provider answered): the link stays here.
          setOpened({ action, url: answer.url });
        }
        return;
      }
      wait(action === 'cancel' ? { action: 'cancel' } : { action: 'resume' });
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
        <LoadFailed title={t('provider.loadFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />
      </div>
    );
  }

  const readOnly = user !== undefined;
  const actions = readOnly ? [] : data.actions;
  const busy = acting || waitingFor !== null;
  const closeChange = () => {
    setChanging(false);
    changeButton.current?.focus();
  };
  return (
    <div>
      <PageHeader title={t('provider.planTitle', { plan: data.planName ?? t('billing.card.unknownPlan'), name })} description={t('provider.description', { name })} actions={backLink} />
      <div className="space-y-6">
        <div ref={waitingBox} tabIndex={-1} className="space-y-6 empty:hidden focus:outline-none">
          {waitingFor ? (
            <Alert tone="info" title={t('provider.waiting.title', { name })} icon={<Spinner size="sm" label={null} />}>
              {slow
                ? t('provider.waiting.slow', { name })
                : t(waitingFor.action === 'cancel' ? 'provider.waiting.cancel' : waitingFor.action === 'resume' ? 'provider.waiting.resume' : 'provider.waiting.changePlan', { name })}
            </Alert>
          ) : changed ? (
            <Alert tone="primary" title={t('provider.changePlan.done', { plan: changed })} icon={<CircleCheck className="size-5" aria-hidden="true" />} />
          ) : null}
        </div>
        {actionError ? (
          <Alert tone="danger" title={t('provider.actionFailed')}>
            {failureText(actionError)}
            {failureDetail(actionError) ? <span className="mt-1 block">{failureDetail(actionError)}</span> : null}
          </Alert>
        ) : null}
        {opened ? (
          <Alert tone="info" title={t(opened.action === 'portal' ? 'provider.opened.portal' : 'provider.opened.paymentMethod', { name })}>
            {t('provider.opened.body')}{' '}
            <a href={opened.url} target="_blank" rel="noopener" className={linkClasses}>
              {t(opened.action === 'portal' ? 'provider.actions.portal' : 'provider.actions.updatePaymentMethod', { name })}
              <span className="sr-only"> {t('checkout.newTab')}</span>
            </a>
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
            <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              {actions.includes('changePlan') ? (
                <Button ref={changeButton} disabled={busy} aria-expanded={changing} onClick={() => {
                  reset();
                  setConfirming(null);
                  setChanging(true);
                }}>
                  {t('provider.actions.changePlan')}
                </Button>
              ) : null}
              {actions.includes('cancel') ? (
                <Button ref={cancelButton} variant="danger" disabled={busy} onClick={() => {
                  setChanging(false);
                  setConfirming('cancel');
                }}>
                  {t('provider.actions.cancel')}
                </Button>
              ) : null}
              {actions.includes('resume') ? (
                <Button disabled={busy} onClick={() => void run('resume')}>
                  {t('provider.actions.resume')}
                </Button>
              ) : null}
              {actions.includes('updatePaymentMethod') ? (
                <Button variant="secondary" disabled={acting} onClick={() => void run('updatePaymentMethod')}>
                  {t('provider.actions.updatePaymentMethod')}
                </Button>
              ) : null}
              {actions.includes('portal') ? (
                <Button variant="ghost" disabled={acting} onClick={() => void run('portal')}>
                  {t('provider.actions.portal', { name })}
                </Button>
              ) : null}
            </div>
            {changing ? (
              <ChangePlan
                subscription={data}
                name={name}
                onClose={closeChange}
                onRequested={() => {
                  setChanging(false);
                  wait({ action: 'changePlan', planId: data.planId, interval: data.interval });
                }}
              />
            ) : null}
            {confirming === 'cancel' ? (
              <ConfirmInPlace
                title={t('provider.cancel.title')}
                confirmLabel={t('provider.cancel.confirm')}
                cancelLabel={t('provider.cancel.keep')}
                busy={acting}
                onConfirm={() => void run('cancel')}
                onCancel={() => {
                  setConfirming(null);
                  cancelButton.current?.focus();
                }}
              >
                {data.currentPeriodEnd ? t('provider.cancel.body', { date: formatDateTime(data.currentPeriodEnd) }) : t('provider.cancel.bodyNoDate')}
              </ConfirmInPlace>
            ) : null}
          </Card>
        ) : null}
        <Receipts subscription={data} user={user} name={name} />
      </div>
    </div>
  );
}

/** A catalogue price of the subscription's provider it can move to (the plans of the same provider, other than its own). */
interface PlanOption {
  plan: Plan;
  priceId: string;
  interval: 'month' | 'year';
}

function planOptions(plans: Plan[], subscription: BillingSubscription): PlanOption[] {
  return plans.flatMap((plan) =>
    plan.providerPrices
      .filter((p) => p.provider === subscription.provider && !(plan.id === subscription.planId && p.interval === subscription.interval))
      .map((p) => ({ plan, priceId: p.id, interval: p.interval })),
  );
}

/** Money as the provider states it, to the cent. */
const money = (m: { amount: number; currency: string }) => formatPrice(m.amount, m.currency, { cents: 'always' });

/**
 * Change plan: the other prices of the same provider (monthly ↔ yearly, another plan); choosing one
 * asks the provider what it would charge now and next, then Confirm sends the change. Escape or
 * "Keep my plan" closes it (the focus goes back to Change plan).
 */
function ChangePlan({ subscription, name, onClose, onRequested }: { subscription: BillingSubscription; name: string; onClose: () => void; onRequested: () => void }) {
  const t = useT();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { data: plans, error: plansError, isLoading, refetch } = usePlansQuery();
  const [chosen, setChosen] = useState<string | null>(null);
  const [preview, previewState] = useChangePlanPreviewMutation();
  const [change, changeState] = useChangePlanMutation();

  useEffect(() => heading.current?.focus(), []);

  const choose = (priceId: string) => {
    setChosen(priceId);
    changeState.reset();
    preview({ provider: subscription.provider, id: subscription.id, priceId })
      .unwrap()
      .catch(() => undefined);
  };
  const confirm = async () => {
    if (!chosen) return;
    try {
      await change({ provider: subscription.provider, id: subscription.id, priceId: chosen }).unwrap();
      onRequested();
    } catch {
      // Shown below.
    }
  };
  const options = plans ? planOptions(plans, subscription) : [];
  const current = previewState.originalArgs?.priceId === chosen ? previewState : null;
  const ready: ChangePlanPreview | undefined = current && !current.isLoading ? current.data : undefined;

  return (
    <section
      role="dialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-body`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
      className="mt-4 rounded-lg border border-surface-300 p-4 dark:border-surface-700"
    >
      <h3 ref={heading} id={`${ids}-title`} tabIndex={-1} className="font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
        {t('provider.changePlan.title')}
      </h3>
      <p id={`${ids}-body`} className="mt-1 text-sm text-surface-700 dark:text-surface-300">
        {t('provider.changePlan.body', { name })}
      </p>
      <div className="mt-4">
        {isLoading ? (
          <Skeleton className="h-20" />
        ) : !plans ? (
          <LoadFailed title={t('premium.plans.loadFailed')} reason={failureText(plansError)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />
        ) : options.length === 0 ? (
          <p className="text-sm text-surface-700 dark:text-surface-300">{t('provider.changePlan.none', { name })}</p>
        ) : (
          <fieldset>
            <legend className="text-sm font-medium text-surface-700 dark:text-surface-300">{t('provider.changePlan.legend')}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {options.map((option) => {
                const price = option.interval === 'year' ? option.plan.priceYearly : option.plan.priceMonthly;
                return (
                  <label
                    key={option.priceId}
                    className="flex cursor-pointer items-start gap-3 rounded-lg border border-surface-200 p-3 text-sm has-[:checked]:border-primary-500 has-[:checked]:bg-primary-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary-500 dark:border-surface-700 dark:has-[:checked]:border-primary-400 dark:has-[:checked]:bg-primary-950"
                  >
                    <input
                      type="radio"
                      name={`${ids}-price`}
                      value={option.priceId}
                      checked={chosen === option.priceId}
                      onChange={() => choose(option.priceId)}
                      className="mt-0.5 accent-primary-600"
                    />
                    <span>
                      <span className="block font-medium text-surface-900 dark:text-surface-50">
                        {option.plan.name} · {t(option.interval === 'year' ? 'billing.card.yearly' : 'billing.card.monthly')}
                      </span>
                      {price !== null ? (
                        <span className="block text-surface-600 dark:text-surface-400">
                          {formatPrice(price, option.plan.currency)} {t(option.interval === 'year' ? 'premium.plan.perYear' : 'premium.plan.perMonth')}
                        </span>
                      ) : null}
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        )}
      </div>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {current?.isLoading ? (
          <p className="flex items-center gap-2 text-sm text-surface-700 dark:text-surface-300">
            <Spinner size="sm" label={null} />
            {t('provider.changePlan.previewing', { name })}
          </p>
        ) : current?.isError ? (
          <LoadFailed title={t('provider.changePlan.previewFailed')} reason={failureText(current.error)} retryLabel={t('premium.plans.retry')} onRetry={() => chosen && choose(chosen)} />
        ) : ready ? (
          <div className="rounded-lg bg-surface-50 p-3 text-sm text-surface-800 dark:bg-surface-950 dark:text-surface-200">
            <p className="font-medium">
              {ready.dueNow.amount < 0 ? t('provider.changePlan.credit', { amount: money({ ...ready.dueNow, amount: -ready.dueNow.amount }) }) : t('provider.changePlan.dueNow', { amount: money(ready.dueNow) })}
            </p>
            {ready.nextCharge ? (
              <p className="mt-1">
                {ready.nextCharge.at
                  ? t('provider.changePlan.nextChargeOn', { amount: money(ready.nextCharge), date: formatDateTime(ready.nextCharge.at) })
                  : t('provider.changePlan.nextCharge', { amount: money(ready.nextCharge) })}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
      {changeState.isError ? (
        <Alert tone="danger" title={t('provider.actionFailed')} className="mt-4">
          {failureText(changeState.error)}
        </Alert>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <Button loading={changeState.isLoading} disabled={!ready} onClick={() => void confirm()}>
          {t('provider.changePlan.confirm')}
        </Button>
        <Button variant="ghost" onClick={onClose}>
          {t('provider.changePlan.keep')}
        </Button>
      </div>
    </section>
  );
}

const RECEIPT_STATUS: Record<string, { key: 'provider.receipts.status.paid' | 'provider.receipts.status.refunded' | 'provider.receipts.status.pending' | 'provider.receipts.status.failed'; tone: Tone }> = {
  paid: { key: 'provider.receipts.status.paid', tone: 'primary' },
  completed: { key: 'provider.receipts.status.paid', tone: 'primary' },
  refunded: { key: 'provider.receipts.status.refunded', tone: 'neutral' },
  pending: { key: 'provider.receipts.status.pending', tone: 'warning' },
  payment_due: { key: 'provider.receipts.status.pending', tone: 'warning' },
  failed: { key: 'provider.receipts.status.failed', tone: 'danger' },
};

/** The subscription's receipts (the provider's invoices); the own view links each one's document. */
function Receipts({ subscription, user, name }: { subscription: BillingSubscription; user: string | undefined; name: string }) {
  const t = useT();
  const headingId = useId();
  const { data, error, isLoading, refetch } = useInvoicesQuery({ provider: subscription.provider, id: subscription.id, ...(user ? { user } : {}) });
  const own = user === undefined;
  const day = (at: string) => formatDate(at.slice(0, 10));

  const columns: Array<TableColumn<BillingInvoice>> = [
    { key: 'date', header: t('provider.receipts.date'), label: t('provider.receipts.date'), cell: (r) => day(r.date), rowHeader: true },
    { key: 'amount', header: t('provider.receipts.amount'), label: t('provider.receipts.amount'), cell: (r) => money(r.total), align: 'end' },
    {
      key: 'status',
      header: t('provider.receipts.status'),
      label: t('provider.receipts.status'),
      cell: (invoice) => {
        const known = RECEIPT_STATUS[invoice.status.toLowerCase()];
        return <Badge tone={known?.tone ?? 'neutral'}>{known ? t(known.key) : invoice.status.replace(/_/g, ' ')}</Badge>;
      },
    },
    ...(own
      ? [
          {
            key: 'document',
            header: t('provider.receipts.document'),
            label: t('provider.receipts.document'),
            cell: (invoice: BillingInvoice) => (
              <a href={invoiceDocumentUrl(subscription.provider, subscription.id, invoice.id)} target="_blank" rel="noopener" className={`inline-flex items-center gap-1 ${linkClasses}`}>
                {t('provider.receipts.download')}
                <span className="sr-only"> {t('provider.receipts.downloadOf', { date: day(invoice.date) })}</span>
                <ExternalLink className="size-3.5" aria-hidden="true" />
              </a>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card className="p-5 sm:p-6" role="region" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-base font-semibold text-surface-900 dark:text-surface-50">
        {t('provider.receipts.title')}
      </h2>
      <div className="mt-4" aria-busy={isLoading}>
        {isLoading ? (
          <div className="space-y-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : error || !data ? (
          <LoadFailed title={t('provider.receipts.loadFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />
        ) : !data.available ? (
          <p className="text-sm text-surface-700 dark:text-surface-300">{t('provider.receipts.unavailable', { name })}</p>
        ) : (
          <Table
            caption={t('provider.receipts.title')}
            columns={columns}
            rows={[...data.invoices].sort((a, b) => Date.parse(b.date) - Date.parse(a.date))}
            rowKey={(r) => r.id}
            empty={<p className="text-sm text-surface-600 dark:text-surface-400">{t('provider.receipts.empty')}</p>}
          />
        )}
      </div>
    </Card>
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
      {subscription.guildId ? (
        <p className="mt-3 text-sm text-surface-600 dark:text-surface-400">
          {t('provider.slots.server', { server: subscription.slots.find((s) => s.guildId === subscription.guildId)?.guildName ?? subscription.guildId })}
        </p>
      ) : null}
      {!readOnly && subscription.premium && subscription.slots.some((s) => s.guildId === null) ? (
        <p className="mt-3 text-sm text-surface-600 dark:text-surface-400">{t('provider.slots.howToUse')}</p>
      ) : null}
    </Card>
  );
}

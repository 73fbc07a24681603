import type { BillingSubscription } from '@tickety/api-contract';
import { failureText, formatNumber, Link, selectUser, useAppSelector, useParams, useRuntimeConfig } from '@tickety/shared';
import { Alert, buttonClasses, Card, EmptyState, LoadFailed, PageHeader, Skeleton } from '@tickety/ui';
import ReceiptText from 'lucide-react/icons/receipt-text';
import { BackLink } from '../../components/back-link';
import { RenewalLine, StatusBadge } from '../../components/subscription-status';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { PROVIDERS } from '../../lib/providers';
import { useSubscriptionsQuery } from './api';

/**
 * /billing: the signed-in user's subscriptions across providers, each with its premium slots and
 * the servers they cover. /billing/:user (staff with DASHBOARD_SUPPORT_SYSTEM_READ; the shell guards
 * it, the API checks again and audits the read): the same, read-only, for that user.
 */
export default function BillingPage() {
  const t = useT();
  const { user: viewed } = useParams();
  const me = useAppSelector(selectUser);
  const staffView = viewed !== undefined && viewed !== me?.id;
  const { productName } = useRuntimeConfig();
  const { data, error, isLoading, refetch } = useSubscriptionsQuery(staffView ? { user: viewed } : {});

  return (
    <div>
      <PageHeader
        title={t('title.billing')}
        description={staffView ? t('billing.staff.description') : t('billing.description')}
        actions={
          staffView ? (
            <BackLink to={href('/billing')}>{t('billing.staff.ownBilling')}</BackLink>
          ) : (
            <Link to={href('/premium-purchase')} className={buttonClasses({ variant: 'secondary' })}>
              {t('billing.seePlans')}
            </Link>
          )
        }
      />
      {staffView ? (
        <Alert tone="info" title={t('billing.staff.viewing')} className="mb-6">
          {t('billing.staff.viewingBody', { user: viewed })}
        </Alert>
      ) : null}
      {isLoading ? (
        <div className="space-y-4" aria-busy="true">
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
        </div>
      ) : error || !data ? (
        <LoadFailed title={t('billing.loadFailed')} reason={failureText(error)} retryLabel={t('premium.plans.retry')} onRetry={() => void refetch()} />
      ) : data.subscriptions.length === 0 ? (
        <EmptyState
          icon={<ReceiptText className="size-6" aria-hidden="true" />}
          title={staffView ? t('billing.staff.empty') : t('billing.empty.title')}
          description={staffView ? undefined : t('billing.empty.description', { product: productName })}
        >
          {staffView ? null : (
            <Link to={href('/premium-purchase')} className={buttonClasses()}>
              {t('billing.seePremiumPlans')}
            </Link>
          )}
        </EmptyState>
      ) : (
        <ul className="space-y-4">
          {data.subscriptions.map((subscription) => (
            <li key={`${subscription.provider}:${subscription.id}`}>
              <SubscriptionCard subscription={subscription} user={staffView ? viewed : undefined} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SubscriptionCard({ subscription, user }: { subscription: BillingSubscription; user: string | undefined }) {
  const t = useT();
  const provider = PROVIDERS[subscription.provider];
  const to = user ? href(`/billing/:user/${subscription.provider}/:id`, { user, id: subscription.id }) : href(`/billing/${subscription.provider}/:id`, { id: subscription.id });
  const covered = subscription.slots.filter((slot) => slot.guildId !== null);
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">
          {t('billing.card.title', { plan: subscription.planName ?? t('billing.card.unknownPlan'), provider: provider.name })}
        </h2>
        <StatusBadge subscription={subscription} />
      </div>
      <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
        {subscription.interval ? `${t(subscription.interval === 'year' ? 'billing.card.yearly' : 'billing.card.monthly')} · ` : ''}
        <RenewalLine subscription={subscription} />
      </p>
      <h3 className="mt-4 text-sm font-medium text-surface-600 dark:text-surface-400">
        {t('billing.coveredServers', { count: formatNumber(covered.length) })} · {t('billing.card.slots', { used: covered.length, total: subscription.slots.length })}
      </h3>
      {covered.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2">
          {covered.map((slot) => (
            <li key={slot.slot} className="rounded-md bg-surface-100 px-2 py-1 text-sm text-surface-800 dark:bg-surface-800 dark:text-surface-200">
              {slot.guildName ?? slot.guildId}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">{subscription.premium ? t('billing.notAttached') : t('billing.noServerCovered')}</p>
      )}
      <Link to={to} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-4' })} aria-label={t('billing.card.openLabel', { plan: subscription.planName ?? '', provider: provider.name })}>
        {t('billing.card.open')}
      </Link>
    </Card>
  );
}

import { formatNumber, type Guild, Link, selectGuilds, selectSub, selectUser, useAppSelector, useParams, useRuntimeConfig } from '@tickety/shared';
import { Avatar, Badge, buttonClasses, Card, EmptyState, PageHeader } from '@tickety/ui';
import ReceiptText from 'lucide-react/icons/receipt-text';
import { BackLink } from '../components/back-link';
import { ComingNext, DetailsCard, linkClasses } from '../components/notices';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';

/**
 * /billing: the signed-in user's premium summary. /billing/:user (staff with
 * DASHBOARD_SUPPORT_SYSTEM_READ; the shell guards it): whose billing is being viewed.
 */
export default function BillingPage() {
  const { user: viewedUserId } = useParams();
  const me = useAppSelector(selectUser);
  if (viewedUserId !== undefined && viewedUserId !== me?.id) return <StaffBillingView userId={viewedUserId} />;
  return <OwnBilling />;
}

function OwnBilling() {
  const t = useT();
  const sub = useAppSelector(selectSub);
  const guilds = useAppSelector(selectGuilds);
  const { productName } = useRuntimeConfig();
  return (
    <div>
      <PageHeader
        title={t('title.billing')}
        description={t('billing.description')}
        actions={
          <Link to={href('/premium-purchase')} className={buttonClasses({ variant: 'secondary' })}>
            {t('billing.seePlans')}
          </Link>
        }
      />
      {sub === null ? (
        <EmptyState
          icon={<ReceiptText className="size-6" aria-hidden="true" />}
          title={t('billing.empty.title')}
          description={t('billing.empty.description', { product: productName })}
        >
          <Link to={href('/premium-purchase')} className={buttonClasses()}>
            {t('billing.seePremiumPlans')}
          </Link>
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <Card className="p-5 sm:p-6">
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('billing.yourPremium')}</h2>
              {sub.premium ? <Badge tone="primary">{t('billing.premiumActive')}</Badge> : <Badge>{t('billing.noActivePremium')}</Badge>}
            </div>
            <h3 className="mt-5 text-sm font-medium text-surface-600 dark:text-surface-400">
              {t('billing.coveredServers', { count: formatNumber(sub.servers.length) })}
            </h3>
            {sub.servers.length > 0 ? (
              <ul className="mt-2 divide-y divide-surface-200 dark:divide-surface-800">
                {sub.servers.map((id) => (
                  <CoveredServer key={id} id={id} guild={guilds.find((g) => g.id === id)} />
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">
                {sub.premium ? t('billing.notAttached') : t('billing.noServerCovered')}{' '}
                {sub.premium ? null : (
                  <Link to={href('/premium-purchase')} className={linkClasses}>
                    {t('billing.seePremiumPlans')}
                  </Link>
                )}
              </p>
            )}
          </Card>
          <ComingNext title={t('billing.detailsNext.title')}>{t('billing.detailsNext.body')}</ComingNext>
        </div>
      )}
    </div>
  );
}

function CoveredServer({ id, guild }: { id: string; guild: Guild | undefined }) {
  const t = useT();
  const name = guild?.name ?? t('billing.server.notInList');
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <Avatar src={guild?.iconUrl} name={guild?.name ?? '?'} size="sm" shape="square" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-surface-900 dark:text-surface-50">{name}</p>
        <p className="font-mono text-xs text-surface-500 dark:text-surface-400">{id}</p>
      </div>
      {guild?.canManage ? (
        <Link
          to={href('/dashboard/:server/premium', { server: id })}
          className={buttonClasses({ variant: 'ghost', size: 'sm' })}
          aria-label={t('billing.server.premiumOf', { name: guild.name })}
        >
          {t('billing.server.premium')}
        </Link>
      ) : null}
    </li>
  );
}

function StaffBillingView({ userId }: { userId: string }) {
  const t = useT();
  return (
    <div>
      <PageHeader
        title={t('title.billing')}
        description={t('billing.staff.description')}
        actions={<BackLink to={href('/billing')}>{t('billing.staff.ownBilling')}</BackLink>}
      />
      <div className="space-y-6">
        <DetailsCard
          title={t('billing.staff.viewing')}
          rows={[{ label: t('billing.staff.userId'), value: <code className="font-mono">{userId}</code> }]}
        />
        <ComingNext title={t('billing.staff.next.title')}>{t('billing.staff.next.body')}</ComingNext>
      </div>
    </div>
  );
}

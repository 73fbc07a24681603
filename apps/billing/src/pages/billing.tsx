import { type Guild, Link, selectGuilds, selectSub, selectUser, useAppSelector, useParams, useRuntimeConfig } from '@tickety/shared';
import { Avatar, Badge, buttonClasses, Card, EmptyState, PageHeader } from '@tickety/ui';
import ReceiptText from 'lucide-react/icons/receipt-text';
import { BackLink } from '../components/back-link';
import { ComingNext, DetailsCard, linkClasses } from '../components/notices';

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
  const sub = useAppSelector(selectSub);
  const guilds = useAppSelector(selectGuilds);
  const { productName } = useRuntimeConfig();
  return (
    <div>
      <PageHeader
        title="Billing"
        description="Your premium, the servers it covers and your subscriptions."
        actions={
          <Link to="/premium-purchase" className={buttonClasses({ variant: 'secondary' })}>
            See plans
          </Link>
        }
      />
      {sub === null ? (
        <EmptyState
          icon={<ReceiptText className="size-6" aria-hidden="true" />}
          title="No subscriptions yet"
          description={`Your Discord account has no ${productName} subscription. Premium gives a server more ticket panels, longer statistics and more.`}
        >
          <Link to="/premium-purchase" className={buttonClasses()}>
            See premium plans
          </Link>
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <Card className="p-5 sm:p-6">
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">Your premium</h2>
              {sub.premium ? <Badge tone="primary">Premium active</Badge> : <Badge>No active premium</Badge>}
            </div>
            <h3 className="mt-5 text-sm font-medium text-surface-600 dark:text-surface-400">Covered servers ({sub.servers.length})</h3>
            {sub.servers.length > 0 ? (
              <ul className="mt-2 divide-y divide-surface-200 dark:divide-surface-800">
                {sub.servers.map((id) => (
                  <CoveredServer key={id} id={id} guild={guilds.find((g) => g.id === id)} />
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">
                {sub.premium ? 'Your premium is not attached to a server yet.' : 'No server is covered.'}{' '}
                {sub.premium ? null : (
                  <Link to="/premium-purchase" className={linkClasses}>
                    See premium plans
                  </Link>
                )}
              </p>
            )}
          </Card>
          <ComingNext title="Subscription details arrive in the next version">
            Your subscriptions from Paddle, FastSpring, Discord and Chargebee, with plan, status, renewal date and their actions, will be listed here.
          </ComingNext>
        </div>
      )}
    </div>
  );
}

function CoveredServer({ id, guild }: { id: string; guild: Guild | undefined }) {
  const name = guild?.name ?? 'Server not in your list';
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <Avatar src={guild?.iconUrl} name={guild?.name ?? '?'} size="sm" shape="square" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-surface-900 dark:text-surface-50">{name}</p>
        <p className="font-mono text-xs text-surface-500 dark:text-surface-400">{id}</p>
      </div>
      {guild?.canManage ? (
        <Link to={`/dashboard/${id}/premium`} className={buttonClasses({ variant: 'ghost', size: 'sm' })} aria-label={`Server premium of ${guild.name}`}>
          Server premium
        </Link>
      ) : null}
    </li>
  );
}

function StaffBillingView({ userId }: { userId: string }) {
  return (
    <div>
      <PageHeader
        title="Billing"
        description="A user's premium and subscriptions, as staff see them."
        actions={<BackLink to="/billing">Your own billing</BackLink>}
      />
      <div className="space-y-6">
        <DetailsCard
          title="Viewing another user's billing"
          rows={[{ label: 'Discord user id', value: <code className="font-mono">{userId}</code> }]}
        />
        <ComingNext title="Looking up another user's subscriptions comes with the staff tools">
          This version cannot read another user's premium, covered servers or subscriptions, so none are shown here.
        </ComingNext>
      </div>
    </div>
  );
}

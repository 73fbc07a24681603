import { failureText, formatDateTime, Link } from '@tickety/shared';
import { Avatar, Badge, Button, Card, LoadFailed, Skeleton } from '@tickety/ui';
import { type ReactNode, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { linkClasses } from '../../components/notices';
import { useT } from '../../lib/i18n';
import { type StaffServerCard, type StaffUserCard, useEndUserSessionsMutation, useStaffServerCardQuery, useStaffUserCardQuery } from './api';
import { serverDashboardHref, userBillingHref } from './links';
import { SearchTickets } from './search-tickets';

const PROVIDER_NAMES: Record<string, string> = { paddle: 'Paddle', fastspring: 'FastSpring', discord: 'Discord', chargebee: 'Chargebee' };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-surface-200 pt-4 dark:border-surface-800">
      <h3 className="mb-2 text-sm font-semibold text-surface-900 dark:text-surface-50">{title}</h3>
      {children}
    </section>
  );
}

/** Loading, or why the card could not be read (with Retry). */
function CardState({ loading, error, onRetry }: { loading: boolean; error: unknown; onRetry: () => void }) {
  const t = useT();
  if (loading) {
    return (
      <Card className="space-y-3 p-5" aria-busy="true">
        <span className="sr-only">{t('search.card.loading')}</span>
        <Skeleton className="h-10 w-48" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
      </Card>
    );
  }
  return (
    <LoadFailed title={t('search.card.failed')} reason={failureText(error)} retryLabel={t('search.retry')} onRetry={onRetry} />
  );
}

/** A user's card: profile, servers they manage, subscriptions (billing link for DASHBOARD_SUPPORT_SYSTEM_READ), tickets. */
export function SearchUserCard({ id }: { id: string }) {
  const card = useStaffUserCardQuery(id, { refetchOnMountOrArgChange: true });
  if (!card.currentData) return <CardState loading={card.isFetching} error={card.error} onRetry={() => void card.refetch()} />;
  return <UserCardBody card={card.currentData} />;
}

function UserCardBody({ card }: { card: StaffUserCard }) {
  const t = useT();
  const { user } = card;
  const name = user.globalName ?? user.username;
  return (
    <Card className="space-y-4 p-5 sm:p-6">
      <div className="flex items-center gap-4">
        <Avatar src={user.avatarUrl} name={name} size="lg" />
        <div className="min-w-0">
          <h2 className="truncate text-lg font-semibold text-surface-900 dark:text-surface-50">{name}</h2>
          <p className="truncate text-sm text-surface-600 dark:text-surface-400">
            @{user.username} · <span className="font-mono text-xs">{user.id}</span>
          </p>
          <p className="text-xs text-surface-500 dark:text-surface-400">{t('search.user.seen', { first: formatDateTime(user.createdAt), last: formatDateTime(user.updatedAt) })}</p>
        </div>
      </div>
      <Section title={t('search.user.servers')}>
        {card.servers.length === 0 ? (
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.user.noServers')}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {card.servers.map((server) => (
              <li key={server.id} className="flex items-center gap-2">
                <Avatar src={server.iconUrl} name={server.name} size="xs" shape="square" />
                <Link to={`?server=${encodeURIComponent(server.id)}`} className={linkClasses}>
                  {server.name}
                </Link>
                {server.owner ? <Badge tone="primary">{t('search.user.owner')}</Badge> : null}
                {!server.botInGuild ? <Badge>{t('search.server.noBot')}</Badge> : null}
              </li>
            ))}
          </ul>
        )}
        {user.guildsRefreshedAt ? <p className="mt-1 text-xs text-surface-500 dark:text-surface-400">{t('search.user.serversAsOf', { at: formatDateTime(user.guildsRefreshedAt) })}</p> : null}
      </Section>
      <Section title={t('search.user.subscriptions')}>
        {card.subscriptions.length === 0 ? (
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.user.noSubscriptions')}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {card.subscriptions.map((subscription) => (
              <li key={`${subscription.provider}:${subscription.id}`} className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-surface-900 dark:text-surface-50">{subscription.planName ?? subscription.planId ?? subscription.id}</span>
                <span className="text-surface-600 dark:text-surface-400">{PROVIDER_NAMES[subscription.provider] ?? subscription.provider}</span>
                <Badge tone={subscription.premium ? 'primary' : 'neutral'}>{subscription.status}</Badge>
              </li>
            ))}
          </ul>
        )}
        {card.canViewBilling ? (
          <p className="mt-2 text-sm">
            <Link to={userBillingHref(user.id)} className={linkClasses}>
              {t('search.user.billing')}
            </Link>
          </p>
        ) : null}
      </Section>
      <Section title={t('search.user.sessions')}>
        <UserSessions userId={user.id} name={name} sessions={card.sessions} />
      </Section>
      <Section title={t('search.user.tickets')}>
        <SearchTickets tickets={card.tickets} showServer />
      </Section>
    </Card>
  );
}

/**
 * The user's live dashboard sessions; with DASHBOARD_SUPPORT_SYSTEM_WRITE, "Sign out everywhere"
 * (a stolen session, an account in trouble), confirmed first. The card is read again afterwards.
 */
function UserSessions({ userId, name, sessions }: { userId: string; name: string; sessions: StaffUserCard['sessions'] }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [endSessions, state] = useEndUserSessionsMutation();
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setAsking(false);
    setError(undefined);
    requestAnimationFrame(() => opener.current?.focus());
  };
  const confirm = async () => {
    setError(undefined);
    try {
      const answer = await endSessions(userId).unwrap();
      setEnded(answer.ended);
      setAsking(false);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <div className="space-y-2">
      <p className="text-sm text-surface-700 dark:text-surface-300">{t('search.user.sessionsActive', { count: sessions.active })}</p>
      {ended !== null ? (
        <p role="status" className="text-sm text-primary-700 dark:text-primary-300">
          {t('search.user.sessionsEnded', { count: ended, name })}
        </p>
      ) : null}
      {sessions.canEnd ? (
        <Button
          ref={opener}
          variant="secondary"
          size="sm"
          disabled={sessions.active === 0}
          onClick={() => {
            setEnded(null);
            setAsking(true);
          }}
        >
          {t('search.user.endSessions')}
        </Button>
      ) : null}
      {asking ? (
        <ConfirmDialog
          title={t('search.user.endTitle', { name })}
          confirmLabel={t('search.user.endConfirm')}
          danger
          busy={state.isLoading}
          error={error}
          errorTitle={t('search.user.endFailed')}
          onConfirm={() => void confirm()}
          onCancel={close}
        >
          <p>{t('search.user.endBody', { name, count: sessions.active })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A server's card: premium and what covers it, the live configuration, managers, Web Logs, tickets; opens its dashboard. */
export function SearchServerCard({ id }: { id: string }) {
  const card = useStaffServerCardQuery(id, { refetchOnMountOrArgChange: true });
  if (!card.currentData) return <CardState loading={card.isFetching} error={card.error} onRetry={() => void card.refetch()} />;
  return <ServerCardBody card={card.currentData} />;
}

function ServerCardBody({ card }: { card: StaffServerCard }) {
  const t = useT();
  const { server, premium, config } = card;
  const cover = premium.coveredBy;
  return (
    <Card className="space-y-4 p-5 sm:p-6">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar src={server.iconUrl} name={server.name} size="lg" shape="square" />
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-lg font-semibold text-surface-900 dark:text-surface-50">{server.name}</h2>
          <p className="font-mono text-xs text-surface-600 dark:text-surface-400">{server.id}</p>
          <div className="mt-1 flex flex-wrap gap-1">
            {premium.active ? <Badge tone="primary">{t('search.server.premium')}</Badge> : <Badge>{t('search.server.free')}</Badge>}
            {!server.botInGuild ? <Badge tone="warning">{t('search.server.noBot')}</Badge> : null}
          </div>
        </div>
      </div>
      <div>
        <Link to={serverDashboardHref(server.id)} className={linkClasses}>
          {t('search.server.open')}
        </Link>
        <p className="mt-1 text-xs text-surface-500 dark:text-surface-400">{t('search.server.openNote')}</p>
      </div>
      <Section title={t('search.server.premiumTitle')}>
        {cover ? (
          <p className="text-sm text-surface-700 dark:text-surface-300">
            {t('search.server.coveredBy', {
              plan: cover.subscription.planName ?? cover.subscription.planId ?? cover.subscription.id,
              provider: PROVIDER_NAMES[cover.subscription.provider] ?? cover.subscription.provider,
              slot: cover.slot,
            })}{' '}
            <Link to={`?user=${encodeURIComponent(cover.owner.id)}`} className={linkClasses}>
              {cover.owner.name}
            </Link>
            {card.canViewBilling ? (
              <>
                {' · '}
                <Link to={userBillingHref(cover.owner.id)} className={linkClasses}>
                  {t('search.user.billing')}
                </Link>
              </>
            ) : null}
          </p>
        ) : (
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.server.noPremium')}</p>
        )}
      </Section>
      <Section title={t('search.server.config')}>
        <p className="text-sm text-surface-700 dark:text-surface-300">
          {config.version === 0
            ? t('search.server.neverSaved')
            : t('search.server.configSummary', { panels: config.panels, multiPanels: config.multiPanels, version: config.version, at: formatDateTime(config.savedAt ?? '') })}
        </p>
      </Section>
      <Section title={t('search.server.managers')}>
        {card.managers.length === 0 ? (
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.server.noManagers')}</p>
        ) : (
          <ul className="flex flex-wrap gap-2 text-sm">
            {card.managers.map((manager) => (
              <li key={manager.id} className="flex items-center gap-1.5">
                <Avatar src={manager.avatarUrl} name={manager.name} size="xs" />
                <Link to={`?user=${encodeURIComponent(manager.id)}`} className={linkClasses}>
                  {manager.name}
                </Link>
                {manager.owner ? <Badge tone="primary">{t('search.user.owner')}</Badge> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t('search.server.webLogs')}>
        {card.webLogs.length === 0 ? (
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.server.noWebLogs')}</p>
        ) : (
          <ul className="divide-y divide-surface-200 text-sm dark:divide-surface-800">
            {card.webLogs.map((entry) => (
              <li key={entry.id} className="flex flex-wrap gap-x-3 py-1.5">
                <time dateTime={entry.at} className="text-xs text-surface-500 dark:text-surface-400">
                  {formatDateTime(entry.at)}
                </time>
                <span className="font-medium text-surface-900 dark:text-surface-50">{entry.actor.name}</span>
                <span className="font-mono text-xs text-surface-600 dark:text-surface-400">{entry.action}</span>
                <span className="min-w-0 break-words text-surface-700 dark:text-surface-300">{entry.target}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t('search.server.tickets')}>
        <SearchTickets tickets={card.tickets} showServer={false} />
      </Section>
    </Card>
  );
}

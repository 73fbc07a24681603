import type { BillingSubscription, PremiumSlot } from '@tickety/api-contract';
import { formatDateTime, Link, selectOpenServer, useAppSelector, useParams, usePlansQuery } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, ConfirmDialog, EmptyState, LoadFailed, PageHeader, Skeleton } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Gem from 'lucide-react/icons/gem';
import { useState } from 'react';
import { failedRead, failureDetail, failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { useServerName } from '../../lib/server-access';
import { useAssignPremiumMutation, useServerPremiumQuery } from './api';

const PROVIDER_NAMES: Record<BillingSubscription['provider'], string> = { paddle: 'Paddle', fastspring: 'FastSpring', discord: 'Discord', chargebee: 'Chargebee' };

interface Choice {
  subscription: BillingSubscription;
  slot: PremiumSlot;
}

/**
 * Server premium (/dashboard/:server/premium): whether the server has premium and which
 * subscription covers it, what premium unlocks, and the user's own premium slots: a free one is put
 * here, one on another server moves here once its cooldown has passed (confirmed first, since the
 * other server loses premium).
 */
export default function ServerPremium() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const open = useAppSelector(selectOpenServer);
  const { data, error, isLoading, refetch } = useServerPremiumQuery(server);
  const { data: plans } = usePlansQuery();
  const [assign, { isLoading: assigning, error: assignError, reset }] = useAssignPremiumMutation();
  const [confirm, setConfirm] = useState<Choice | null>(null);
  const premiumPlan = plans?.find((p) => p.id === 'premium');
  const readOnly = open?.access?.areas?.premium === 'read';
  // A staff member's read-only view: the slots the API lists are the staff member's own, not this
  // server's people's, so they are not offered here.
  const staffRead = open?.access?.via === 'staff';

  const put = async (choice: Choice) => {
    reset();
    try {
      await assign({ server, provider: choice.subscription.provider, subscriptionId: choice.subscription.id, slot: choice.slot.slot }).unwrap();
      setConfirm(null);
    } catch {
      setConfirm(null);
    }
  };

  const name = serverName ?? t('server.premium.thisServer');
  return (
    <div>
      <PageHeader title={t('sidebar.serverPremium')} description={t('server.premium.pageDescription', { server: name })} />
      {isLoading ? (
        <div className="space-y-4" aria-busy="true">
          <Skeleton className="h-28" />
          <Skeleton className="h-40" />
        </div>
      ) : error || !data ? (
        <LoadFailed title={t('server.premium.loadFailed')} {...failedRead(t, error)} onRetry={() => void refetch()} />
      ) : (
        <div className="space-y-6">
          <Card className="p-5 sm:p-6">
            <div className="flex flex-wrap items-center gap-3">
              <Gem className="size-5 text-primary-600 dark:text-primary-400" aria-hidden="true" />
              <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('server.premium.state.title')}</h2>
              {data.premium ? <Badge tone="primary">{t('server.premium.state.on')}</Badge> : <Badge>{t('server.premium.state.off')}</Badge>}
            </div>
            <p className="mt-3 text-sm text-surface-700 dark:text-surface-300">
              {data.coveredBy
                ? data.coveredBy.mine
                  ? t('server.premium.coveredByYours', { plan: data.coveredBy.planName ?? '—', provider: PROVIDER_NAMES[data.coveredBy.provider], slot: data.coveredBy.slot })
                  : t('server.premium.coveredByOther', { plan: data.coveredBy.planName ?? '—' })
                : t('server.premium.notCovered')}
            </p>
            {data.coveredBy?.mine && data.coveredBy.id ? (
              <Link to={href('/billing')} className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mt-3' })}>
                {t('server.premium.openSubscription')}
              </Link>
            ) : null}
          </Card>

          {assignError ? (
            <Alert tone="danger" title={t('server.premium.assignFailed')}>
              {failureText(assignError)}
              {failureDetail(assignError) ? <span className="mt-1 block">{failureDetail(assignError)}</span> : null}
            </Alert>
          ) : null}

          {staffRead ? (
            <p className="text-sm text-surface-600 dark:text-surface-400">{t('server.premium.staffRead')}</p>
          ) : (
          <section aria-labelledby="premium-slots">
            <h2 id="premium-slots" className="mb-3 text-base font-semibold text-surface-900 dark:text-surface-50">
              {t('server.premium.slots.title')}
            </h2>
            {data.mine.length === 0 ? (
              <EmptyState icon={<Gem className="size-6" aria-hidden="true" />} title={t('server.premium.slots.none')} description={t('server.premium.slots.noneBody')}>
                <Link to={href('/premium-purchase')} className={buttonClasses()}>
                  {t('server.premium.plans')}
                </Link>
              </EmptyState>
            ) : (
              <ul className="space-y-3">
                {data.mine.flatMap((subscription) =>
                  subscription.slots.map((slot) => (
                    <SlotRow
                      key={`${subscription.provider}:${subscription.id}:${slot.slot}`}
                      subscription={subscription}
                      slot={slot}
                      here={slot.guildId === server}
                      serverName={name}
                      disabled={readOnly || assigning || (data.coveredBy?.mine ?? false)}
                      onChoose={() => (slot.guildId ? setConfirm({ subscription, slot }) : void put({ subscription, slot }))}
                    />
                  )),
                )}
              </ul>
            )}
            {readOnly ? <p className="mt-3 text-sm text-surface-600 dark:text-surface-400">{t('server.premium.readOnly')}</p> : null}
            <p className="mt-3 text-xs text-surface-500 dark:text-surface-400">{t('server.premium.cooldown', { hours: data.cooldownHours })}</p>
          </section>
          )}

          {premiumPlan ? (
            <Card className="p-5 sm:p-6">
              <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('server.premium.unlocks', { plan: premiumPlan.name })}</h2>
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {premiumPlan.features.map((feature) => (
                  <li key={feature} className="flex gap-2 text-sm text-surface-700 dark:text-surface-300">
                    <Check className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={t('server.premium.move.title')}
        confirmLabel={t('server.premium.move.confirm', { server: name })}
        cancelLabel={t('common.cancel')}
        tone="primary"
        busy={assigning}
        onConfirm={() => confirm && void put(confirm)}
        onCancel={() => setConfirm(null)}
      >
        {confirm ? t('server.premium.move.body', { from: confirm.slot.guildName ?? confirm.slot.guildId ?? '', to: name, hours: data?.cooldownHours ?? 24 }) : null}
      </ConfirmDialog>
    </div>
  );
}

function SlotRow({ subscription, slot, here, serverName, disabled, onChoose }: { subscription: BillingSubscription; slot: PremiumSlot; here: boolean; serverName: string; disabled: boolean; onChoose: () => void }) {
  const t = useT();
  const waiting = slot.movableAt !== null && slot.guildId !== null && !here;
  return (
    <li>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-surface-900 dark:text-surface-50">
            {t('server.premium.slot.name', { plan: subscription.planName ?? '—', provider: PROVIDER_NAMES[subscription.provider], slot: slot.slot })}
          </p>
          <p className="text-sm text-surface-600 dark:text-surface-400">
            {here
              ? t('server.premium.slot.here', { server: serverName })
              : slot.guildId
                ? t('server.premium.slot.on', { server: slot.guildName ?? slot.guildId })
                : t('server.premium.slot.free')}
            {waiting ? ` ${t('server.premium.slot.movableAt', { at: formatDateTime(slot.movableAt!) })}` : ''}
          </p>
        </div>
        {here ? (
          <Badge tone="primary" className="self-start sm:self-auto">
            {t('server.premium.slot.active')}
          </Badge>
        ) : (
          <Button variant={slot.guildId ? 'secondary' : 'primary'} size="sm" className="self-start sm:self-auto" disabled={disabled || waiting} onClick={onChoose}>
            {slot.guildId ? t('server.premium.slot.move', { server: serverName }) : t('server.premium.slot.use', { server: serverName })}
          </Button>
        )}
      </Card>
    </li>
  );
}

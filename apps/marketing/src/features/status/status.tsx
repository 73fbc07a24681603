import type { HealthState, StatusReason, StatusResponse } from '@tickety/api-contract';
import { formatDateTime, formatNumber, formatRelative, Link, type Translate, useNow } from '@tickety/shared';
import { Alert, Badge, Button, Card, cx, EmptyState, PageHeader, Skeleton, Table, type TableColumn, type Tone } from '@tickety/ui';
import CircleAlert from 'lucide-react/icons/circle-alert';
import CircleCheck from 'lucide-react/icons/circle-check';
import CircleX from 'lucide-react/icons/circle-x';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Server from 'lucide-react/icons/server';
import WifiOff from 'lucide-react/icons/wifi-off';
import { useEffect, useRef } from 'react';
import { Container } from '../../components/layout';
import { href } from '../../lib/hrefs';
import { type MessageKey, Message, useT } from '../../lib/i18n';
import { STATUS_REFRESH_MS, useMarketingStatusQuery } from './api';
import { useDocumentVisible } from './use-document-visible';

/** A shard without a heartbeat for this long is shown as stale (the API stops counting it as healthy). */
const STALE_HEARTBEAT_MS = 120_000;

const OVERALL: Record<HealthState, { title: MessageKey; text: MessageKey; className: string; icon: typeof CircleCheck }> = {
  operational: {
    title: 'status.overall.operational.title',
    text: 'status.overall.operational.text',
    className: 'border-primary-300 bg-primary-50 text-primary-900 dark:border-primary-800 dark:bg-primary-950 dark:text-primary-100',
    icon: CircleCheck,
  },
  degraded: {
    title: 'status.overall.degraded.title',
    text: 'status.overall.degraded.text',
    className: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
    icon: CircleAlert,
  },
  down: {
    title: 'status.overall.down.title',
    text: 'status.overall.down.text',
    className: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
    icon: CircleX,
  },
};

const STATE_TONE: Record<HealthState, Tone> = { operational: 'primary', degraded: 'warning', down: 'danger' };
const STATE_LABEL: Record<HealthState, MessageKey> = { operational: 'status.state.operational', degraded: 'status.state.degraded', down: 'status.state.down' };

const SERVICE_NAMES: Record<string, { label: MessageKey; about: MessageKey }> = {
  api: { label: 'status.service.api.name', about: 'status.service.api.about' },
  database: { label: 'status.service.database.name', about: 'status.service.database.about' },
  bot: { label: 'status.service.bot.name', about: 'status.service.bot.about' },
  redis: { label: 'status.service.redis.name', about: 'status.service.redis.about' },
};

const REASON: Record<StatusReason, MessageKey> = {
  database_slow: 'status.reason.database_slow',
  database_down: 'status.reason.database_down',
  redis_down: 'status.reason.redis_down',
  shards_not_ready: 'status.reason.shards_not_ready',
  check_timeout: 'status.reason.check_timeout',
};

/** A service's name and what it does: ours translated, any other one by its id. */
function serviceName(name: string, t: Translate<MessageKey>): { label: string; about: string } {
  const known = Object.hasOwn(SERVICE_NAMES, name) ? SERVICE_NAMES[name] : undefined;
  return known ? { label: t(known.label), about: t(known.about) } : { label: name.charAt(0).toUpperCase() + name.slice(1), about: '' };
}

function shardTone(state: string, stale: boolean): Tone {
  if (stale) return 'danger';
  if (state === 'ready') return 'primary';
  if (state === 'disconnected' || state === 'down' || state === 'dead') return 'danger';
  return 'warning';
}

function latency(ms: number | null, t: Translate<MessageKey>): string {
  return ms === null ? '—' : t('status.latency', { ms: formatNumber(Math.round(ms)) });
}

/** The shard states the bot reports, named in the active language; any other is shown as reported. */
const SHARD_STATES: Record<string, MessageKey> = {
  ready: 'status.shard.state.ready',
  connecting: 'status.shard.state.connecting',
  reconnecting: 'status.shard.state.reconnecting',
  resuming: 'status.shard.state.resuming',
  identifying: 'status.shard.state.identifying',
  waiting: 'status.shard.state.waiting',
  idle: 'status.shard.state.idle',
  disconnected: 'status.shard.state.disconnected',
  down: 'status.shard.state.down',
  dead: 'status.shard.state.dead',
};

/** A shard's state; one silent for too long is down, whatever it said last. */
function ShardState({ state, stale }: { state: string; stale: boolean }) {
  const t = useT();
  const shown = stale ? 'down' : state;
  const key = Object.hasOwn(SHARD_STATES, shown) ? SHARD_STATES[shown] : undefined;
  return <Badge tone={shardTone(state, stale)}>{key ? t(key) : shown}</Badge>;
}

function Overall({ status }: { status: HealthState }) {
  const t = useT();
  const overall = OVERALL[status];
  const Icon = overall.icon;
  return (
    <div className={cx('flex items-start gap-4 rounded-xl border p-5', overall.className)}>
      <Icon aria-hidden="true" className="mt-0.5 size-7 shrink-0" />
      <div>
        <p className="text-lg font-semibold">{t(overall.title)}</p>
        <p className="mt-0.5 text-sm opacity-90">{t(overall.text)}</p>
      </div>
    </div>
  );
}

function Services({ services }: { services: StatusResponse['services'] }) {
  const t = useT();
  return (
    <Card>
      <ul className="divide-y divide-surface-200 dark:divide-surface-800">
        {services.map((service) => {
          const { label, about } = serviceName(service.name, t);
          return (
            <li key={service.name} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-4">
              <div className="w-full min-w-0 sm:w-auto sm:flex-1">
                <p className="font-medium text-surface-900 dark:text-surface-50">{label}</p>
                <p className="text-sm text-surface-600 dark:text-surface-400">{service.reason && Object.hasOwn(REASON, service.reason) ? t(REASON[service.reason]) : (service.detail ?? about)}</p>
              </div>
              <span className="text-sm text-surface-600 tabular-nums dark:text-surface-400" title={t('status.responseTime')}>
                <span className="sr-only">{t('status.latencyLabel')} </span>
                {latency(service.latencyMs, t)}
              </span>
              <Badge tone={STATE_TONE[service.status]}>{t(STATE_LABEL[service.status])}</Badge>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

type Shard = StatusResponse['shards'][number];

function Shards({ shards, now }: { shards: StatusResponse['shards']; now: number }) {
  const t = useT();
  if (shards.length === 0) {
    return <EmptyState icon={<Server aria-hidden="true" className="size-6" />} title={t('status.noShards.title')} description={t('status.noShards.text')} />;
  }
  const ready = shards.filter((s) => s.state === 'ready' && now - Date.parse(s.lastHeartbeat) < STALE_HEARTBEAT_MS).length;
  const guilds = shards.reduce((sum, s) => sum + s.guilds, 0);
  const stale = (s: Shard) => now - Date.parse(s.lastHeartbeat) >= STALE_HEARTBEAT_MS;
  const columns: TableColumn<Shard>[] = [
    { key: 'shard', header: t('status.column.shard'), label: t('status.column.shard'), rowHeader: true, sortValue: (s) => s.id, cell: (s) => <span className="font-medium tabular-nums">#{s.id}</span> },
    { key: 'state', header: t('status.column.state'), label: t('status.column.state'), sortValue: (s) => s.state, cell: (s) => <ShardState state={s.state} stale={stale(s)} /> },
    {
      key: 'latency',
      header: t('status.column.latency'),
      label: t('status.column.latency'),
      align: 'end',
      sortValue: (s) => s.latencyMs ?? Number.POSITIVE_INFINITY,
      cell: (s) => <span className="tabular-nums">{latency(s.latencyMs, t)}</span>,
    },
    { key: 'servers', header: t('status.column.servers'), label: t('status.column.servers'), align: 'end', sortValue: (s) => s.guilds, cell: (s) => <span className="tabular-nums">{formatNumber(s.guilds)}</span> },
    {
      key: 'heartbeat',
      header: t('status.column.heartbeat'),
      label: t('status.column.heartbeat'),
      sortValue: (s) => Date.parse(s.lastHeartbeat),
      cell: (service) => (
        <time dateTime={service.lastHeartbeat} title={formatDateTime(service.lastHeartbeat, { seconds: true })} className={cx(stale(service) && 'font-medium text-red-700 dark:text-red-400')}>
          {formatRelative(service.lastHeartbeat, now)}
        </time>
      ),
    },
  ];
  return (
    <Card className="overflow-hidden">
      <p className="border-b border-surface-200 px-5 py-3 text-sm text-surface-600 dark:border-surface-800 dark:text-surface-400">
        {t('status.shards.summary', {
          readyText: formatNumber(ready),
          total: shards.length,
          totalText: formatNumber(shards.length),
          guilds,
          guildsText: formatNumber(guilds),
        })}
      </p>
      {/* On a phone each shard is a card with its column labels (five columns do not fit in 360 px). */}
      <Table
        className="rounded-none border-0"
        caption={t('status.shards.title')}
        columns={columns}
        rows={shards}
        rowKey={(s) => String(s.id)}
        empty={null}
        initialSort={{ key: 'shard', direction: 'ascending' }}
      />
    </Card>
  );
}

function StatusSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-busy="true" aria-label={t('status.loading')} className="space-y-8">
      <Skeleton className="h-20 w-full rounded-xl" />
      <div className="space-y-3">
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-44 w-full rounded-xl" />
      </div>
      <div className="space-y-3">
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-40 w-full rounded-xl" />
      </div>
    </div>
  );
}

export default function StatusPage() {
  const t = useT();
  const visible = useDocumentVisible();
  const now = useNow(1_000);
  const { data, error, isFetching, fulfilledTimeStamp, refetch } = useMarketingStatusQuery(undefined, {
    pollingInterval: visible ? STATUS_REFRESH_MS : 0,
    // A status the page arrived with (routes.tsx puts it into the cache) is not asked for again at once.
    refetchOnMountOrArgChange: STATUS_REFRESH_MS / 1000,
  });

  // Coming back to the tab after a while: check at once instead of waiting for the next poll.
  const lastVisible = useRef(visible);
  useEffect(() => {
    if (visible && !lastVisible.current && (!fulfilledTimeStamp || Date.now() - fulfilledTimeStamp >= STATUS_REFRESH_MS)) void refetch();
    lastVisible.current = visible;
  }, [visible, fulfilledTimeStamp, refetch]);

  const rawMessage = (error?.message ?? '').trim() || t('status.unreadable');
  const errorMessage = error ? (/[.!?]$/.test(rawMessage) ? rawMessage : `${rawMessage}.`) : '';
  const checkedAt = fulfilledTimeStamp ?? (data ? Date.parse(data.checkedAt) : null);

  return (
    <Container className="py-12 sm:py-16">
      <PageHeader
        title={t('title.status')}
        description={t('status.lead', { seconds: formatNumber(STATUS_REFRESH_MS / 1000) })}
        actions={
          <>
            {checkedAt ? (
              <p className="text-sm text-surface-600 dark:text-surface-400">
                <Message
                  k="status.lastChecked"
                  values={{ when: formatRelative(checkedAt, now) }}
                  components={{ time: <time dateTime={new Date(checkedAt).toISOString()} title={formatDateTime(checkedAt, { seconds: true })} /> }}
                />
              </p>
            ) : null}
            <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isFetching} aria-busy={isFetching || undefined}>
              <RefreshCw aria-hidden="true" className={cx('size-4', isFetching && 'animate-spin')} />
              {t('status.refresh')}
            </Button>
          </>
        }
      />

      {error && data ? (
        <Alert tone="warning" className="mb-6" title={t('status.lastFailed.title')}>
          {t('status.lastFailed.text', { error: errorMessage, when: formatRelative(checkedAt ?? now, now) })}
        </Alert>
      ) : null}

      {data ? (
        <div className="space-y-10">
          <div aria-live="polite">
            <Overall status={data.status} />
          </div>
          <section aria-labelledby="status-services">
            <h2 id="status-services" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
              {t('status.services.title')}
            </h2>
            <Services services={data.services} />
          </section>
          <section aria-labelledby="status-shards">
            <h2 id="status-shards" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
              {t('status.shards.title')}
            </h2>
            <Shards shards={data.shards} now={now} />
          </section>
        </div>
      ) : error ? (
        <EmptyState
          icon={<WifiOff aria-hidden="true" className="size-6" />}
          title={t('status.unreachable.title')}
          description={t('status.unreachable.text', { error: errorMessage })}
        >
          <Button onClick={() => void refetch()} loading={isFetching}>
            {t('common.tryAgain')}
          </Button>
          <Link to={href('/support')} className="inline-flex h-10 items-center px-4 text-sm font-semibold text-primary-700 underline underline-offset-2 dark:text-primary-400">
            {t('status.getSupport')}
          </Link>
        </EmptyState>
      ) : (
        <StatusSkeleton />
      )}
    </Container>
  );
}

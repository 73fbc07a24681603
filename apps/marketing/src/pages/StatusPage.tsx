import { formatDateTime, formatNumber, formatRelative, Link, useNow } from '@tickety/shared';
import CircleAlert from 'lucide-react/icons/circle-alert';
import CircleCheck from 'lucide-react/icons/circle-check';
import CircleX from 'lucide-react/icons/circle-x';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Server from 'lucide-react/icons/server';
import WifiOff from 'lucide-react/icons/wifi-off';
import type { HealthState, StatusResponse } from '@tickety/api-contract';
import { Alert, Badge, Button, Card, cx, EmptyState, PageHeader, Skeleton, type Tone } from '@tickety/ui';
import { useEffect, useRef } from 'react';
import { Container } from '../components/layout';
import { STATUS_REFRESH_MS, useMarketingStatusQuery } from '../lib/api';
import { useDocumentVisible } from '../lib/hooks';

/** A shard without a heartbeat for this long is shown as stale (the API stops counting it as healthy). */
const STALE_HEARTBEAT_MS = 120_000;

const OVERALL: Record<HealthState, { title: string; text: string; className: string; icon: typeof CircleCheck }> = {
  operational: {
    title: 'All systems operational',
    text: 'The bot, the dashboard and the API are working normally.',
    className: 'border-primary-300 bg-primary-50 text-primary-900 dark:border-primary-800 dark:bg-primary-950 dark:text-primary-100',
    icon: CircleCheck,
  },
  degraded: {
    title: 'Some systems are degraded',
    text: 'Part of the service is slow or unavailable. Details below.',
    className: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
    icon: CircleAlert,
  },
  down: {
    title: 'Major outage',
    text: 'The service is not working. We are on it.',
    className: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
    icon: CircleX,
  },
};

const STATE_TONE: Record<HealthState, Tone> = { operational: 'primary', degraded: 'warning', down: 'danger' };
const STATE_LABEL: Record<HealthState, string> = { operational: 'Operational', degraded: 'Degraded', down: 'Down' };

const SERVICE_NAMES: Record<string, { label: string; about: string }> = {
  api: { label: 'API', about: 'Sign-in, the dashboard and billing' },
  database: { label: 'Database', about: 'Configurations, transcripts and logs' },
  bot: { label: 'Discord bot', about: 'Panels and tickets in your servers' },
};

function serviceName(name: string) {
  return SERVICE_NAMES[name] ?? { label: name.charAt(0).toUpperCase() + name.slice(1), about: '' };
}

function shardTone(state: string, stale: boolean): Tone {
  if (stale) return 'danger';
  if (state === 'ready') return 'primary';
  if (state === 'disconnected' || state === 'down' || state === 'dead') return 'danger';
  return 'warning';
}

function latency(ms: number | null): string {
  return ms === null ? '—' : `${formatNumber(Math.round(ms))} ms`;
}

function Overall({ status }: { status: HealthState }) {
  const o = OVERALL[status];
  const Icon = o.icon;
  return (
    <div className={cx('flex items-start gap-4 rounded-xl border p-5', o.className)}>
      <Icon aria-hidden="true" className="mt-0.5 size-7 shrink-0" />
      <div>
        <p className="text-lg font-semibold">{o.title}</p>
        <p className="mt-0.5 text-sm opacity-90">{o.text}</p>
      </div>
    </div>
  );
}

function Services({ services }: { services: StatusResponse['services'] }) {
  return (
    <Card>
      <ul className="divide-y divide-surface-200 dark:divide-surface-800">
        {services.map((s) => {
          const { label, about } = serviceName(s.name);
          return (
            <li key={s.name} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-4">
              <div className="w-full min-w-0 sm:w-auto sm:flex-1">
                <p className="font-medium text-surface-900 dark:text-surface-50">{label}</p>
                <p className="text-sm text-surface-600 dark:text-surface-400">{s.detail ?? about}</p>
              </div>
              <span className="text-sm text-surface-600 tabular-nums dark:text-surface-400" title="Response time">
                <span className="sr-only">Latency: </span>
                {latency(s.latencyMs)}
              </span>
              <Badge tone={STATE_TONE[s.status]}>{STATE_LABEL[s.status]}</Badge>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function Shards({ shards, now }: { shards: StatusResponse['shards']; now: number }) {
  if (shards.length === 0) {
    return (
      <EmptyState
        icon={<Server aria-hidden="true" className="size-6" />}
        title="No shard has reported yet"
        description="The bot has not sent a heartbeat. If it was just started, its shards appear here within a minute of connecting to Discord."
      />
    );
  }
  const ready = shards.filter((s) => s.state === 'ready' && now - Date.parse(s.lastHeartbeat) < STALE_HEARTBEAT_MS).length;
  const guilds = shards.reduce((sum, s) => sum + s.guilds, 0);
  return (
    <Card className="overflow-hidden">
      <p className="border-b border-surface-200 px-5 py-3 text-sm text-surface-600 dark:border-surface-800 dark:text-surface-400">
        {ready} of {shards.length} {shards.length === 1 ? 'shard' : 'shards'} ready, serving {formatNumber(guilds)} {guilds === 1 ? 'server' : 'servers'}.
      </p>
      {/* Phones: one card per shard (five columns do not fit in 360 px). */}
      <ul className="divide-y divide-surface-200 sm:hidden dark:divide-surface-800">
        {shards.map((s) => {
          const stale = now - Date.parse(s.lastHeartbeat) >= STALE_HEARTBEAT_MS;
          return (
            <li key={s.id} className="px-4 py-3 text-sm">
              <p className="flex items-center gap-2">
                <span className="font-medium text-surface-900 tabular-nums dark:text-surface-50">Shard #{s.id}</span>
                <Badge tone={shardTone(s.state, stale)}>{s.state}</Badge>
              </p>
              <p className="mt-1 text-surface-600 dark:text-surface-400">
                {latency(s.latencyMs)} · {formatNumber(s.guilds)} servers · heartbeat{' '}
                <time dateTime={s.lastHeartbeat} className={cx(stale && 'font-medium text-red-700 dark:text-red-400')}>
                  {formatRelative(s.lastHeartbeat, now)}
                </time>
              </p>
            </li>
          );
        })}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Bot shards</caption>
          <thead className="bg-surface-50 text-xs tracking-wide text-surface-600 uppercase dark:bg-surface-900 dark:text-surface-400">
            <tr>
              <th scope="col" className="px-5 py-3 font-semibold">
                Shard
              </th>
              <th scope="col" className="px-5 py-3 font-semibold">
                State
              </th>
              <th scope="col" className="px-5 py-3 text-right font-semibold">
                Latency
              </th>
              <th scope="col" className="px-5 py-3 text-right font-semibold">
                Servers
              </th>
              <th scope="col" className="px-5 py-3 font-semibold">
                Last heartbeat
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-surface-200 dark:divide-surface-800">
            {shards.map((s) => {
              const stale = now - Date.parse(s.lastHeartbeat) >= STALE_HEARTBEAT_MS;
              return (
                <tr key={s.id} className="text-surface-800 dark:text-surface-200">
                  <th scope="row" className="px-5 py-3 font-medium tabular-nums">
                    #{s.id}
                  </th>
                  <td className="px-5 py-3">
                    <Badge tone={shardTone(s.state, stale)}>{s.state}</Badge>
                  </td>
                  <td className="px-5 py-3 text-right tabular-nums">{latency(s.latencyMs)}</td>
                  <td className="px-5 py-3 text-right tabular-nums">{formatNumber(s.guilds)}</td>
                  <td className="px-5 py-3">
                    <time dateTime={s.lastHeartbeat} title={formatDateTime(s.lastHeartbeat, { seconds: true })} className={cx(stale && 'font-medium text-red-700 dark:text-red-400')}>
                      {formatRelative(s.lastHeartbeat, now)}
                    </time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function StatusSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading the status" className="space-y-8">
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
  const visible = useDocumentVisible();
  const now = useNow(1_000);
  const { data, error, isFetching, fulfilledTimeStamp, refetch } = useMarketingStatusQuery(undefined, {
    pollingInterval: visible ? STATUS_REFRESH_MS : 0,
    refetchOnMountOrArgChange: true,
  });

  // Coming back to the tab after a while: check at once instead of waiting for the next poll.
  const lastVisible = useRef(visible);
  useEffect(() => {
    if (visible && !lastVisible.current && (!fulfilledTimeStamp || Date.now() - fulfilledTimeStamp >= STATUS_REFRESH_MS)) void refetch();
    lastVisible.current = visible;
  }, [visible, fulfilledTimeStamp, refetch]);

  const rawMessage = (error?.message ?? '').trim() || 'The status could not be read.';
  const errorMessage = error ? (/[.!?]$/.test(rawMessage) ? rawMessage : `${rawMessage}.`) : '';
  const checkedAt = fulfilledTimeStamp ?? (data ? Date.parse(data.checkedAt) : null);

  return (
    <Container className="py-12 sm:py-16">
      <PageHeader
        title="Status"
        description="Live health of the bot, the dashboard and the API. This page checks again every 30 seconds while it is open."
        actions={
          <>
            {checkedAt ? (
              <p className="text-sm text-surface-600 dark:text-surface-400">
                Last checked{' '}
                <time dateTime={new Date(checkedAt).toISOString()} title={formatDateTime(checkedAt, { seconds: true })}>
                  {formatRelative(checkedAt, now)}
                </time>
              </p>
            ) : null}
            <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isFetching} aria-busy={isFetching || undefined}>
              <RefreshCw aria-hidden="true" className={cx('size-4', isFetching && 'animate-spin')} />
              Refresh
            </Button>
          </>
        }
      />

      {error && data ? (
        <Alert tone="warning" className="mb-6" title="The last check failed">
          {errorMessage} Showing the results from {formatRelative(checkedAt ?? now, now)}; we will try again shortly.
        </Alert>
      ) : null}

      {data ? (
        <div className="space-y-10">
          <div aria-live="polite">
            <Overall status={data.status} />
          </div>
          <section aria-labelledby="status-services">
            <h2 id="status-services" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
              Services
            </h2>
            <Services services={data.services} />
          </section>
          <section aria-labelledby="status-shards">
            <h2 id="status-shards" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
              Bot shards
            </h2>
            <Shards shards={data.shards} now={now} />
          </section>
        </div>
      ) : error ? (
        <EmptyState
          icon={<WifiOff aria-hidden="true" className="size-6" />}
          title="We could not reach the status service"
          description={`${errorMessage} If this keeps happening, the API itself may be down; our support server posts updates.`}
        >
          <Button onClick={() => void refetch()} loading={isFetching}>
            Try again
          </Button>
          <Link to="/support" className="inline-flex h-10 items-center px-4 text-sm font-semibold text-primary-700 underline underline-offset-2 dark:text-primary-400">
            Get support
          </Link>
        </EmptyState>
      ) : (
        <StatusSkeleton />
      )}
    </Container>
  );
}

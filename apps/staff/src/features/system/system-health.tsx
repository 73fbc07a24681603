import type { StaffSystemAnswer as Health, StaffSystemDatabase, StaffSystemRedis } from '@tickety/api-contract';
import { formatDateTime, formatNumber, formatRelative, REMOTE_IDS, type RemoteId, useNow, useRuntimeConfig } from '@tickety/shared';
import { Badge, Card, cx, Skeleton, type Tone } from '@tickety/ui';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { type ReactNode, useId } from 'react';
import { useT } from '../../lib/i18n';
import { formatBytes, formatUptime, SLOW_DATABASE_MS, useStaffSystemQuery } from './api';
import { SystemErrors } from './system-errors';
import { LoadError, RefreshHeader, SYSTEM_REFRESH_MS, useRefresh } from './system-refresh';
import { SystemShards } from './system-shards';

/**
 * The System page's "Service health": the database (reachable, latency, size, pool), Redis (whether the
 * rate limits are shared or, while it is unreachable, counted per instance), the API (version,
 * Node.js, started, uptime), the deployed version of every front end (from the config.json the shell
 * loaded), the bot's shards and this API instance's recent server errors. Reads itself again every
 * 15 s and on Refresh.
 */
export function StaffSystemAnswer() {
  const t = useT();
  const ids = useId();
  const query = useStaffSystemQuery(undefined, { pollingInterval: SYSTEM_REFRESH_MS, refetchOnMountOrArgChange: true });
  const { note, refresh } = useRefresh(query.refetch);
  // "x seconds ago" ticks with the polls; never before the answer it describes (the clock may lag it).
  const now = Math.max(useNow(SYSTEM_REFRESH_MS), query.fulfilledTimeStamp ?? 0);
  const fetching = query.isFetching;

  let body: ReactNode;
  if (!query.data) {
    body = query.isError ? <LoadError title={t('health.loadFailed')} error={query.error} onRetry={() => void refresh()} /> : <HealthSkeleton />;
  } else {
    const health = query.data;
    body = (
      <>
        {query.isError ? <LoadError title={t('health.refreshFailed')} error={query.error} onRetry={() => void refresh()} tone="warning" /> : null}
        <div className="grid gap-4 lg:grid-cols-2 2xl:grid-cols-3">
          <DatabaseCard database={health.database} />
          {health.redis === undefined ? null : <RedisCard redis={health.redis} now={now} />}
          <ApiCard api={health.api} now={now} />
          <VersionsCard />
        </div>
        <SystemShards shards={health.shards} now={now} />
        <SystemErrors errors={health.errors} startedAt={health.api.startedAt} now={now} />
      </>
    );
  }

  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-5">
      <RefreshHeader
        headingId={`${ids}-heading`}
        title={t('health.heading')}
        description={t('health.description', { seconds: SYSTEM_REFRESH_MS / 1000 })}
        updatedAt={query.fulfilledTimeStamp}
        fetching={fetching}
        onRefresh={() => void refresh()}
        refreshLabel={t('health.refreshLabel')}
        note={note}
        live={{ refreshing: t('health.live.refreshing'), refreshed: (time) => t('health.live.refreshed', { time }), failed: t('health.refreshFailed') }}
      />
      {body}
    </section>
  );
}

function HealthSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-busy="true" className="space-y-4">
      <span className="sr-only">{t('health.loading')}</span>
      <div className="grid gap-4 lg:grid-cols-2 2xl:grid-cols-3">
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
      </div>
      <Skeleton className="h-40" />
    </div>
  );
}

const CARD_RING: Record<Tone, string> = {
  danger: 'border-red-300 ring-1 ring-red-300 dark:border-red-800 dark:ring-red-800',
  warning: 'border-amber-300 ring-1 ring-amber-300 dark:border-amber-700 dark:ring-amber-700',
  neutral: '',
  primary: '',
  info: '',
};

/** A card named by its heading (a region), with an optional state badge; highlighted when the state is bad. */
function HealthCard({ title, badge, children }: { title: string; badge?: { tone: Tone; text: string }; children: ReactNode }) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id} className={cx('min-w-0 p-4 sm:p-5', badge ? CARD_RING[badge.tone] : '')}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={id} className="font-semibold text-surface-900 dark:text-surface-50">
          {title}
        </h3>
        {badge ? <Badge tone={badge.tone}>{badge.text}</Badge> : null}
      </div>
      {children}
    </Card>
  );
}

function Figure({ label, children, strong = false }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-surface-600 dark:text-surface-400">{label}</dt>
      <dd className={cx('mt-0.5 break-words text-surface-900 dark:text-surface-50', strong ? 'font-bold' : 'font-medium')}>{children}</dd>
    </div>
  );
}

const muted = 'font-normal text-surface-500 dark:text-surface-400';

function DatabaseCard({ database }: { database: StaffSystemDatabase }) {
  const t = useT();
  const slow = database.latencyMs !== null && database.latencyMs > SLOW_DATABASE_MS;
  const badge: { tone: Tone; text: string } = !database.reachable
    ? { tone: 'danger', text: t('health.db.unreachable') }
    : slow
      ? { tone: 'warning', text: t('health.db.slow') }
      : { tone: 'primary', text: t('health.db.reachable') };
  const { pool } = database;
  return (
    <HealthCard title={t('health.db.heading')} badge={badge}>
      {database.reachable ? null : <p className="mt-2 text-sm text-red-800 dark:text-red-300">{t('health.db.unreachableText')}</p>}
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-3 text-sm min-[400px]:grid-cols-2">
        <Figure label={t('health.db.engine')}>{t(`health.db.kind.${database.kind}`)}</Figure>
        <Figure label={t('health.db.latency')} strong={slow}>
          {database.latencyMs === null ? (
            <span className={muted}>{t('health.db.noAnswer')}</span>
          ) : (
            <span className="tabular-nums">{t('health.db.latencyValue', { ms: formatNumber(Math.round(database.latencyMs)) })}</span>
          )}
          {slow ? (
            <span className="mt-0.5 flex items-center gap-1 text-xs font-medium text-amber-800 dark:text-amber-300">
              <TriangleAlert className="size-3.5 shrink-0" aria-hidden="true" />
              {t('health.db.slowNote', { ms: formatNumber(SLOW_DATABASE_MS) })}
            </span>
          ) : null}
        </Figure>
        <Figure label={t('health.db.size')}>
          {database.sizeBytes === null ? (
            <span className={muted}>{t('health.db.unknown')}</span>
          ) : (
            <span className="tabular-nums" title={t('health.db.sizeExact', { count: database.sizeBytes, countText: formatNumber(database.sizeBytes) })}>
              {formatBytes(database.sizeBytes)}
            </span>
          )}
        </Figure>
        <Figure label={t('health.db.connections')} strong={(pool?.waiting ?? 0) > 0}>
          {database.kind === 'pglite' ? (
            t('health.db.pool.embedded')
          ) : pool ? (
            <>
              <span className="tabular-nums">{t('health.db.pool.use', { used: formatNumber(Math.max(0, pool.total - pool.idle)), max: formatNumber(pool.max) })}</span>
              <span className={cx('block text-xs tabular-nums', pool.waiting > 0 ? 'text-amber-800 dark:text-amber-300' : muted)}>
                {pool.waiting > 0 ? t('health.db.pool.waiting', { count: pool.waiting, countText: formatNumber(pool.waiting) }) : t('health.db.pool.noneWaiting')}
              </span>
            </>
          ) : (
            <span className={muted}>{t('health.db.pool.unknown')}</span>
          )}
        </Figure>
      </dl>
    </HealthCard>
  );
}

/** REDIS_URL's Redis: the rate limits shared by every instance, or counted per instance (not configured, or unreachable). */
function RedisCard({ redis, now }: { redis: StaffSystemRedis | null; now: number }) {
  const t = useT();
  if (redis === null) {
    return (
      <HealthCard title={t('health.redis.heading')} badge={{ tone: 'neutral', text: t('health.redis.notConfigured') }}>
        <p className="mt-2 text-sm text-surface-700 dark:text-surface-300">{t('health.redis.notConfiguredText')}</p>
        <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-3 text-sm">
          <Figure label={t('health.redis.limits')}>{t('health.redis.limits.local')}</Figure>
        </dl>
      </HealthCard>
    );
  }
  const badge: { tone: Tone; text: string } = redis.reachable
    ? { tone: 'primary', text: t('health.redis.reachable') }
    : { tone: 'danger', text: t('health.redis.unreachable') };
  return (
    <HealthCard title={t('health.redis.heading')} badge={badge}>
      {redis.reachable ? null : <p className="mt-2 text-sm text-red-800 dark:text-red-300">{t('health.redis.unreachableText')}</p>}
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-3 text-sm min-[400px]:grid-cols-2">
        <Figure label={t('health.redis.limits')} strong={!redis.reachable}>
          {t(redis.reachable ? 'health.redis.limits.shared' : 'health.redis.limits.local')}
        </Figure>
        <Figure label={t('health.redis.latency')}>
          {redis.latencyMs === null ? (
            <span className={muted}>{t('health.redis.noAnswer')}</span>
          ) : (
            <span className="tabular-nums">{t('health.redis.latencyValue', { ms: formatNumber(Math.round(redis.latencyMs)) })}</span>
          )}
        </Figure>
        <Figure label={t(redis.reachable ? 'health.redis.reachableSince' : 'health.redis.unreachableSince')}>
          <time dateTime={redis.since} title={formatRelative(redis.since, now, { precision: 'minutes' })}>
            {formatDateTime(redis.since)}
          </time>
        </Figure>
        {redis.error === null ? null : (
          <Figure label={t('health.redis.error')}>
            <code className="font-mono text-xs break-all">{redis.error}</code>
          </Figure>
        )}
      </dl>
    </HealthCard>
  );
}

function ApiCard({ api, now }: { api: Health['api']; now: number }) {
  const t = useT();
  return (
    <HealthCard title={t('health.api.heading')}>
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-3 text-sm min-[400px]:grid-cols-2">
        <Figure label={t('health.api.version')}>
          <code className="font-mono text-xs break-all">{api.version}</code>
        </Figure>
        <Figure label={t('health.api.node')}>
          <code className="font-mono text-xs break-all">{api.node}</code>
        </Figure>
        <Figure label={t('health.api.started')}>
          <time dateTime={api.startedAt} title={formatRelative(api.startedAt, now, { precision: 'minutes' })}>
            {formatDateTime(api.startedAt)}
          </time>
        </Figure>
        <Figure label={t('health.api.uptime')}>
          <span className="tabular-nums">{formatUptime(api.uptimeSeconds)}</span>
        </Figure>
      </dl>
    </HealthCard>
  );
}

/** The shell first, then every remote in config.json's order: what this page's shell loaded. */
function VersionsCard() {
  const t = useT();
  const config = useRuntimeConfig();
  const apps: Array<{ id: 'shell' | RemoteId; deployed: boolean; version: string | null }> = [
    { id: 'shell', deployed: true, version: config.shell?.version ?? null },
    ...REMOTE_IDS.map((id) => {
      const entry = config.remotes[id];
      return { id, deployed: entry !== undefined, version: entry?.version ?? null };
    }),
  ];
  return (
    <HealthCard title={t('health.versions.heading')}>
      <p className="mt-1 text-xs text-surface-600 dark:text-surface-400">{t('health.versions.description')}</p>
      <dl className="mt-3 space-y-2 text-sm">
        {apps.map((app) => (
          <div key={app.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
            <dt className="text-surface-700 dark:text-surface-300">{t(`health.versions.app.${app.id}`)}</dt>
            <dd className="min-w-0 text-right">
              {!app.deployed ? (
                <span className={muted}>{t('health.versions.notDeployed')}</span>
              ) : app.version === null ? (
                <span className={muted}>{t('health.versions.unversioned')}</span>
              ) : (
                <code className="font-mono text-xs break-all text-surface-900 dark:text-surface-50">{app.version}</code>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </HealthCard>
  );
}

import type { StaffSystemShard } from '@tickety/api-contract';
import type { ShardState } from '@tickety/api-contract';
import { formatDateTime, formatNumber, formatRelative } from '@tickety/shared';
import { Badge, cx, EmptyState, Table, type TableColumn, type Tone } from '@tickety/ui';
import Server from 'lucide-react/icons/server';
import { useId } from 'react';
import { useT } from '../../lib/i18n';
import { STALE_HEARTBEAT_MS } from './api';

const STATE_TONE: Record<ShardState, Tone> = { ready: 'primary', connecting: 'warning', resuming: 'warning', disconnected: 'danger' };

function isKnownState(state: string): state is ShardState {
  return Object.hasOwn(STATE_TONE, state);
}

/** A shard's state as it reported it; "Stale" beside it when its last heartbeat is too old to trust. */
function StateBadges({ state, stale }: { state: string; stale: boolean }) {
  const t = useT();
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      <Badge tone={isKnownState(state) ? STATE_TONE[state] : 'neutral'}>{isKnownState(state) ? t(`health.shards.state.${state}`) : state}</Badge>
      {stale ? <Badge tone="danger">{t('health.shards.stale')}</Badge> : null}
    </span>
  );
}

/** The bot's shards by id: state, gateway latency, servers and the last heartbeat (stale after 2 minutes). */
export function SystemShards({ shards, now }: { shards: StaffSystemShard[]; now: number }) {
  const t = useT();
  const id = useId();
  const stale = (s: StaffSystemShard) => now - Date.parse(s.lastHeartbeat) > STALE_HEARTBEAT_MS;
  const staleCount = shards.filter(stale).length;
  const ready = shards.filter((s) => s.state === 'ready' && !stale(s)).length;
  const guilds = shards.reduce((sum, s) => sum + s.guilds, 0);

  const columns: Array<TableColumn<StaffSystemShard>> = [
    {
      key: 'shard',
      header: t('health.shards.col.shard'),
      label: t('health.shards.col.shard'),
      rowHeader: true,
      sortValue: (s) => s.id,
      cell: (s) => <span className="font-medium tabular-nums">#{s.id}</span>,
    },
    { key: 'state', header: t('health.shards.col.state'), label: t('health.shards.col.state'), sortValue: (s) => s.state, cell: (s) => <StateBadges state={s.state} stale={stale(s)} /> },
    {
      key: 'latency',
      header: t('health.shards.col.latency'),
      label: t('health.shards.col.latency'),
      align: 'end',
      sortValue: (s) => s.latencyMs ?? Number.POSITIVE_INFINITY,
      cell: (shard) =>
        shard.latencyMs === null ? (
          <span className="text-surface-500 dark:text-surface-400">{t('health.shards.noLatency')}</span>
        ) : (
          <span className="tabular-nums">{t('health.db.latencyValue', { ms: formatNumber(Math.round(shard.latencyMs)) })}</span>
        ),
    },
    {
      key: 'servers',
      header: t('health.shards.col.servers'),
      label: t('health.shards.col.servers'),
      align: 'end',
      sortValue: (s) => s.guilds,
      cell: (s) => <span className="tabular-nums">{formatNumber(s.guilds)}</span>,
    },
    {
      key: 'heartbeat',
      header: t('health.shards.col.heartbeat'),
      label: t('health.shards.col.heartbeat'),
      sortValue: (s) => Date.parse(s.lastHeartbeat),
      cell: (shard) => (
        <time
          dateTime={shard.lastHeartbeat}
          title={formatDateTime(shard.lastHeartbeat, { seconds: true })}
          className={cx('whitespace-nowrap', stale(shard) && 'font-medium text-red-700 dark:text-red-400')}
        >
          {/* A heartbeat stamped by a clock slightly ahead of this one reads "just now", not "in 3 seconds". */}
          {formatRelative(Math.min(Date.parse(shard.lastHeartbeat), now), now)}
        </time>
      ),
    },
  ];

  return (
    <section aria-labelledby={id} className="space-y-3">
      <div>
        <h3 id={id} className="text-base font-semibold text-surface-900 dark:text-surface-50">
          {t('health.shards.heading')}
        </h3>
        {shards.length > 0 ? (
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
            {t('health.shards.summary', {
              readyText: formatNumber(ready),
              total: shards.length,
              totalText: formatNumber(shards.length),
              guilds,
              guildsText: formatNumber(guilds),
            })}
            {staleCount > 0 ? (
              <>
                {' '}
                <span className="font-medium text-red-700 dark:text-red-400">
                  {t('health.shards.staleSummary', { count: staleCount, countText: formatNumber(staleCount), minutes: STALE_HEARTBEAT_MS / 60_000 })}
                </span>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      <Table
        caption={t('health.shards.caption')}
        columns={columns}
        rows={shards}
        rowKey={(s) => String(s.id)}
        initialSort={{ key: 'shard', direction: 'ascending' }}
        empty={<EmptyState icon={<Server className="size-6" aria-hidden="true" />} title={t('health.shards.empty.title')} description={t('health.shards.empty.text')} />}
      />
    </section>
  );
}

import type { StatisticsAnswer, StatisticsRange } from '@tickety/api-contract';
import { formatNumber, Link, useNavigate, useParams, useSearchParams } from '@tickety/shared';
import { Button, buttonClasses, Card, cx, EmptyState, inputClasses, LoadFailed, PageHeader, Skeleton, Table, type TableColumn } from '@tickety/ui';
import ChartColumn from 'lucide-react/icons/chart-column';
import Download from 'lucide-react/icons/download';
import Inbox from 'lucide-react/icons/inbox';
import { lazy, type ReactNode, Suspense, useId, useMemo, useState } from 'react';
import { downloadText } from '../../lib/csv';
import { failedRead } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useServerName } from '../../lib/server-access';
import { useDark } from '../../lib/use-dark';
import { useConfigNamesQuery } from '../configs/api';
import { change, formatDuration, labelOf, rangeOf, tableCsv, useServerStatisticsQuery } from './api';
import { SERIES_COLOURS } from './colours';
import { FeedbackComments } from './feedback-comments';
import { useT } from './i18n';

const DailyChart = lazy(() => import('./daily-chart'));

function Delta({ now, before, lowerIsBetter = false }: { now: number | null; before: number | null; lowerIsBetter?: boolean }) {
  const t = useT();
  const pct = change(now, before);
  if (pct === null) return <span className="text-xs text-surface-500 dark:text-surface-400">{t('statistics.noComparison')}</span>;
  const good = pct === 0 ? null : lowerIsBetter ? pct < 0 : pct > 0;
  return (
    <span className={cx('text-xs font-medium', good === null ? 'text-surface-500' : good ? 'text-primary-700 dark:text-primary-400' : 'text-red-700 dark:text-red-400')}>
      {t('statistics.change', { pct: pct > 0 ? `+${pct}` : String(pct) })}
    </span>
  );
}

function Stat({ label, value, detail, delta }: { label: string; value: string; detail?: string; delta: ReactNode }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-surface-600 dark:text-surface-400">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-surface-900 dark:text-surface-50">{value}</p>
      {detail ? <p className="text-xs text-surface-500 dark:text-surface-400">{detail}</p> : null}
      <div className="mt-1">{delta}</div>
    </Card>
  );
}

/** Simple bars (ratings, hours): each with its count as text, so they read without the picture. */
function Bars({ values, label, caption }: { values: number[]; label: (i: number) => string; caption: string }) {
  const max = Math.max(1, ...values);
  return (
    <figure>
      <figcaption className="sr-only">{caption}</figcaption>
      <ul className="flex h-36 items-end gap-1">
        {values.map((value, i) => (
          <li key={label(i)} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1" title={`${label(i)}: ${formatNumber(value)}`}>
            <span className="text-[10px] tabular-nums text-surface-600 dark:text-surface-400">{value > 0 ? formatNumber(value) : ''}</span>
            <span className="w-full rounded-t bg-primary-500 dark:bg-primary-400" style={{ height: `${(value / max) * 100}%`, minHeight: value > 0 ? 2 : 0 }} />
            <span className="text-[10px] text-surface-500 dark:text-surface-400">{label(i)}</span>
            <span className="sr-only">{`${label(i)}: ${value}`}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function RangePicker({ current, limits, onChange }: { current: ReturnType<typeof rangeOf>; limits: StatisticsAnswer['limits'] | undefined; onChange: (next: ReturnType<typeof rangeOf>) => void }) {
  const t = useT();
  const id = useId();
  const [from, setFrom] = useState(current.from ?? '');
  const [to, setTo] = useState(current.to ?? '');
  const allowed = (range: StatisticsRange) => !limits || (range === 'custom' ? limits.export : Number.parseInt(range, 10) <= limits.days);
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <fieldset className="inline-flex rounded-lg border border-surface-300 p-0.5 dark:border-surface-700">
        <legend className="sr-only">{t('statistics.range')}</legend>
        {(['7d', '30d', '90d', 'custom'] as const).map((range) => (
          <button
            key={range}
            type="button"
            aria-pressed={current.range === range}
            disabled={!allowed(range)}
            title={allowed(range) ? undefined : t('statistics.premiumRange')}
            onClick={() => (range === 'custom' ? onChange({ range, from: from || undefined, to: to || undefined }) : onChange({ range }))}
            className={cx(
              'rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-primary-600 disabled:cursor-not-allowed disabled:opacity-50',
              current.range === range ? 'bg-primary-600 text-white' : 'text-surface-700 hover:bg-surface-100 dark:text-surface-300 dark:hover:bg-surface-800',
            )}
          >
            {t(`statistics.range.${range}`)}
          </button>
        ))}
      </fieldset>
      {current.range === 'custom' || (limits?.export && from) ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (from && to && from <= to) onChange({ range: 'custom', from, to });
          }}
        >
          <label className="text-sm" htmlFor={`${id}-from`}>
            <span className="block font-medium text-surface-800 dark:text-surface-200">{t('statistics.from')}</span>
            <input id={`${id}-from`} type="date" className={cx(inputClasses, 'mt-1 dark:[color-scheme:dark]')} value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label className="text-sm" htmlFor={`${id}-to`}>
            <span className="block font-medium text-surface-800 dark:text-surface-200">{t('statistics.to')}</span>
            <input id={`${id}-to`} type="date" className={cx(inputClasses, 'mt-1 dark:[color-scheme:dark]')} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
          </label>
          <Button type="submit" variant="secondary" disabled={!from || !to || from > to}>
            {t('statistics.apply')}
          </Button>
        </form>
      ) : null}
      {limits && !limits.export ? (
        <p className="text-sm text-surface-600 dark:text-surface-400">
          {t('statistics.freeNote', { days: limits.days })}{' '}
          <Link to={href('/premium')} className="font-medium text-primary-700 underline dark:text-primary-300">
            {t('statistics.premiumLink')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/**
 * Statistics (/dashboard/:server/statistics): the server's tickets over 7, 30 or 90 days or a custom
 * range (the plan decides which), in the server's time zone (its panels' support hours; UTC when none
 * has any) or, chosen here, the viewer's, against the range before: volume and
 * backlog per day (a chart), first-response and resolution times, ratings, busiest hours, and tables
 * per panel and per staff member with CSV export. Everything is computed by the API in SQL.
 */
export default function ServerStatistics() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const current = useMemo(() => rangeOf(params), [params]);
  // The days are the server's (its panels' support hours) unless the viewer picks their own zone.
  const viewerTz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const mine = params.get('zone') === 'mine';
  const label = labelOf(params);
  const args = { server, ...current, ...(mine ? { tz: viewerTz } : {}), ...(label ? { label } : {}) };
  const stats = useServerStatisticsQuery(args, { skip: server === '' });
  const config = useConfigNamesQuery(server, { skip: server === '' }).data?.config as { panels?: Array<{ id: string; name: string }>; labels?: Array<{ id: string; name: string }>; tags?: Array<{ id: string; name: string }> } | undefined;
  const panelName = (id: string) => config?.panels?.find((p) => p.id === id)?.name ?? (id || t('statistics.noPanel'));
  const dark = useDark();
  const data = stats.currentData;
  const setRange = (next: ReturnType<typeof rangeOf>, zone: 'mine' | undefined = mine ? 'mine' : undefined, nextLabel: string | undefined = label) =>
    navigate(href('/dashboard/:server/statistics', { server }, { ...next, zone, label: nextLabel }));
  const labels = config?.labels ?? [];

  const panelColumns: Array<TableColumn<StatisticsAnswer['panels'][number]>> = [
    { key: 'panel', header: t('statistics.col.panel'), label: t('statistics.col.panel'), rowHeader: true, sortValue: (r) => panelName(r.panelId), cell: (r) => panelName(r.panelId) },
    { key: 'opened', header: t('statistics.col.opened'), label: t('statistics.col.opened'), align: 'end', sortValue: (r) => r.opened, cell: (r) => formatNumber(r.opened) },
    { key: 'closed', header: t('statistics.col.closed'), label: t('statistics.col.closed'), align: 'end', sortValue: (r) => r.closed, cell: (r) => formatNumber(r.closed) },
    { key: 'fr', header: t('statistics.col.firstResponse'), label: t('statistics.col.firstResponse'), align: 'end', sortValue: (r) => r.firstResponseMedian ?? 0, cell: (r) => formatDuration(t, r.firstResponseMedian) },
    { key: 'res', header: t('statistics.col.resolution'), label: t('statistics.col.resolution'), align: 'end', sortValue: (r) => r.resolutionMedian ?? 0, cell: (r) => formatDuration(t, r.resolutionMedian) },
    { key: 'rating', header: t('statistics.col.rating'), label: t('statistics.col.rating'), align: 'end', sortValue: (r) => r.ratingAverage ?? 0, cell: (r) => (r.ratingAverage === null ? '—' : r.ratingAverage.toFixed(1)) },
  ];
  const staffName = (r: StatisticsAnswer['staff'][number]) => r.name ?? t('statistics.member', { id: r.userId });
  const staffColumns: Array<TableColumn<StatisticsAnswer['staff'][number]>> = [
    { key: 'member', header: t('statistics.col.member'), label: t('statistics.col.member'), rowHeader: true, sortValue: staffName, cell: (r) => <span title={r.userId}>{staffName(r)}</span> },
    { key: 'handled', header: t('statistics.col.handled'), label: t('statistics.col.handled'), align: 'end', sortValue: (r) => r.handled, cell: (r) => formatNumber(r.handled) },
    { key: 'fr', header: t('statistics.col.firstResponse'), label: t('statistics.col.firstResponse'), align: 'end', sortValue: (r) => r.firstResponseMedian ?? 0, cell: (r) => formatDuration(t, r.firstResponseMedian) },
    { key: 'res', header: t('statistics.col.resolution'), label: t('statistics.col.resolution'), align: 'end', sortValue: (r) => r.resolutionMedian ?? 0, cell: (r) => formatDuration(t, r.resolutionMedian) },
    { key: 'rating', header: t('statistics.col.rating'), label: t('statistics.col.rating'), align: 'end', sortValue: (r) => r.ratingAverage ?? 0, cell: (r) => (r.ratingAverage === null ? '—' : r.ratingAverage.toFixed(1)) },
  ];
  const tagName = (r: StatisticsAnswer['tags'][number]) => config?.tags?.find((tag) => tag.id === r.tagId)?.name ?? t('statistics.deletedTag', { id: r.tagId });
  const tagColumns: Array<TableColumn<StatisticsAnswer['tags'][number]>> = [
    { key: 'tag', header: t('statistics.col.tag'), label: t('statistics.col.tag'), rowHeader: true, sortValue: tagName, cell: (r) => <span className="font-mono">{tagName(r)}</span> },
    { key: 'uses', header: t('statistics.col.uses'), label: t('statistics.col.uses'), align: 'end', sortValue: (r) => r.uses, cell: (r) => formatNumber(r.uses) },
  ];
  const exportTable = (name: string, head: string[], rows: Array<Array<string | number | null>>) => downloadText(`${name}-${server}-${data?.from}-${data?.to}.csv`, tableCsv(head, rows));

  let content: ReactNode;
  if (!data) {
    content = stats.isError ? <LoadFailed title={t('statistics.loadFailed')} {...failedRead(t, stats.error)} onRetry={() => void stats.refetch()} /> : (
      <div role="status" aria-label={t('statistics.loading')} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {['a', 'b', 'c', 'd', 'e', 'f'].map((k) => (
          <Skeleton key={k} className="h-28" />
        ))}
        <Skeleton className="h-64 sm:col-span-2 lg:col-span-3" />
      </div>
    );
  } else if (data.totals.opened === 0 && data.totals.closed === 0 && data.totals.backlog === 0) {
    content = <EmptyState icon={<Inbox aria-hidden="true" className="size-6" />} title={t('statistics.empty.title')} description={t('statistics.empty.body')} />;
  } else {
    const { totals, previous } = data;
    const days = data.daily.length;
    content = (
      <div className={cx('space-y-6', stats.isFetching && 'opacity-70')} aria-busy={stats.isFetching || undefined}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('statistics.period', { from: data.from, to: data.to, previousFrom: data.previousFrom, previousTo: data.previousTo, tz: data.tz })}</p>
          <label className="flex items-center gap-2 text-sm text-surface-700 dark:text-surface-300">
            {t('statistics.zone')}
            <select className={cx(inputClasses, 'w-auto py-1')} value={mine ? 'mine' : 'server'} onChange={(e) => setRange(current, e.target.value === 'mine' ? 'mine' : undefined)}>
              <option value="server">{data.serverTz ? t('statistics.zone.server', { tz: data.serverTz }) : t('statistics.zone.utc')}</option>
              <option value="mine">{t('statistics.zone.mine', { tz: viewerTz })}</option>
            </select>
          </label>
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Stat label={t('statistics.opened')} value={formatNumber(totals.opened)} delta={<Delta now={totals.opened} before={previous.opened} />} />
          <Stat label={t('statistics.closed')} value={formatNumber(totals.closed)} delta={<Delta now={totals.closed} before={previous.closed} />} />
          <Stat label={t('statistics.backlog')} value={formatNumber(totals.backlog)} delta={<Delta now={totals.backlog} before={previous.backlog} lowerIsBetter />} />
          <Stat
            label={t('statistics.firstResponse')}
            value={formatDuration(t, totals.firstResponseMedian)}
            detail={t('statistics.p90', { value: formatDuration(t, totals.firstResponseP90) })}
            delta={<Delta now={totals.firstResponseMedian} before={previous.firstResponseMedian} lowerIsBetter />}
          />
          <Stat
            label={t('statistics.resolution')}
            value={formatDuration(t, totals.resolutionMedian)}
            detail={t('statistics.p90', { value: formatDuration(t, totals.resolutionP90) })}
            delta={<Delta now={totals.resolutionMedian} before={previous.resolutionMedian} lowerIsBetter />}
          />
          <Stat
            label={t('statistics.rating')}
            value={totals.ratingAverage === null ? '—' : totals.ratingAverage.toFixed(1)}
            detail={t('statistics.rated', { count: totals.rated })}
            delta={<Delta now={totals.ratingAverage} before={previous.ratingAverage} />}
          />
        </div>

        <Card className="p-4">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold text-surface-900 dark:text-surface-50">{t('statistics.daily.title', { days })}</h2>
            <ul className="flex flex-wrap gap-3 text-xs text-surface-700 dark:text-surface-300">
              {(['opened', 'closed', 'backlog'] as const).map((measure) => (
                <li key={measure} className="flex items-center gap-1.5">
                  <span aria-hidden="true" className="inline-block h-0.5 w-4" style={{ background: SERIES_COLOURS[measure] }} />
                  {t(`statistics.${measure}`)}
                </li>
              ))}
            </ul>
          </div>
          <Suspense fallback={<Skeleton className="h-64" />}>
            <DailyChart daily={data.daily} dark={dark} labels={{ opened: t('statistics.opened'), closed: t('statistics.closed'), backlog: t('statistics.backlog') }} />
          </Suspense>
          <p className="sr-only">{t('statistics.daily.summary', { opened: totals.opened, closed: totals.closed, backlog: totals.backlog })}</p>
        </Card>

        <div className="grid gap-4 lg:grid-cols-2">
          <Card className="p-4">
            <h2 className="mb-3 font-semibold text-surface-900 dark:text-surface-50">{t('statistics.ratings.title')}</h2>
            <Bars values={data.ratings} label={(i) => t('statistics.stars', { n: i + 1 })} caption={t('statistics.ratings.title')} />
          </Card>
          <Card className="p-4">
            <h2 className="mb-3 font-semibold text-surface-900 dark:text-surface-50">{t('statistics.hours.title', { tz: data.tz })}</h2>
            <Bars values={data.hours} label={(h) => String(h).padStart(2, '0')} caption={t('statistics.hours.title', { tz: data.tz })} />
          </Card>
        </div>

        <FeedbackComments key={params.toString()} args={args} panelName={panelName} />

        {([
          ['panels', t('statistics.panels.title'), <Table key="p" caption={t('statistics.panels.title')} columns={panelColumns} rows={data.panels} rowKey={(r) => r.panelId} empty={<p className="text-sm text-surface-500">{t('statistics.none')}</p>} />,
            () => exportTable('statistics-panels', panelColumns.map((c) => c.label), data.panels.map((r) => [panelName(r.panelId), r.opened, r.closed, r.firstResponseMedian, r.resolutionMedian, r.ratingAverage]))],
          ['staff', t('statistics.staff.title'), <Table key="s" caption={t('statistics.staff.title')} columns={staffColumns} rows={data.staff} rowKey={(r) => r.userId} empty={<p className="text-sm text-surface-500">{t('statistics.none')}</p>} />,
            () => exportTable('statistics-staff', [...staffColumns.map((c) => c.label), 'ID'], data.staff.map((r) => [staffName(r), r.handled, r.firstResponseMedian, r.resolutionMedian, r.ratingAverage, r.userId]))],
          ['tags', t('statistics.tags.title'), <Table key="g" caption={t('statistics.tags.title')} columns={tagColumns} rows={data.tags} rowKey={(r) => r.tagId} empty={<p className="text-sm text-surface-500">{t('statistics.tags.none')}</p>} />,
            () => exportTable('statistics-tags', [...tagColumns.map((c) => c.label), 'ID'], data.tags.map((r) => [tagName(r), r.uses, r.tagId]))],
        ] as const).map(([key, title, table, csv]) => (
          <section key={key} aria-label={title}>
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h2 className="font-semibold text-surface-900 dark:text-surface-50">{title}</h2>
              {data.limits.export ? (
                <Button variant="secondary" size="sm" onClick={csv}>
                  <Download aria-hidden="true" className="size-4" />
                  {t('statistics.csv')}
                </Button>
              ) : null}
            </div>
            {table}
          </section>
        ))}
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <ChartColumn aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('sidebar.serverStatistics')}</span>
          </span>
        }
        description={t('server.statistics.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' })}
      />
      <RangePicker key={params.toString()} current={current} limits={data?.limits} onChange={(next) => setRange(next)} />
      {labels.length > 0 || label ? (
        <label className="mb-4 flex items-center gap-2 text-sm text-surface-700 dark:text-surface-300">
          {t('statistics.label')}
          <select className={cx(inputClasses, 'w-auto py-1')} value={label ?? ''} onChange={(e) => setRange(current, mine ? 'mine' : undefined, e.target.value || undefined)}>
            <option value="">{t('statistics.anyLabel')}</option>
            {labels.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
            {label && !labels.some((item) => item.id === label) ? <option value={label}>{label}</option> : null}
          </select>
        </label>
      ) : null}
      {content}
      {data ? (
        <p className="mt-6">
          <Link to={href('/dashboard/:server/logs-web/transcripts', { server })} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
            {t('statistics.transcriptsLink')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

import type { ConfigActor, WebLogEntry } from '@tickety/api-contract';
import { ApiRequestError, errorText, formatDateTime, formatRelative, Link, useNavigate, useNow, useParams, useSearchParams } from '@tickety/shared';
import { Alert, Avatar, Badge, Button, buttonClasses, cx, EmptyState, inputClasses, LoadFailed, PageHeader, type Tone } from '@tickety/ui';
import ChevronDown from 'lucide-react/icons/chevron-down';
import Download from 'lucide-react/icons/download';
import FileText from 'lucide-react/icons/file-text';
import FilterX from 'lucide-react/icons/filter-x';
import ScrollText from 'lucide-react/icons/scroll-text';
import SearchX from 'lucide-react/icons/search-x';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ConfigChanges } from '../../components/config-changes';
import { ListSkeleton } from '../../components/list-skeleton';
import { downloadText } from '../../lib/csv';
import { failedRead, failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { useServerName } from '../../lib/server-access';
import { useConfigNamesQuery } from '../configs/api';
import { ACTION_LABEL, csvFileName, fetchAllEntries, filterQuery, filtersOf, hasFilters, isEmptyRange, useWebLogActorsQuery, useWebLogInfiniteQuery, WEB_LOG_ACTIONS, type WebLogAction, type WebLogFilters, webLogCsv } from './api';

const ACTION_TONE: Record<WebLogAction, Tone> = {
  'config.update': 'primary',
  'config.restore': 'warning',
  'config.import': 'info',
  'config.reset': 'danger',
  'panel.send': 'neutral',
  'panel.update': 'neutral',
  'ticket.opened': 'info',
  'ticket.claimed': 'neutral',
  'ticket.closed': 'neutral',
  'ticket.reopened': 'warning',
  'ticket.rated': 'primary',
  'transcript.view': 'neutral',
  'ticket.reply': 'info',
  'ticket.claim': 'neutral',
  'ticket.unclaim': 'neutral',
  'ticket.close': 'neutral',
  'ticket.add_member': 'info',
  'ticket.labels': 'neutral',
  'premium.assigned': 'primary',
  'premium.removed': 'warning',
};

type Names = Record<string, unknown> | null | undefined;

/** The filters: member, action and a range of days, each kept in the address. */
function Filters({
  filters,
  actors,
  onChange,
}: {
  filters: WebLogFilters;
  actors: ConfigActor[];
  onChange: (next: WebLogFilters) => void;
}) {
  const t = useT();
  const id = useId();
  const field = 'block text-sm font-medium text-surface-800 dark:text-surface-200';
  const members = actors.some((a) => a.id === filters.actor) || !filters.actor ? actors : [...actors, { id: filters.actor, name: t('logs.filter.memberId', { id: filters.actor }), avatarUrl: null }];
  return (
    <fieldset className="mb-4 grid min-w-0 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto_auto_auto] lg:items-end">
      <legend className="sr-only">{t('logs.filters')}</legend>
      <div>
        <label htmlFor={`${id}-member`} className={field}>
          {t('logs.filter.member')}
        </label>
        <select id={`${id}-member`} className={cx(inputClasses, 'mt-1')} value={filters.actor ?? ''} onChange={(e) => onChange({ ...filters, actor: e.target.value || undefined })}>
          <option value="">{t('logs.filter.anyMember')}</option>
          {members.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-action`} className={field}>
          {t('logs.filter.action')}
        </label>
        <select
          id={`${id}-action`}
          className={cx(inputClasses, 'mt-1')}
          value={filters.action ?? ''}
          onChange={(e) => onChange({ ...filters, action: (e.target.value || undefined) as WebLogAction | undefined })}
        >
          <option value="">{t('logs.filter.anyAction')}</option>
          {WEB_LOG_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {t(ACTION_LABEL[action])}
            </option>
          ))}
        </select>
      </div>
      {(['from', 'to'] as const).map((end) => (
        <div key={end}>
          <label htmlFor={`${id}-${end}`} className={field}>
            {t(end === 'from' ? 'logs.filter.from' : 'logs.filter.to')}
          </label>
          <input
            id={`${id}-${end}`}
            type="date"
            className={cx(inputClasses, 'mt-1 dark:[color-scheme:dark]')}
            value={filters[end] ?? ''}
            // The range cannot be turned inside out from the pickers.
            min={end === 'to' ? filters.from : undefined}
            max={end === 'from' ? filters.to : undefined}
            onChange={(e) => onChange({ ...filters, [end]: e.target.value || undefined })}
          />
        </div>
      ))}
      <div className="flex items-end">
        {hasFilters(filters) ? (
          <Button variant="ghost" onClick={() => onChange({})}>
            <FilterX aria-hidden="true" className="size-4" />
            {t('logs.filter.clear')}
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** When: how long ago, with the date and time in the viewer's time zone and locale below it (and on hover). */
function When({ at, now }: { at: string; now: number }) {
  const absolute = formatDateTime(at, { seconds: true });
  return (
    <time dateTime={at} title={absolute} className="flex flex-col">
      <span className="text-surface-900 dark:text-surface-100">{formatRelative(at, now, { precision: 'minutes' })}</span>
      <span className="text-xs text-surface-500 dark:text-surface-400">{absolute}</span>
    </time>
  );
}

function Entry({ entry, server, now, names, focusRef }: { entry: WebLogEntry; server: string; now: number; names: Names; focusRef?: (el: HTMLLIElement | null) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  const count = entry.changes.length;
  // Ticket events and transcript reads change no configuration: no version, no changes to show.
  const configEntry = !entry.action.startsWith('ticket.') && !entry.action.startsWith('transcript.');
  return (
    <li ref={focusRef} tabIndex={focusRef ? -1 : undefined} className="px-4 py-3 outline-none focus-visible:ring-2 focus-visible:ring-primary-500">
      <div className="flex flex-col gap-2 sm:grid sm:grid-cols-[minmax(0,11rem)_minmax(0,11rem)_minmax(0,1fr)_auto] sm:items-start sm:gap-4">
        <div className="flex min-w-0 items-center gap-2">
          <Avatar src={entry.actor.avatarUrl} name={entry.actor.name} size="sm" />
          <span className="min-w-0 break-words font-medium text-surface-900 [overflow-wrap:anywhere] dark:text-surface-50" title={`${entry.actor.name} · ${entry.actor.id}`}>
            {entry.actor.name}
          </span>
        </div>
        <div className="text-sm">
          <When at={entry.at} now={now} />
        </div>
        <div className="min-w-0">
          <Badge tone={ACTION_TONE[entry.action] ?? 'neutral'}>{ACTION_LABEL[entry.action] ? t(ACTION_LABEL[entry.action]) : entry.action}</Badge>
          <h2 id={`${id}-target`} className="mt-1 break-words text-sm font-medium text-surface-900 [overflow-wrap:anywhere] dark:text-surface-50">
            {entry.target}
          </h2>
        </div>
        <div className="flex flex-wrap items-center gap-2 sm:justify-end">
          {!configEntry ? null : entry.version !== null ? (
            <Link
              to={href('/dashboard/:server/server-configs', { server }, { version: entry.version })}
              title={t('logs.versionLink', { version: entry.version })}
              className="rounded font-mono text-sm font-semibold text-primary-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-primary-300"
            >
              {/* The visible "v7" starts the accessible name (label in name: voice control says what it sees); the rest is for screen readers. */}
              {t('logs.version', { version: entry.version })}
              <span className="sr-only"> ({t('logs.versionLink', { version: entry.version })})</span>
            </Link>
          ) : (
            <span className="text-xs text-surface-500 dark:text-surface-400">{t('logs.noVersion')}</span>
          )}
          {!configEntry ? null : count > 0 ? (
            <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={`${id}-changes`} aria-describedby={`${id}-target`} onClick={() => setOpen((v) => !v)}>
              {open ? t('logs.hideChanges') : t('logs.showChanges', { count })}
              <ChevronDown aria-hidden="true" className={cx('size-3.5 transition-transform', open && 'rotate-180')} />
            </Button>
          ) : (
            <span className="text-xs italic text-surface-500 dark:text-surface-400">{t('logs.showChanges', { count: 0 })}</span>
          )}
        </div>
      </div>
      {count > 0 ? (
        <section
          id={`${id}-changes`}
          hidden={!open}
          aria-label={t('logs.changesOf', { target: entry.target, name: entry.actor.name, time: formatDateTime(entry.at) })}
          className="mt-3 rounded-lg border border-surface-200 bg-surface-50 p-3 dark:border-surface-800 dark:bg-surface-950"
        >
          {open ? <ConfigChanges changes={entry.changes} config={names} /> : null}
        </section>
      ) : null}
    </li>
  );
}

type ExportState =
  | { state: 'idle' }
  | { state: 'running'; count: number }
  | { state: 'done'; count: number; file: string }
  | { state: 'cancelled' }
  | { state: 'nothing' }
  | { state: 'failed'; message: string };

/** The CSV export: pages through everything matching the filters, with progress and a cancel, then downloads the file. */
function useExport(server: string, filters: WebLogFilters, names: Names) {
  const t = useT();
  const [status, setStatus] = useState<ExportState>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  // New filters: an earlier export's outcome no longer describes them.
  const key = JSON.stringify(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filters change
  useEffect(() => {
    controller.current?.abort();
    controller.current = null;
    setStatus({ state: 'idle' });
  }, [key]);

  const start = useCallback(async () => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setStatus({ state: 'running', count: 0 });
    try {
      const entries = await fetchAllEntries(server, filters, { signal: own.signal, onProgress: (count) => !own.signal.aborted && setStatus({ state: 'running', count }) });
      if (own.signal.aborted) return;
      if (entries.length === 0) {
        setStatus({ state: 'nothing' });
        return;
      }
      const file = csvFileName(server);
      downloadText(file, webLogCsv(t, entries, names));
      setStatus({ state: 'done', count: entries.length, file });
    } catch (error) {
      if (controller.current !== own) return;
      if (error instanceof ApiRequestError && error.kind === 'cancelled') setStatus({ state: 'cancelled' });
      else {
        // The catalogue's text for the API's code, and the API's own sentence when it says more.
        const text = errorText(error);
        const detail = error instanceof ApiRequestError && error.body && error.body.message !== text ? ` ${error.body.message}` : '';
        setStatus({ state: 'failed', message: `${text}${detail}` });
      }
    } finally {
      if (controller.current === own) controller.current = null;
    }
  }, [server, filters, names, t]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setStatus({ state: 'cancelled' });
  }, []);

  return { status, start, cancel };
}

function ExportStatus({ status, onCancel }: { status: ExportState; onCancel: () => void }) {
  const t = useT();
  // One live region, present from the start, so each change is announced.
  let body: ReactNode = null;
  if (status.state === 'running') {
    body = (
      <Alert tone="info" className="mb-4" actions={<Button size="sm" variant="secondary" onClick={onCancel}>{t('logs.export.cancel')}</Button>}>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 animate-spin rounded-full border-2 border-current border-t-transparent" />
          {t('logs.export.progress', { count: status.count })}
        </span>
      </Alert>
    );
  } else if (status.state === 'done') body = <Alert tone="primary" className="mb-4">{t('logs.export.done', { count: status.count, file: status.file })}</Alert>;
  else if (status.state === 'cancelled') body = <Alert tone="neutral" className="mb-4">{t('logs.export.cancelled')}</Alert>;
  else if (status.state === 'nothing') body = <Alert tone="neutral" className="mb-4">{t('logs.export.nothing')}</Alert>;
  else if (status.state === 'failed') body = <Alert tone="danger" className="mb-4">{t('logs.export.failed', { message: status.message })}</Alert>;
  return <div aria-live="polite">{body}</div>;
}

/**
 * The member filter's choices: everyone in the server's Web Logs (`GET logs/actors`), and members seen
 * in the entries so far while that list is loading or could not be read.
 */
function useActors(server: string, entries: readonly WebLogEntry[]): ConfigActor[] {
  const listed = useWebLogActorsQuery(server, { skip: server === '', refetchOnMountOrArgChange: true }).data?.actors;
  const seen = useSeenActors(entries);
  return listed ?? seen;
}

/** Members seen in the entries so far. */
function useSeenActors(entries: readonly WebLogEntry[]): ConfigActor[] {
  const [seen, setSeen] = useState<ReadonlyMap<string, ConfigActor>>(() => new Map());
  useEffect(() => {
    setSeen((previous) => {
      const fresh = entries.filter((e) => !previous.has(e.actor.id));
      if (fresh.length === 0) return previous;
      const next = new Map(previous);
      for (const entry of fresh) if (!next.has(entry.actor.id)) next.set(entry.actor.id, entry.actor);
      return next;
    });
  }, [entries]);
  return useMemo(() => [...seen.values()].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })), [seen]);
}

/**
 * Web Logs (/dashboard/:server/logs-web): every change made on this server's dashboard, newest
 * first: who, when (in the viewer's time zone), the action, what it was about, the version it made
 * (a link to Restore Configs) and, on demand, the field-level changes before and after. Filters by
 * member, action and days live in the address (a filtered view can be shared and survives a reload);
 * "Load more" follows the API's cursor; the CSV export takes everything matching the filters.
 */
export default function ServerLogsWeb() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filters = useMemo(() => filtersOf(params), [params]);
  const emptyRange = isEmptyRange(filters);
  const log = useWebLogInfiniteQuery({ server, filters }, { skip: server === '' || emptyRange, refetchOnMountOrArgChange: true });
  const names = useConfigNamesQuery(server, { skip: server === '' }).data?.config ?? null;
  const now = useNow(30_000);
  const exporter = useExport(server, filters, names);

  const pages = log.currentData?.pages;
  const entries = useMemo(() => {
    const seen = new Set<string>();
    return (pages ?? [])
      .flatMap((page) => page.entries)
      .filter((entry) => {
        if (seen.has(entry.id)) return false;
        seen.add(entry.id);
        return true;
      });
  }, [pages]);
  const actors = useActors(server, entries);

  // After "Load more", focus moves to the first new entry (keyboard and screen-reader users continue there).
  const focusFrom = useRef<number | null>(null);
  const setFilters = useCallback(
    (next: WebLogFilters) => {
      focusFrom.current = null;
      navigate(href('/dashboard/:server/logs-web', { server }, filterQuery(next)));
    },
    [navigate, server],
  );
  const firstNew = useCallback((el: HTMLLIElement | null) => {
    if (el && focusFrom.current !== null) {
      focusFrom.current = null;
      el.focus();
    }
  }, []);
  const loadMore = () => {
    focusFrom.current = entries.length;
    void log.fetchNextPage();
  };

  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const description = t('server.logsWeb.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' });
  const filtered = hasFilters(filters);
  const loaded = pages !== undefined;

  let content: ReactNode;
  if (emptyRange) {
    content = (
      <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title={t('logs.noMatch.title')} description={t('logs.filter.badRange')}>
        <Button onClick={() => setFilters({})}>{t('logs.filter.clear')}</Button>
      </EmptyState>
    );
  } else if (!loaded) {
    content = log.isError ? <LoadFailed title={t('logs.loadFailed')} {...failedRead(t, log.error)} onRetry={() => void log.refetch()} /> : (
      <ListSkeleton label={t('logs.loading')} rows={4} lead="avatar" />
    );
  } else if (entries.length === 0) {
    content = filtered ? (
      <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title={t('logs.noMatch.title')} description={t('logs.noMatch.body')}>
        <Button onClick={() => setFilters({})}>{t('logs.filter.clear')}</Button>
      </EmptyState>
    ) : (
      <EmptyState icon={<ScrollText aria-hidden="true" className="size-6" />} title={t('logs.empty.title')} description={t('logs.empty.body')}>
        <Link to={href('/dashboard/:server/configs', { server })} className={buttonClasses({ variant: 'secondary' })}>
          {t('logs.empty.link')}
        </Link>
      </EmptyState>
    );
  } else {
    const firstNewIndex = focusFrom.current;
    content = (
      <>
        {log.isError && !log.isFetchNextPageError ? (
          <Alert
            tone="danger"
            className="mb-4"
            title={t('logs.loadFailed')}
            actions={
              <Button variant="secondary" size="sm" onClick={() => void log.refetch()}>
                {t('common.retry')}
              </Button>
            }
          >
            {failureText(log.error)}
          </Alert>
        ) : null}
        <ol aria-label={t('logs.caption')} aria-busy={log.isFetching || undefined} className="divide-y divide-surface-200 overflow-hidden rounded-xl border border-surface-200 bg-white dark:divide-surface-800 dark:border-surface-800 dark:bg-surface-900">
          {entries.map((entry, index) => (
            <Entry key={entry.id} entry={entry} server={server} now={now} names={names} focusRef={firstNewIndex !== null && index === firstNewIndex ? firstNew : undefined} />
          ))}
        </ol>
        <div className="mt-4 flex flex-col items-center gap-3">
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('logs.shown', { count: entries.length })}</p>
          {log.isFetchNextPageError ? (
            <Alert
              tone="danger"
              title={t('logs.moreFailed')}
              className="w-full"
              actions={
                <Button variant="secondary" size="sm" onClick={loadMore}>
                  {t('common.retry')}
                </Button>
              }
            >
              {failureText(log.error)}
            </Alert>
          ) : log.hasNextPage ? (
            <Button variant="secondary" loading={log.isFetchingNextPage} onClick={loadMore}>
              {t('logs.loadMore')}
            </Button>
          ) : (
            <p className="text-sm text-surface-500 dark:text-surface-400">{t('logs.end')}</p>
          )}
        </div>
      </>
    );
  }

  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <ScrollText aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('sidebar.serverLogsWeb')}</span>
          </span>
        }
        description={description}
        actions={
          <>
          <Link to={href('/dashboard/:server/logs-web/transcripts', { server })} className={buttonClasses({ variant: 'secondary' })}>
            <FileText aria-hidden="true" className="size-4" />
            {t('transcripts.server.link')}
          </Link>
          <Button variant="secondary" onClick={() => void exporter.start()} disabled={exporter.status.state === 'running' || emptyRange || server === ''} title={t('logs.export.hint')}>
            <Download aria-hidden="true" className="size-4" />
            {t('logs.export')}
          </Button>
          </>
        }
      />
      <Filters filters={filters} actors={actors} onChange={setFilters} />
      <p className="mb-4 text-xs text-surface-500 dark:text-surface-400">{t('logs.timeZone', { zone: timeZone })}</p>
      <ExportStatus status={exporter.status} onCancel={exporter.cancel} />
      {content}
    </div>
  );
}

import type { StaffDeadLetter, StaffWebhookQueue } from '@tickety/api-contract';
import { formatDateTime, formatNumber, formatRelative, useAppDispatch, useNow, useSearchParams } from '@tickety/shared';
import { Alert, Badge, Button, Card, cx, EmptyState, inputClasses, Skeleton, Table, type TableColumn, type Tone } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import { type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { useHoldsFlag } from '../../components/notices';
import { Message, useT } from '../../lib/i18n';
import { isWebhookProvider, PROVIDER_NAMES, systemApi, useReplayWebhookMutation, useStaffWebhooksInfiniteQuery, WEBHOOK_PROVIDERS, type WebhooksArgs } from './api';
import { ReplayDialog } from './replay-dialog';
import { LoadError, RefreshHeader, SYSTEM_REFRESH_MS, useRefresh } from './system-refresh';

/** The section reads itself again this often (RTK Query polling), like every System section. */
const WEBHOOKS_POLL_MS = SYSTEM_REFRESH_MS;
/** A queue whose oldest pending event waits longer than this is highlighted. */
const STALE_PENDING_MS = 10 * 60_000;
/** A last error longer than this is cut, its full text behind a disclosure. */
const ERROR_PREVIEW = 80;

type Health = 'dead' | 'stale' | 'ok';

function healthOf(queue: StaffWebhookQueue, now: number): Health {
  if (queue.dead > 0) return 'dead';
  if (queue.oldestPendingAt !== null && now - Date.parse(queue.oldestPendingAt) > STALE_PENDING_MS) return 'stale';
  return 'ok';
}

const HEALTH_TONE: Record<Health, Tone> = { dead: 'danger', stale: 'warning', ok: 'neutral' };
const HEALTH_CARD: Record<Health, string> = {
  dead: 'border-red-300 ring-1 ring-red-300 dark:border-red-800 dark:ring-red-800',
  stale: 'border-amber-300 ring-1 ring-amber-300 dark:border-amber-700 dark:ring-amber-700',
  ok: '',
};

/**
 * The System page's "Payment webhooks": each provider's queue, and the dead letters (events that
 * failed every attempt) with a provider filter, "Load more" and, for DASHBOARD_SUPPORT_SYSTEM_WRITE,
 * Replay after a confirmation. Reads itself again every 15 s and on Refresh.
 */
export function PaymentWebhooks() {
  const t = useT();
  const dispatch = useAppDispatch();
  const canReplay = useHoldsFlag('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  const [params, setParams] = useSearchParams();
  const filterParam = params.get('provider');
  const provider = isWebhookProvider(filterParam) ? filterParam : undefined;
  const args = useMemo<WebhooksArgs>(() => (provider ? { provider } : {}), [provider]);
  const list = useStaffWebhooksInfiniteQuery(args, { pollingInterval: WEBHOOKS_POLL_MS, refetchOnMountOrArgChange: true });
  const now = useNow(WEBHOOKS_POLL_MS);
  const ids = useId();
  const deadHeading = useRef<HTMLHeadingElement>(null);
  // The last replay, confirmed in place until the next replay or Refresh.
  const [replayed, setReplayed] = useState<StaffDeadLetter | null>(null);

  // The queues are every provider's whatever the filter: the last answer (of any filter) stands while a new filter loads.
  const pages = list.data?.pages;
  const queues = pages?.[pages.length - 1]?.queues;
  // The dead letters are the filter's own: none shown while another filter's are loading.
  const current = list.currentData?.pages;
  const rows = useMemo(() => (current ?? []).flatMap((page) => page.dead), [current]);

  const { refetch } = list;
  const { note, refresh: readAgain, clear: clearNote } = useRefresh(refetch);
  const refresh = () => {
    setReplayed(null);
    return readAgain();
  };

  // Replay: the letter asked about, the element focus returns to, the request.
  const [confirming, setConfirming] = useState<StaffDeadLetter | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [replay, replayState] = useReplayWebhookMutation();
  const [replayError, setReplayError] = useState<unknown>(undefined);

  const ask = (letter: StaffDeadLetter) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setReplayError(undefined);
    replayState.reset();
    setConfirming(letter);
  };
  /** Focus back to the Replay button that opened the dialog, or (its row gone) to the dead letters' heading. */
  const returnFocus = () => {
    const target = opener.current;
    opener.current = null;
    // After the dialog has left the page (the native dialog's own focus return comes first).
    setTimeout(() => {
      if (target?.isConnected) target.focus();
      else deadHeading.current?.focus();
    }, 0);
  };
  const cancel = () => {
    setConfirming(null);
    returnFocus();
  };
  const confirm = async () => {
    if (!confirming) return;
    const letter = confirming;
    setReplayError(undefined);
    try {
      await replay({ id: letter.id }).unwrap();
    } catch (error) {
      // Not dead any more (replayed by someone else, or applied): the mutation's tags read the list again.
      setReplayError(error);
      return;
    }
    // The row goes at once; the mutation's tags read the figures (and the pages) again.
    dispatch(
      systemApi.util.updateQueryData('staffWebhooks', args, (draft) => {
        for (const page of draft.pages) page.dead = page.dead.filter((d) => d.id !== letter.id);
      }),
    );
    setConfirming(null);
    clearNote();
    setReplayed(letter);
    opener.current = null;
    returnFocus();
  };

  const chooseProvider = (value: string) => {
    const next = new URLSearchParams(params);
    if (isWebhookProvider(value)) next.set('provider', value);
    else next.delete('provider');
    setParams(next, { replace: true });
  };

  const loadMore = async () => {
    await list.fetchNextPage();
    // The button is gone with the last page: focus stays in the section.
    if (!document.activeElement || document.activeElement === document.body) deadHeading.current?.focus();
  };

  const fetching = list.isFetching && !list.isFetchingNextPage;

  let body: ReactNode;
  if (!list.data) {
    body = list.isError ? (
      <LoadError title={t('webhooks.loadFailed')} error={list.error} onRetry={() => void refresh()} />
    ) : (
      <WebhooksSkeleton label={t('webhooks.loading')} />
    );
  } else {
    body = (
      <>
        {list.isError ? <LoadError title={t('webhooks.refreshFailed')} error={list.error} onRetry={() => void refresh()} tone="warning" /> : null}
        {queues ? <QueueCards queues={queues} now={now} /> : null}
        <div className="space-y-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <div className="min-w-0">
              <h3 ref={deadHeading} tabIndex={-1} className="text-base font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
                {t('webhooks.dead.heading')}
              </h3>
              <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('webhooks.dead.description')}</p>
            </div>
            <div className="sm:w-56">
              <label htmlFor={`${ids}-provider`} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
                {t('webhooks.filter.label')}
              </label>
              <select id={`${ids}-provider`} className={cx(inputClasses, 'pr-8')} value={provider ?? ''} onChange={(e) => chooseProvider(e.target.value)}>
                <option value="">{t('webhooks.filter.all')}</option>
                {WEBHOOK_PROVIDERS.map((provider) => (
                  <option key={provider} value={provider}>
                    {PROVIDER_NAMES[provider]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {canReplay ? null : (
            <p className="text-sm text-surface-600 dark:text-surface-400">
              <Message k="webhooks.replay.needsFlag" values={{ label: t('flags.systemWrite.label') }} components={{ code: <code className="font-mono text-xs break-all" /> }} />
            </p>
          )}
          {replayed ? (
            <Alert tone="primary" icon={<CircleCheck className="size-5" aria-hidden="true" />}>
              {t('webhooks.replay.done', { provider: PROVIDER_NAMES[replayed.provider], key: replayed.key })}
            </Alert>
          ) : null}
          {current === undefined ? (
            list.isError ? null : <Skeleton className="h-40" />
          ) : (
            <DeadLetterTable
              rows={rows}
              canReplay={canReplay}
              onReplay={ask}
              empty={
                <EmptyState
                  icon={<CircleCheck className="size-6" aria-hidden="true" />}
                  title={provider ? t('webhooks.dead.emptyProvider', { provider: PROVIDER_NAMES[provider] }) : t('webhooks.dead.empty')}
                />
              }
            />
          )}
          {list.hasNextPage && current !== undefined ? (
            <div className="flex justify-center">
              <Button variant="secondary" aria-disabled={list.isFetchingNextPage || undefined} onClick={() => (list.isFetchingNextPage ? undefined : void loadMore())}>
                {list.isFetchingNextPage ? t('webhooks.dead.loadingMore') : t('webhooks.dead.loadMore')}
              </Button>
            </div>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-5">
      <RefreshHeader
        headingId={`${ids}-heading`}
        title={t('webhooks.heading')}
        description={t('webhooks.description', { seconds: WEBHOOKS_POLL_MS / 1000 })}
        updatedAt={list.fulfilledTimeStamp}
        fetching={fetching}
        onRefresh={() => void refresh()}
        note={note}
        live={{
          refreshing: t('webhooks.live.refreshing'),
          refreshed: (time) => t('webhooks.live.refreshed', { time }),
          failed: t('webhooks.refreshFailed'),
        }}
      />
      {body}
      {confirming ? (
        <ReplayDialog letter={confirming} busy={replayState.isLoading} error={replayError} onConfirm={() => void confirm()} onCancel={cancel} />
      ) : null}
    </section>
  );
}

function WebhooksSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" className="space-y-4">
      <span className="sr-only">{label}</span>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {WEBHOOK_PROVIDERS.map((p) => (
          <Skeleton key={p} className="h-36" />
        ))}
      </div>
      <Skeleton className="h-10 w-56" />
      <Skeleton className="h-40" />
    </div>
  );
}

/** One card per provider: pending, retrying, dead and the oldest pending one's age; highlighted when something is dead or waits too long. */
function QueueCards({ queues, now }: { queues: StaffWebhookQueue[]; now: number }) {
  const t = useT();
  const byProvider = new Map(queues.map((q) => [q.provider, q]));
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label={t('webhooks.queues.label')}>
      {WEBHOOK_PROVIDERS.map((provider) => {
        const queue = byProvider.get(provider) ?? { provider: provider, pending: 0, failing: 0, dead: 0, oldestPendingAt: null };
        const health = healthOf(queue, now);
        const name = PROVIDER_NAMES[provider];
        return (
          <li key={provider}>
            <Card className={cx('h-full p-4', HEALTH_CARD[health])}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="font-semibold text-surface-900 dark:text-surface-50">{name}</h3>
                <Badge tone={HEALTH_TONE[health]}>{t(`webhooks.health.${health}`)}</Badge>
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                <Figure label={t('webhooks.queue.pending')} value={formatNumber(queue.pending)} />
                <Figure label={t('webhooks.queue.retrying')} value={formatNumber(queue.failing)} />
                <Figure label={t('webhooks.queue.dead')} value={formatNumber(queue.dead)} strong={queue.dead > 0} />
                <Figure
                  label={t('webhooks.queue.oldest')}
                  value={
                    queue.oldestPendingAt ? (
                      <time dateTime={queue.oldestPendingAt} title={formatDateTime(queue.oldestPendingAt)}>
                        {formatRelative(queue.oldestPendingAt, now, { precision: 'minutes' })}
                      </time>
                    ) : (
                      t('webhooks.queue.none')
                    )
                  }
                  strong={health === 'stale'}
                />
              </dl>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

function Figure({ label, value, strong = false }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-surface-600 dark:text-surface-400">{label}</dt>
      <dd className={cx('mt-0.5 text-surface-900 tabular-nums dark:text-surface-50', strong ? 'font-bold' : 'font-medium')}>{value}</dd>
    </div>
  );
}

/** The last error: short ones whole, long ones cut with the full text behind a disclosure. */
function LastError({ text }: { text: string | null }) {
  const t = useT();
  if (text === null || text === '') return <span className="text-surface-500 dark:text-surface-400">{t('webhooks.dead.noError')}</span>;
  if (text.length <= ERROR_PREVIEW) return <span className="break-words">{text}</span>;
  return (
    <details className="max-w-md min-w-0">
      <summary className="cursor-pointer break-words rounded focus-visible:outline-2 focus-visible:outline-primary-500">
        {`${text.slice(0, ERROR_PREVIEW).trimEnd()}…`} <span className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">{t('webhooks.dead.fullError')}</span>
      </summary>
      <pre className="mt-2 max-h-60 overflow-auto rounded-md bg-surface-100 p-2 font-mono text-xs whitespace-pre-wrap break-words dark:bg-surface-800">{text}</pre>
    </details>
  );
}

function DeadLetterTable({ rows, canReplay, onReplay, empty }: { rows: StaffDeadLetter[]; canReplay: boolean; onReplay: (letter: StaffDeadLetter) => void; empty: ReactNode }) {
  const t = useT();
  const columns: Array<TableColumn<StaffDeadLetter>> = [
    { key: 'provider', header: t('webhooks.dead.provider'), label: t('webhooks.dead.provider'), cell: (r) => PROVIDER_NAMES[r.provider] },
    { key: 'type', header: t('webhooks.dead.type'), label: t('webhooks.dead.type'), cell: (r) => <code className="font-mono text-xs break-all">{r.type}</code> },
    {
      key: 'key',
      header: t('webhooks.dead.key'),
      label: t('webhooks.dead.key'),
      rowHeader: true,
      cell: (r) => <code className="font-mono text-xs break-all">{r.key}</code>,
    },
    {
      key: 'subject',
      header: t('webhooks.dead.subject'),
      label: t('webhooks.dead.subject'),
      cell: (r) => (r.subject ? <span className="break-all">{r.subject}</span> : <span className="text-surface-500 dark:text-surface-400">{t('webhooks.dead.noSubject')}</span>),
    },
    { key: 'attempts', header: t('webhooks.dead.attempts'), label: t('webhooks.dead.attempts'), align: 'end', cell: (r) => <span className="tabular-nums">{formatNumber(r.attempts)}</span> },
    { key: 'lastError', header: t('webhooks.dead.lastError'), label: t('webhooks.dead.lastError'), cell: (r) => <LastError text={r.lastError} /> },
    {
      key: 'receivedAt',
      header: t('webhooks.dead.received'),
      label: t('webhooks.dead.received'),
      cell: (row) => (
        <time dateTime={row.receivedAt} className="whitespace-nowrap">
          {formatDateTime(row.receivedAt)}
        </time>
      ),
    },
  ];
  if (canReplay) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">{t('webhooks.dead.actions')}</span>,
      label: t('webhooks.dead.actions'),
      align: 'end',
      cell: (row) => (
        <Button variant="secondary" size="sm" aria-label={t('webhooks.replay.button', { provider: PROVIDER_NAMES[row.provider], key: row.key })} onClick={() => onReplay(row)}>
          {t('webhooks.replay.short')}
        </Button>
      ),
    });
  }
  return <Table caption={t('webhooks.dead.caption')} columns={columns} rows={rows} rowKey={(r) => r.id} empty={empty} />;
}

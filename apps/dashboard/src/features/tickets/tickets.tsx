import type { TicketStreamEvent } from '@tickety/api-contract';
import { setSidebarBadge, useAppDispatch, useNavigate, useParams, useSearchParams } from '@tickety/shared';
import { Alert, Button, cx, EmptyState, PageHeader, } from '@tickety/ui';
import MessagesSquare from 'lucide-react/icons/messages-square';
import Tags from 'lucide-react/icons/tags';
import Ticket from 'lucide-react/icons/ticket';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { href } from '../../lib/hrefs';
import { useAreaWrite } from '../../lib/server-access';
import { useDark } from '../../lib/use-dark';
import { refetchQueue, useTicketQueueQuery } from './api';
import { type QueueView, queueQuery, viewOf } from './filters';
import { useT } from './i18n';
import { loadConversation } from './lazy-parts';
import { PaneLoading } from './pane-loading';
import { QueueFilters, QueueList } from './queue';
import { type StreamStatus, useTicketStream } from './stream';
import { useConversation } from './use-conversation';

const LabelsDialog = lazy(() => import('./labels-dialog'));
const TicketPane = lazy(loadConversation);

/** The stream's state in a word, with a dot that is not the only sign. */
function LiveIndicator({ status }: { status: StreamStatus }) {
  const t = useT();
  return (
    <span role="status" className="inline-flex items-center gap-1.5 text-sm text-surface-600 dark:text-surface-300" title={status === 'unsupported' ? t('tickets.status.unsupportedHelp') : undefined}>
      <span aria-hidden="true" className={cx('size-2 rounded-full', status === 'live' ? 'bg-emerald-500' : status === 'unsupported' ? 'bg-surface-400' : 'animate-pulse bg-amber-500')} />
      {t(`tickets.status.${status}`)}
    </span>
  );
}

/**
 * Tickets (/dashboard/:server/tickets and /dashboard/:server/tickets/:ticket): the open tickets, live,
 * filtered as the address says, and the chosen one's conversation beside them (on a phone, one
 * screen at a time). Members whose access only reads the area see everything without the actions.
 */
export default function TicketsPage() {
  const t = useT();
  const { server = '', ticket: chosen } = useParams();
  const ticket = chosen ?? null;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const dark = useDark();
  const { canWrite, reason } = useAreaWrite('tickets');
  const view = useMemo(() => viewOf(params), [params]);
  const queue = useTicketQueueQuery({ server, ...view }, { skip: server === '' });
  const { conversation, detail, apply } = useConversation(server, ticket);
  const [managing, setManaging] = useState(false);

  const publishBadge = useCallback((waiting: number) => setSidebarBadge(server, 'tickets', { count: waiting, label: t('tickets.badge', { count: waiting }) }), [server, t]);
  const counts = queue.currentData?.counts;
  useEffect(() => {
    if (counts) publishBadge(counts.waiting);
  }, [counts, publishBadge]);
  // The badge is only as fresh as this page's data: it goes with the page.
  useEffect(() => () => setSidebarBadge(server, 'tickets', null), [server]);

  const onEvent = useCallback(
    (event: TicketStreamEvent) => {
      if (event.type === 'queue') {
        publishBadge(event.counts.waiting);
        dispatch(refetchQueue(server));
      } else apply(event);
    },
    [apply, dispatch, publishBadge, server],
  );
  // Reads answered before the stream opened are read again (whatever changed in between would be
  // missed); a read still under way when it opens is most likely answered after it.
  const queueRead = queue.fulfilledTimeStamp;
  const detailRead = detail.fulfilledTimeStamp;
  const onOpened = useCallback(
    (at: number) => {
      if (queueRead !== undefined && queueRead < at) dispatch(refetchQueue(server));
      if (ticket && detailRead !== undefined && detailRead < at) void detail.refetch();
    },
    [queueRead, detailRead, detail, dispatch, server, ticket],
  );
  const status = useTicketStream(server, ticket, { onEvent, onOpened });

  const setView = (next: QueueView) => navigate(ticket ? href('/dashboard/:server/tickets/:ticket', { server, ticket }, queueQuery(next)) : href('/dashboard/:server/tickets', { server }, queueQuery(next)));
  const backTo = href('/dashboard/:server/tickets', { server }, queueQuery(view));
  const labels = (queue.currentData ?? queue.data)?.labels ?? [];

  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <Ticket aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('title.serverTickets')}</span>
          </span>
        }
        description={t('tickets.description')}
        actions={
          <>
            <LiveIndicator status={status} />
            {canWrite ? (
              <Button variant="secondary" onClick={() => setManaging(true)}>
                <Tags aria-hidden="true" className="size-4" />
                {t('tickets.manageLabels')}
              </Button>
            ) : null}
          </>
        }
      />
      {reason ? (
        <Alert tone="info" title={t('tickets.readOnly.title')} className="mb-4">
          {reason}
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <section aria-label={t('tickets.queue')} className={cx('min-w-0 space-y-4', ticket && 'hidden lg:block')}>
          <QueueFilters view={view} queue={queue.currentData ?? queue.data} onChange={setView} />
          <QueueList
            server={server}
            view={view}
            queue={queue.currentData ?? queue.data}
            error={queue.isError ? queue.error : null}
            fetching={queue.isFetching}
            current={ticket}
            onRetry={() => void queue.refetch()}
            onClear={() => setView({ filter: 'all' })}
          />
        </section>
        <div className={cx('min-w-0', !ticket && 'hidden lg:block')}>
          {ticket ? (
            <Suspense fallback={<PaneLoading />}>
              <TicketPane key={ticket} server={server} conversation={conversation} detail={detail} apply={apply} labels={labels} canWrite={canWrite} dark={dark} backTo={backTo} />
            </Suspense>
          ) : (
            <EmptyState icon={<MessagesSquare aria-hidden="true" className="size-6" />} title={t('tickets.pick.title')} description={t('tickets.pick.body')} />
          )}
        </div>
      </div>
      {managing ? (
        <Suspense fallback={null}>
          <LabelsDialog
            server={server}
            labels={queue.currentData?.labels ?? []}
            onClose={() => {
              setManaging(false);
              dispatch(refetchQueue(server));
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * Statistics' comments: what openers wrote with their ratings of tickets closed in the range, newest
 * first, a page at a time ("Show more"), each with its stars, the ticket, who handled it and a link
 * to its transcript when one is stored (`GET /api/guilds/:server/statistics/feedback`).
 */
import { FEEDBACK_COMMENTS_PAGE, type FeedbackComment } from '@tickety/api-contract';
import { formatDateTime, formatNumber, Link } from '@tickety/shared';
import { Button, Card, LoadFailed, Skeleton } from '@tickety/ui';
import MessageSquareText from 'lucide-react/icons/message-square-text';
import { useId, useState } from 'react';
import { failedRead } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { type StatisticsArgs, useFeedbackCommentsQuery } from './api';
import { useT } from './i18n';

function Stars({ rating }: { rating: number }) {
  const t = useT();
  return (
    <span title={t('statistics.comments.stars', { rating })} className="shrink-0">
      <span aria-hidden="true" className="tracking-tight text-amber-500">
        {'★'.repeat(rating)}
        <span className="text-surface-300 dark:text-surface-600">{'★'.repeat(5 - rating)}</span>
      </span>
      <span className="sr-only">{t('statistics.comments.stars', { rating })}</span>
    </span>
  );
}

function Comment({ server, comment, panelName }: { server: string; comment: FeedbackComment; panelName(id: string): string }) {
  const t = useT();
  const opener = comment.opener ? (comment.opener.name ?? t('statistics.member', { id: comment.opener.id })) : t('statistics.comments.unknown');
  const handler = comment.handledBy ? (comment.handledBy.name ?? t('statistics.member', { id: comment.handledBy.id })) : null;
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={comment.rating} />
        <span className="text-sm font-medium text-surface-900 dark:text-surface-50">{comment.number === null ? t('statistics.comments.ticketUnknown') : t('statistics.comments.ticket', { number: comment.number })}</span>
        <span className="text-xs text-surface-600 dark:text-surface-400">{panelName(comment.panelId ?? '')}</span>
      </div>
      <p className="mt-1 text-sm break-words whitespace-pre-wrap text-surface-800 dark:text-surface-200">{comment.comment}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-surface-600 dark:text-surface-400">
        <span>{handler ? t('statistics.comments.byHandled', { opener, handler }) : t('statistics.comments.by', { opener })}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={comment.closedAt}>{formatDateTime(comment.closedAt)}</time>
        {comment.transcriptFileId ? (
          <>
            <span aria-hidden="true">·</span>
            <Link
              to={href('/transcript/v2/:server/:fileid', { server, fileid: comment.transcriptFileId })}
              className="font-medium text-primary-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-primary-300"
            >
              {comment.number === null ? t('statistics.comments.transcript') : t('statistics.comments.transcriptOf', { number: comment.number })}
            </Link>
          </>
        ) : null}
      </p>
    </li>
  );
}

/** One page; the last one shown offers the next. */
function CommentsPage({ args, cursor, last, onMore, panelName }: { args: StatisticsArgs; cursor: string | undefined; last: boolean; onMore(cursor: string): void; panelName(id: string): string }) {
  const t = useT();
  const page = useFeedbackCommentsQuery({ ...args, ...(cursor ? { cursor } : {}) });
  const data = page.currentData;
  if (!data) {
    if (page.isError) return <LoadFailed title={t('statistics.comments.loadFailed')} {...failedRead(t, page.error)} onRetry={() => void page.refetch()} className="my-3" />;
    return (
      <li role="status" aria-label={t('statistics.comments.loading')} className="list-none space-y-2 py-3">
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </li>
    );
  }
  if (data.total === 0) return <p className="py-3 text-sm text-surface-600 dark:text-surface-400">{t('statistics.comments.none')}</p>;
  return (
    <>
      {data.items.map((comment) => (
        <Comment key={comment.ticketId} server={args.server} comment={comment} panelName={panelName} />
      ))}
      {last && data.nextCursor ? (
        <li className="list-none pt-3">
          <Button variant="secondary" size="sm" onClick={() => onMore(data.nextCursor!)}>
            {t('statistics.comments.more')}
          </Button>
        </li>
      ) : null}
    </>
  );
}

/** The comments card; keyed by the page's range, label and zone (a change starts again at the newest). */
export function FeedbackComments({ args, panelName }: { args: StatisticsArgs; panelName(id: string): string }) {
  const t = useT();
  const headingId = useId();
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const first = useFeedbackCommentsQuery(args).currentData;
  const total = first?.total;
  return (
    <Card className="p-4">
      <section aria-labelledby={headingId}>
        <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="flex items-center gap-2 font-semibold text-surface-900 dark:text-surface-50">
            <MessageSquareText aria-hidden="true" className="size-5 text-primary-600 dark:text-primary-400" />
            {t('statistics.comments.title')}
          </h2>
          {total !== undefined && total > 0 ? (
            <span className="text-sm text-surface-600 dark:text-surface-400">
              {t('statistics.comments.count', { shown: formatNumber(Math.min(total, cursors.length * FEEDBACK_COMMENTS_PAGE)), total: formatNumber(total) })}
            </span>
          ) : null}
        </div>
        <p className="text-xs text-surface-600 dark:text-surface-400">{t('statistics.comments.about')}</p>
        <ul className="divide-y divide-surface-200 dark:divide-surface-800">
          {cursors.map((cursor, index) => (
            <CommentsPage key={cursor ?? 'first'} args={args} cursor={cursor} last={index === cursors.length - 1} onMore={(next) => setCursors((list) => [...list, next])} panelName={panelName} />
          ))}
        </ul>
      </section>
    </Card>
  );
}

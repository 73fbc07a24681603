import { Link } from '@tickety/shared';
import { Alert, Button, buttonClasses, EmptyState, LoadFailed, PageHeader } from '@tickety/ui';
import Inbox from 'lucide-react/icons/inbox';
import { type ReactNode, useMemo } from 'react';
import { ListSkeleton } from '../../components/list-skeleton';
import { failedRead, failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { useMyTranscriptsInfiniteQuery } from './api';
import { TranscriptTable } from './transcript-table';

/**
 * Your tickets (/transcripts): the transcripts of tickets the signed-in user opened, in every server,
 * newest first, each a link to the viewer; "Load more" follows the API's cursor.
 */
export default function YourTickets() {
  const t = useT();
  const list = useMyTranscriptsInfiniteQuery(undefined, { refetchOnMountOrArgChange: true });
  const rows = useMemo(() => (list.currentData?.pages ?? []).flatMap((p) => p.items), [list.currentData]);
  const loaded = list.currentData !== undefined;

  let content: ReactNode;
  if (!loaded) {
    content = list.isError ? <LoadFailed title={t('transcripts.loadFailed')} {...failedRead(t, list.error)} onRetry={() => void list.refetch()} /> : (
      <ListSkeleton label={t('transcripts.loading')} rows={4} lead="avatar" />
    );
  } else {
    content = (
      <>
        <TranscriptTable
          rows={rows}
          showServer
          caption={t('transcripts.mine.caption')}
          empty={
            <EmptyState icon={<Inbox aria-hidden="true" className="size-6" />} title={t('transcripts.mine.empty.title')} description={t('transcripts.mine.empty.body')}>
              <Link to={href('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
                {t('transcripts.mine.empty.link')}
              </Link>
            </EmptyState>
          }
        />
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? t('transcripts.loadingMore') : t('transcripts.loadMore')}
            </Button>
          </div>
        ) : null}
        {list.isFetchNextPageError ? (
          <Alert tone="danger" className="mt-4" title={t('transcripts.loadFailed')}>
            {failureText(list.error)}
          </Alert>
        ) : null}
      </>
    );
  }

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader title={t('title.yourTickets')} description={t('transcripts.mine.description')} />
      {content}
    </div>
  );
}

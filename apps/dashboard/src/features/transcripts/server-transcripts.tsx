import { isSnowflake, Link, useNavigate, useParams, useSearchParams } from '@tickety/shared';
import { Button, buttonClasses, cx, EmptyState, inputClasses, LoadFailed, PageHeader } from '@tickety/ui';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import FileText from 'lucide-react/icons/file-text';
import FilterX from 'lucide-react/icons/filter-x';
import Search from 'lucide-react/icons/search';
import SearchX from 'lucide-react/icons/search-x';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { ListSkeleton } from '../../components/list-skeleton';
import { failedRead } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { useServerName } from '../../lib/server-access';
import { useConfigNamesQuery } from '../configs/api';
import { type TranscriptFilters, transcriptFilterQuery, transcriptFiltersOf, useServerTranscriptsInfiniteQuery } from './api';
import { TranscriptTable } from './transcript-table';

const field = 'block text-sm font-medium text-surface-800 dark:text-surface-200';

/** The filters form: applied on submit (typing an id or words does not send a request per key). */
function Filters({ filters, panels, onApply }: { filters: TranscriptFilters; panels: Array<{ id: string; name: string }>; onApply: (next: TranscriptFilters) => void }) {
  const t = useT();
  const id = useId();
  const [draft, setDraft] = useState<TranscriptFilters>(filters);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof TranscriptFilters, value: string) => setDraft((d) => ({ ...d, [key]: value.trim() === '' ? undefined : value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    for (const key of ['opener', 'closer'] as const) {
      const value = draft[key]?.trim();
      if (value && !isSnowflake(value)) {
        setError(t('transcripts.filter.badId', { field: t(key === 'opener' ? 'transcripts.filter.opener' : 'transcripts.filter.closer') }));
        return;
      }
    }
    if (draft.from && draft.to && draft.from > draft.to) {
      setError(t('logs.filter.badRange'));
      return;
    }
    setError(null);
    onApply(draft);
  };
  const text = (key: 'opener' | 'closer' | 'q', label: string, placeholder?: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={field}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className={cx(inputClasses, 'mt-1')}
        value={draft[key] ?? ''}
        placeholder={placeholder}
        inputMode={key === 'q' ? undefined : 'numeric'}
        maxLength={key === 'q' ? 100 : 20}
        onChange={(e) => set(key, e.target.value)}
      />
    </div>
  );
  return (
    <form onSubmit={submit} className="mb-4" aria-label={t('transcripts.filters')} noValidate>
      <div className="grid min-w-0 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {text('q', t('transcripts.filter.text'), t('transcripts.filter.textPlaceholder'))}
        {text('opener', t('transcripts.filter.opener'), t('transcripts.filter.idPlaceholder'))}
        {text('closer', t('transcripts.filter.closer'), t('transcripts.filter.idPlaceholder'))}
        <div>
          <label htmlFor={`${id}-panel`} className={field}>
            {t('transcripts.filter.panel')}
          </label>
          <select id={`${id}-panel`} className={cx(inputClasses, 'mt-1')} value={draft.panel ?? ''} onChange={(e) => set('panel', e.target.value)}>
            <option value="">{t('transcripts.filter.anyPanel')}</option>
            {panels.map((panel) => (
              <option key={panel.id} value={panel.id}>
                {panel.name}
              </option>
            ))}
            {draft.panel && !panels.some((p) => p.id === draft.panel) ? <option value={draft.panel}>{draft.panel}</option> : null}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-rating`} className={field}>
            {t('transcripts.filter.rating')}
          </label>
          <select id={`${id}-rating`} className={cx(inputClasses, 'mt-1')} value={draft.rating ?? ''} onChange={(e) => set('rating', e.target.value)}>
            <option value="">{t('transcripts.filter.anyRating')}</option>
            {[5, 4, 3, 2, 1].map((rating) => (
              <option key={rating} value={String(rating)}>
                {t('transcripts.rating', { rating: rating })}
              </option>
            ))}
          </select>
        </div>
        {(['from', 'to'] as const).map((end) => (
          <div key={end}>
            <label htmlFor={`${id}-${end}`} className={field}>
              {t(end === 'from' ? 'transcripts.filter.closedFrom' : 'transcripts.filter.closedTo')}
            </label>
            <input
              id={`${id}-${end}`}
              type="date"
              className={cx(inputClasses, 'mt-1 dark:[color-scheme:dark]')}
              value={draft[end] ?? ''}
              onChange={(e) => set(end, e.target.value)}
            />
          </div>
        ))}
        <div className="flex items-end gap-2">
          <Button type="submit">
            <Search aria-hidden="true" className="size-4" />
            {t('transcripts.filter.apply')}
          </Button>
          {Object.keys(transcriptFilterQuery(filters)).length > 0 ? (
            <Button
              variant="ghost"
              onClick={() => {
                setDraft({});
                onApply({});
              }}
            >
              <FilterX aria-hidden="true" className="size-4" />
              {t('logs.filter.clear')}
            </Button>
          ) : null}
        </div>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A server's transcripts (/dashboard/:server/logs-web/transcripts), for members who read its Web
 * Logs: filters by opener, closer, panel, rating, close date and words in the messages (kept in the
 * address), newest first, "Load more", each a link to the viewer.
 */
export default function ServerTranscripts() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filters = useMemo(() => transcriptFiltersOf(params), [params]);
  const list = useServerTranscriptsInfiniteQuery({ server, filters }, { skip: server === '', refetchOnMountOrArgChange: true });
  const config = useConfigNamesQuery(server, { skip: server === '' }).data?.config as { panels?: Array<{ id: string; name: string }> } | undefined;
  const panels = (config?.panels ?? []).map((p) => ({ id: p.id, name: p.name }));
  const rows = useMemo(() => (list.currentData?.pages ?? []).flatMap((p) => p.items), [list.currentData]);
  const filtered = Object.keys(transcriptFilterQuery(filters)).length > 0;
  const apply = (next: TranscriptFilters) => navigate(href('/dashboard/:server/logs-web/transcripts', { server }, transcriptFilterQuery(next)));

  let content: ReactNode;
  if (list.currentData === undefined) {
    content = list.isError ? <LoadFailed title={t('transcripts.loadFailed')} {...failedRead(t, list.error)} onRetry={() => void list.refetch()} /> : (
      <ListSkeleton label={t('transcripts.loading')} rows={4} lead="avatar" />
    );
  } else {
    content = (
      <>
        <TranscriptTable
          rows={rows}
          showServer={false}
          caption={t('transcripts.server.caption', { server: serverName ?? server })}
          empty={
            filtered ? (
              <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title={t('transcripts.noMatch.title')} description={t('transcripts.noMatch.body')}>
                <Button onClick={() => apply({})}>{t('logs.filter.clear')}</Button>
              </EmptyState>
            ) : (
              <EmptyState icon={<FileText aria-hidden="true" className="size-6" />} title={t('transcripts.server.empty.title')} description={t('transcripts.server.empty.body')} />
            )
          }
        />
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? t('transcripts.loadingMore') : t('transcripts.loadMore')}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div>
      <PageHeader
        title={t('title.serverTranscripts')}
        description={t('transcripts.server.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' })}
        actions={
          <Link to={href('/dashboard/:server/logs-web', { server })} className={buttonClasses({ variant: 'secondary' })}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            {t('transcripts.server.backToLogs')}
          </Link>
        }
      />
      <Filters key={params.toString()} filters={filters} panels={panels} onApply={apply} />
      {content}
    </div>
  );
}

import { searchTags, type Tag } from '@tickety/api-contract';
import { errorText } from '@tickety/shared';
import { cx } from '@tickety/ui';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTicketTagsQuery } from './api';
import { useT } from './i18n';

/** What the reply box's text asks of the tag list: the search after a leading `/` (no line break yet), or null. */
export function tagQuery(text: string): string | null {
  if (!text.startsWith('/') || text.includes('\n')) return null;
  return text.slice(1).trim();
}

/** The server's tags matching `query`, and how their read went. */
export function useTagMatches(server: string, query: string | null) {
  const read = useTicketTagsQuery({ server }, { skip: query === null });
  const matches = read.currentData && query !== null ? searchTags(read.currentData.tags, query) : [];
  return { read, matches };
}

/** An option's element id in the list (the textarea's `aria-activedescendant`). */
export const optionId = (listId: string, tagId: string) => `${listId}-${tagId}`;

/**
 * The reply box's `/` list: the server's tags matching what follows the `/`, as the textarea's
 * listbox (the textarea is the combobox; arrows, Enter and Escape are handled there). Loading, a
 * failed read (with Retry), no tags and no match each say so.
 */
export function TagList({
  id,
  read,
  matches,
  active,
  onChoose,
  onHover,
}: {
  id: string;
  read: ReturnType<typeof useTagMatches>['read'];
  matches: Tag[];
  active: string | null;
  onChoose: (tag: Tag) => void;
  onHover: (tagId: string) => void;
}) {
  const t = useT();
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active) list.current?.querySelector(`[id="${optionId(id, active)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);
  const status = (text: string, extra?: ReactNode) => (
    <div role="status" className="px-3 py-2 text-sm text-surface-600 dark:text-surface-300">
      {text}
      {extra}
    </div>
  );
  let note: ReactNode = null;
  if (read.isError && !read.currentData) {
    note = status(
      t('tickets.tags.failed', { reason: errorText(read.error) }),
      <button type="button" onClick={() => void read.refetch()} className="ml-2 font-medium text-primary-700 underline dark:text-primary-300">
        {t('tickets.tags.retry')}
      </button>,
    );
  } else if (!read.currentData) note = status(t('tickets.tags.loading'));
  else if (read.currentData.tags.length === 0) note = status(t('tickets.tags.none'));
  else if (matches.length === 0) note = status(t('tickets.tags.noMatch'));
  return (
    <div className="absolute inset-x-0 bottom-full z-20 mb-1 max-h-64 overflow-auto rounded-lg border border-surface-200 bg-white shadow-lg dark:border-surface-700 dark:bg-surface-900">
      <div ref={list} id={id} role="listbox" aria-label={t('tickets.tags.label')} hidden={matches.length === 0}>
        {matches.map((tag) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard reaches options through the combobox (arrows and Enter)
          <div
            key={tag.id}
            id={optionId(id, tag.id)}
            role="option"
            tabIndex={-1}
            aria-selected={tag.id === active}
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => onHover(tag.id)}
            onClick={() => onChoose(tag)}
            className={cx('cursor-pointer px-3 py-2 text-sm', tag.id === active ? 'bg-primary-50 dark:bg-primary-950' : '')}
          >
            <span className="font-mono font-medium text-surface-900 dark:text-surface-50">/{tag.name}</span>
            {tag.embed ? <span className="ml-2 rounded bg-surface-100 px-1 text-xs text-surface-600 dark:bg-surface-800 dark:text-surface-300">{t('tickets.tags.embed')}</span> : null}
            <span className="block truncate text-xs text-surface-600 dark:text-surface-400">{tag.content.trim() || tag.embed?.title || tag.embed?.description || ''}</span>
          </div>
        ))}
      </div>
      {note}
    </div>
  );
}

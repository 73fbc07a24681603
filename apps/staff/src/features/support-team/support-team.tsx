import { failureText, useSearchParams } from '@tickety/shared';
import { Card, cx, EmptyState, inputClasses, LoadFailed, PageHeader, Spinner } from '@tickety/ui';
import Search from 'lucide-react/icons/search';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import { SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH, useLazyStaffSearchQuery } from './api';
import { SearchServerCard, SearchUserCard } from './search-card';
import { optionId, type SearchOption, SearchResults } from './search-results';

/** The query as the API takes it (trimmed, at most SEARCH_MAX_LENGTH characters). */
const cleanQuery = (value: string) => value.trim().slice(0, SEARCH_MAX_LENGTH);

/** Whether a key press happened in a field that takes text (where `/` is typed, not a shortcut). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * /support-team: one search box answering as staff type (debounced, a stale request cancelled), users
 * and servers by id or name, grouped, with arrow keys and Enter; `/` focuses the box. The chosen one's
 * card opens beside the results (below on a phone); the URL (`?q=`, `?user=` / `?server=`) keeps both,
 * so a card can be shared and reloaded.
 */
export default function SupportTeamPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const userId = params.get('user');
  const serverId = params.get('server');
  const [text, setText] = useState(() => params.get('q') ?? '');
  const [query, setQuery] = useState(() => cleanQuery(params.get('q') ?? ''));
  const [active, setActive] = useState(-1);
  const [retries, setRetries] = useState(0);
  const [trigger, result] = useLazyStaffSearchQuery();
  const box = useRef<HTMLInputElement>(null);
  const listId = useId();
  const hintId = useId();

  // The search waits for a pause in typing, then asks; a newer query cancels the request in flight.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(cleanQuery(text)), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (query === '') return;
    // A retry asks the API again; otherwise an answer kept from a moment ago is enough.
    const request = trigger(query, retries === 0);
    return () => request.abort();
  }, [query, trigger, retries]);

  // The query stays in the URL (replacing the entry: typing is not history).
  useEffect(() => {
    if ((params.get('q') ?? '') === query) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (query) next.set('q', query);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [query, params, setParams]);

  // `/` anywhere on the page (outside a text field) puts the cursor in the box.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      box.current?.focus();
      box.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const answer = query !== '' && result.originalArgs === query ? result.currentData : undefined;
  const options = useMemo<SearchOption[]>(
    () => (answer ? [...answer.users.map((item) => ({ kind: 'user' as const, item })), ...answer.servers.map((item) => ({ kind: 'server' as const, item }))] : []),
    [answer],
  );
  useEffect(() => setActive(options.length > 0 ? 0 : -1), [options]);
  useEffect(() => {
    const option = options[active];
    if (option) document.getElementById(optionId(listId, option))?.scrollIntoView?.({ block: 'nearest' });
  }, [active, options, listId]);

  const pick = useCallback(
    (option: SearchOption) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.delete(option.kind === 'user' ? 'server' : 'user');
        next.set(option.kind, option.item.id);
        return next;
      });
    },
    [setParams],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 ? 0 : (i + step + options.length) % options.length));
    } else if (event.key === 'Enter') {
      const option = options[active];
      if (!option) return;
      event.preventDefault();
      pick(option);
    } else if (event.key === 'Escape' && text !== '') {
      event.preventDefault();
      setText('');
    }
  };

  const failed = result.isError && result.originalArgs === query && (result.error as { status?: unknown } | undefined)?.status !== 'CANCELLED';
  const waiting = query !== cleanQuery(text) || (query !== '' && !answer && !failed);
  const selected = userId ? `user:${userId}` : serverId ? `server:${serverId}` : null;
  const activeOption = options[active];

  return (
    <div>
      <PageHeader title={t('title.supportTeam')} description={t('supportTeam.description')} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <Card className="p-4 sm:p-5">
          <label htmlFor={`${listId}-box`} className="mb-1 block text-sm font-medium text-surface-900 dark:text-surface-50">
            {t('search.label')}
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-surface-500" aria-hidden="true" />
            <input
              ref={box}
              id={`${listId}-box`}
              type="search"
              role="combobox"
              aria-expanded={options.length > 0}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeOption ? optionId(listId, activeOption) : undefined}
              aria-describedby={hintId}
              autoComplete="off"
              spellCheck={false}
              maxLength={SEARCH_MAX_LENGTH}
              placeholder={t('search.placeholder')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKeyDown}
              className={cx(inputClasses, 'w-full ps-9')}
            />
          </div>
          <p id={hintId} className="mt-1 text-xs text-surface-500 dark:text-surface-400">
            {t('search.hint')}
          </p>
          <div className="mt-4" aria-live="polite" aria-busy={waiting}>
            {query === '' && cleanQuery(text) === '' ? (
              <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.start')}</p>
            ) : failed ? (
              <LoadFailed title={t('search.failed')} reason={failureText(result.error)} retryLabel={t('search.retry')} onRetry={() => setRetries((n) => n + 1)} />
            ) : waiting && !answer ? (
              <p className="flex items-center gap-2 text-sm text-surface-600 dark:text-surface-400">
                <Spinner size="sm" label={null} />
                {t('search.searching')}
              </p>
            ) : answer && options.length === 0 ? (
              <EmptyState icon={<Search className="size-6" aria-hidden="true" />} title={t('search.empty')} description={t('search.emptyHint')} />
            ) : answer ? (
              <>
                <p className="sr-only">{t('search.count', { users: answer.users.length, servers: answer.servers.length })}</p>
                <SearchResults listId={listId} users={answer.users} servers={answer.servers} active={active} selected={selected} onPick={pick} onHover={setActive} />
              </>
            ) : null}
          </div>
        </Card>
        <div className="min-w-0">
          {userId ? (
            <SearchUserCard id={userId} />
          ) : serverId ? (
            <SearchServerCard id={serverId} />
          ) : (
            <Card className="p-5 text-sm text-surface-600 sm:p-6 dark:text-surface-400">{t('search.noCard')}</Card>
          )}
        </div>
      </div>
    </div>
  );
}

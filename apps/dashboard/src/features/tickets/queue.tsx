import { TICKET_QUEUE_FILTERS, type TicketCounts, type TicketPerson, type TicketQueue, type TicketQueueFilter, type TicketSummary } from '@tickety/api-contract';
import { formatRelative, Link, useNow } from '@tickety/shared';
import { Avatar, Badge, Button, cx, EmptyState, inputClasses, LoadFailed } from '@tickety/ui';
import Hourglass from 'lucide-react/icons/hourglass';
import Inbox from 'lucide-react/icons/inbox';
import SearchX from 'lucide-react/icons/search-x';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { ListSkeleton } from '../../components/list-skeleton';
import { failedRead } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { AutoCloseBadge } from './auto-close-badge';
import { type QueueView, queueQuery } from './filters';
import { useT } from './i18n';
import { LabelChips } from './label-chip';
import { loadConversation } from './lazy-parts';

const COUNT_OF: Record<TicketQueueFilter, keyof TicketCounts> = { all: 'open', mine: 'mine', unclaimed: 'unclaimed', waiting: 'waiting' };

/** The search box: what is typed reaches the filters a moment after the typing stops. */
function SearchBox({ value, onChange }: { value: string; onChange: (search: string) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="min-w-0 basis-full">
      <label htmlFor={id} className="sr-only">
        {t('tickets.search')}
      </label>
      <input id={id} type="search" className={inputClasses} placeholder={t('tickets.search.placeholder')} maxLength={100} value={text} onChange={(e) => setText(e.target.value)} />
    </div>
  );
}

/** The filters: chips with their counts, the panel and label selects and the search, all kept in the address. */
export function QueueFilters({ view, queue, onChange }: { view: QueueView; queue: TicketQueue | undefined; onChange: (next: QueueView) => void }) {
  const t = useT();
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="sr-only">{t('tickets.filters')}</legend>
      <div className="flex flex-wrap gap-2">
        {TICKET_QUEUE_FILTERS.map((filter) => {
          const count = queue?.counts[COUNT_OF[filter]];
          const name = t(`tickets.filter.${filter}`);
          return (
            <button
              key={filter}
              type="button"
              aria-pressed={view.filter === filter}
              onClick={() => onChange({ ...view, filter })}
              className={cx(
                'rounded-full border px-3 py-1 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-primary-600',
                view.filter === filter
                  ? 'border-primary-600 bg-primary-600 text-white dark:border-primary-500 dark:bg-primary-600'
                  : 'border-surface-300 bg-white text-surface-700 hover:bg-surface-100 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-200 dark:hover:bg-surface-800',
              )}
            >
              {count === undefined ? name : t('tickets.filter.chip', { name, count })}
            </button>
          );
        })}
      </div>
      <div className="flex flex-wrap gap-2">
        <SearchBox value={view.q ?? ''} onChange={(search) => onChange({ ...view, q: search || undefined })} />
        <label htmlFor={`${id}-panel`} className="sr-only">
          {t('tickets.filter.panel')}
        </label>
        <select id={`${id}-panel`} className={cx(inputClasses, 'w-auto min-w-0 flex-1')} value={view.panel ?? ''} onChange={(e) => onChange({ ...view, panel: e.target.value || undefined })}>
          <option value="">{t('tickets.filter.anyPanel')}</option>
          {(queue?.panels ?? []).map((panel) => (
            <option key={panel.id} value={panel.id}>
              {panel.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-label`} className="sr-only">
          {t('tickets.filter.label')}
        </label>
        <select id={`${id}-label`} className={cx(inputClasses, 'w-auto min-w-0 flex-1')} value={view.label ?? ''} onChange={(e) => onChange({ ...view, label: e.target.value || undefined })}>
          <option value="">{t('tickets.filter.anyLabel')}</option>
          {(queue?.labels ?? []).map((label) => (
            <option key={label.id} value={label.id}>
              {label.name}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}

/** "#12", or "Ticket" for one without a number. */
export function useTicketName(): (ticket: Pick<TicketSummary, 'number'>) => string {
  const t = useT();
  return (ticket) => (ticket.number === null ? t('tickets.noNumber') : t('tickets.number', { number: ticket.number }));
}

/** A person's name as the page shows it: "Unknown member" for someone nothing named (the API's `unknown`). */
export function usePersonName(): (person: TicketPerson) => string {
  const t = useT();
  return useCallback((person: TicketPerson) => (person.unknown ? t('tickets.unknownMember') : person.name), [t]);
}

/** A person's name; an unknown one's id as its tooltip (and, with `showId`, as text beside it). */
export function PersonName({ person, className, showId = false }: { person: TicketPerson; className?: string; showId?: boolean }) {
  const personName = usePersonName();
  return (
    <span className={className} title={person.unknown ? person.id : undefined}>
      {personName(person)}
      {person.unknown && showId ? <span className="ml-1 font-mono text-xs font-normal text-surface-500 dark:text-surface-400">{person.id}</span> : null}
    </span>
  );
}

/** Whether the ticket waits for staff: an icon and words, not a colour alone. */
export function WaitingBadge({ ticket, now }: { ticket: TicketSummary; now: number }) {
  const t = useT();
  if (!ticket.waitingForStaff) return null;
  return (
    <span title={ticket.waitingSince ? t('tickets.waitingSince', { when: formatRelative(ticket.waitingSince, now, { precision: 'minutes' }) }) : undefined}>
      <Badge tone="warning">
        <Hourglass aria-hidden="true" className="mr-1 inline size-3" />
        {t('tickets.waiting')}
      </Badge>
    </span>
  );
}

function Row({ ticket, queue, server, view, current, now }: { ticket: TicketSummary; queue: TicketQueue; server: string; view: QueueView; current: boolean; now: number }) {
  const t = useT();
  const name = useTicketName();
  const personName = usePersonName();
  const last = ticket.lastMessage;
  return (
    <li>
      <Link
        to={href('/dashboard/:server/tickets/:ticket', { server, ticket: ticket.id }, queueQuery(view))}
        aria-current={current ? 'page' : undefined}
        data-ticket-row=""
        onPointerEnter={() => void loadConversation()}
        onFocus={() => void loadConversation()}
        className={cx(
          'block px-4 py-3 outline-none hover:bg-surface-50 focus-visible:ring-2 focus-visible:ring-primary-500 focus-visible:ring-inset dark:hover:bg-surface-800/60',
          current && 'bg-primary-50 dark:bg-primary-950/60',
          ticket.waitingForStaff && 'border-l-4 border-amber-500',
        )}
      >
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="font-semibold text-surface-900 dark:text-surface-50">{name(ticket)}</span>
          <span className="min-w-0 truncate text-sm text-surface-600 dark:text-surface-400">{ticket.panelName ?? t('tickets.noPanel')}</span>
          <time dateTime={ticket.openedAt} className="ml-auto text-xs text-surface-500 dark:text-surface-400">
            {t('tickets.opened', { when: formatRelative(ticket.openedAt, now, { precision: 'minutes' }) })}
          </time>
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <span className="flex min-w-0 items-center gap-2">
            <Avatar src={ticket.opener.avatarUrl} name={personName(ticket.opener)} size="sm" />
            <PersonName person={ticket.opener} className="min-w-0 truncate text-sm font-medium text-surface-800 dark:text-surface-100" />
          </span>
          <WaitingBadge ticket={ticket} now={now} />
          <AutoCloseBadge ticket={ticket} now={now} />
          <span className="text-xs text-surface-600 dark:text-surface-400">{ticket.claimer ? t('tickets.claimedBy', { name: personName(ticket.claimer) }) : t('tickets.unclaimed')}</span>
        </div>
        <LabelChips ids={ticket.labels} labels={queue.labels} className="mt-1 flex flex-wrap gap-1" />
        <p className="mt-1 line-clamp-2 break-words text-sm text-surface-600 [overflow-wrap:anywhere] dark:text-surface-400">
          {last ? t('tickets.lastMessage', { name: personName(last.author), excerpt: last.excerpt || t('tickets.attachmentsOnly') }) : t('tickets.noMessages')}
        </p>
      </Link>
    </li>
  );
}

/** Arrow keys, Home and End move between the rows (Tab still leaves the list). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const rows = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-ticket-row]')];
  const at = rows.indexOf(document.activeElement as HTMLAnchorElement);
  const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[event.key];
  if (next === undefined || rows.length === 0) return;
  event.preventDefault();
  rows[Math.max(0, Math.min(rows.length - 1, next))]?.focus();
}

interface QueueListProps {
  server: string;
  view: QueueView;
  queue: TicketQueue | undefined;
  error: unknown;
  fetching: boolean;
  current: string | null;
  onRetry: () => void;
  onClear: () => void;
}

/** The open tickets the filters match: loading, failed (with Retry), empty, or the keyboard-navigable list. */
export function QueueList({ server, view, queue, error, fetching, current, onRetry, onClear }: QueueListProps): ReactNode {
  const t = useT();
  const now = useNow(30_000);
  if (!queue) {
    return error ? <LoadFailed title={t('tickets.loadFailed')} {...failedRead(t, error)} onRetry={onRetry} /> : <ListSkeleton label={t('tickets.loading')} rows={4} lead="avatar" />;
  }
  const filtered = view.filter !== 'all' || Boolean(view.panel || view.label || view.q);
  if (queue.tickets.length === 0) {
    return filtered ? (
      <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title={t('tickets.noMatch.title')} description={t('tickets.noMatch.body')}>
        <Button onClick={onClear}>{t('tickets.filter.clear')}</Button>
      </EmptyState>
    ) : (
      <EmptyState icon={<Inbox aria-hidden="true" className="size-6" />} title={t('tickets.empty.title')} description={t('tickets.empty.body')} />
    );
  }
  return (
    <>
      {error ? <LoadFailed tone="warning" title={t('tickets.loadFailed')} {...failedRead(t, error)} onRetry={onRetry} /> : null}
      <ul
        aria-label={t('tickets.queue')}
        aria-busy={fetching || undefined}
        onKeyDown={moveFocus}
        className="divide-y divide-surface-200 overflow-hidden rounded-xl border border-surface-200 bg-white dark:divide-surface-800 dark:border-surface-800 dark:bg-surface-900"
      >
        {queue.tickets.map((ticket) => (
          <Row key={ticket.id} ticket={ticket} queue={queue} server={server} view={view} current={ticket.id === current} now={now} />
        ))}
      </ul>
    </>
  );
}

import { formatDateTime, Link } from '@tickety/shared';
import { Badge } from '@tickety/ui';
import { linkClasses } from '../../components/notices';
import { useT } from '../../lib/i18n';
import type { StaffTicket } from './api';
import { transcriptHref } from './links';

/** A card's tickets, newest first: number, server (on a user's card), opened / closed, its transcript. */
export function SearchTickets({ tickets, showServer }: { tickets: StaffTicket[]; showServer: boolean }) {
  const t = useT();
  if (tickets.length === 0) return <p className="text-sm text-surface-600 dark:text-surface-400">{t('search.tickets.none')}</p>;
  return (
    <ul className="divide-y divide-surface-200 text-sm dark:divide-surface-800">
      {tickets.map((ticket) => (
        <li key={`${ticket.serverId}:${ticket.ticketId}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
          <span className="font-medium text-surface-900 dark:text-surface-50">{ticket.number === null ? ticket.ticketId : t('search.tickets.number', { number: ticket.number })}</span>
          {showServer ? <span className="text-surface-600 dark:text-surface-400">{ticket.serverName ?? ticket.serverId}</span> : null}
          {ticket.closedAt === null ? <Badge tone="info">{t('search.tickets.open')}</Badge> : <Badge>{t('search.tickets.closed')}</Badge>}
          {ticket.openedAt ? <span className="text-xs text-surface-500 dark:text-surface-400">{t('search.tickets.openedAt', { at: formatDateTime(ticket.openedAt) })}</span> : null}
          <span className="ms-auto">
            {ticket.transcriptId ? (
              <Link to={transcriptHref(ticket.serverId, ticket.transcriptId)} className={linkClasses}>
                {t('search.tickets.transcript')}
              </Link>
            ) : (
              <span className="text-xs text-surface-500 dark:text-surface-400">{t('search.tickets.noTranscript')}</span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

import type { TicketSummary } from '@tickety/api-contract';
import { formatDateTime, formatRelative } from '@tickety/shared';
import Timer from 'lucide-react/icons/timer';
import { useT } from './i18n';

/**
 * When the bot will close the ticket by the auto-close rules ("Closes in 3 hours"), the exact time and
 * the rule as its tooltip (and for screen readers); nothing when no rule applies.
 */
export function AutoCloseBadge({ ticket, now }: { ticket: Pick<TicketSummary, 'autoClose'>; now: number }) {
  const t = useT();
  const due = ticket.autoClose;
  if (!due) return null;
  const overdue = Date.parse(due.at) <= now;
  const exact = t(due.rule === 'member_silent' ? 'tickets.autoClose.memberSilent' : 'tickets.autoClose.staffSilent', { time: formatDateTime(due.at) });
  return (
    <span data-auto-close="" title={exact} className="inline-flex items-center gap-1 text-xs text-surface-600 dark:text-surface-400">
      <Timer aria-hidden="true" className="size-3.5" />
      <time dateTime={due.at}>{overdue ? t('tickets.autoClose.due') : t('tickets.autoClose.in', { when: formatRelative(due.at, now, { precision: 'minutes' }) })}</time>
      <span className="sr-only">{exact}</span>
    </span>
  );
}

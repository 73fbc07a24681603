import type { TranscriptSummary } from '@tickety/api-contract';
import { formatDateTime, formatNumber, Link } from '@tickety/shared';
import { Table, type TableColumn } from '@tickety/ui';
import type { ReactNode } from 'react';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';

function Rating({ value }: { value: number | null }) {
  const t = useT();
  if (value === null) return <span className="text-surface-500 dark:text-surface-400">{t('transcripts.notRated')}</span>;
  return (
    <span title={t('transcripts.rating', { rating: value })}>
      <span aria-hidden="true" className="tracking-tight text-amber-500">
        {'★'.repeat(value)}
        <span className="text-surface-300 dark:text-surface-600">{'★'.repeat(5 - value)}</span>
      </span>
      <span className="sr-only">{t('transcripts.rating', { rating: value })}</span>
    </span>
  );
}

/**
 * Transcripts as a table: the ticket (a link to the viewer), where (with `showServer`), who opened
 * and who closed it, when it closed, its messages and rating. Stacks into cards on a phone.
 */
export function TranscriptTable({ rows, caption, showServer, empty }: { rows: TranscriptSummary[]; caption: string; showServer: boolean; empty: ReactNode }) {
  const t = useT();
  const columns: Array<TableColumn<TranscriptSummary>> = [
    {
      key: 'ticket',
      header: t('transcripts.column.ticket'),
      label: t('transcripts.column.ticket'),
      rowHeader: true,
      sortValue: (r) => r.number ?? 0,
      cell: (row) => (
        <Link
          to={href('/transcript/v2/:server/:fileid', { server: row.serverId, fileid: row.fileId })}
          className="font-medium text-primary-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-primary-300"
        >
          {t('transcripts.ticketNumber', { number: row.number ?? '?' })}
        </Link>
      ),
    },
    ...(showServer
      ? [{ key: 'server', header: t('transcripts.column.server'), label: t('transcripts.column.server'), sortValue: (r: TranscriptSummary) => r.serverName, cell: (r: TranscriptSummary) => r.serverName }]
      : []),
    { key: 'opener', header: t('transcripts.column.opener'), label: t('transcripts.column.opener'), sortValue: (r) => r.opener.name, cell: (r) => <span title={r.opener.id}>{r.opener.name}</span> },
    {
      key: 'closer',
      header: t('transcripts.column.closedBy'),
      label: t('transcripts.column.closedBy'),
      sortValue: (r) => r.closedBy?.name ?? '',
      cell: (r) => (r.closedBy ? <span title={r.closedBy.id}>{r.closedBy.name}</span> : '—'),
    },
    {
      key: 'closed',
      header: t('transcripts.column.closed'),
      label: t('transcripts.column.closed'),
      sortValue: (r) => r.closedAt ?? '',
      cell: (r) => (r.closedAt ? <time dateTime={r.closedAt}>{formatDateTime(r.closedAt)}</time> : '—'),
    },
    { key: 'messages', header: t('transcripts.column.messages'), label: t('transcripts.column.messages'), align: 'end', sortValue: (r) => r.messages, cell: (r) => formatNumber(r.messages) },
    { key: 'rating', header: t('transcripts.column.rating'), label: t('transcripts.column.rating'), sortValue: (r) => r.rating ?? 0, cell: (r) => <Rating value={r.rating} /> },
  ];
  return <Table caption={caption} columns={columns} rows={rows} rowKey={(r) => `${r.serverId}/${r.fileId}`} empty={empty} />;
}

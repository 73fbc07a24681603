import type { StaffSystemError } from '@tickety/api-contract';
import { formatDateTime, formatRelative } from '@tickety/shared';
import { Button, EmptyState, Table, type TableColumn } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import CircleCheck from 'lucide-react/icons/circle-check';
import Copy from 'lucide-react/icons/copy';
import { useEffect, useId, useState } from 'react';
import { useT } from '../../lib/i18n';

/** How long "Copied" (or the failure) stays beside a copy button. */
const COPY_NOTE_MS = 2_000;

/** Copies a request id; says so (or why not) beside the button, politely announced. */
function CopyRequestId({ id }: { id: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPY_NOTE_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      // Absent outside a secure context: the id is selectable with one click instead (`select-all`).
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(id);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Button variant="ghost" size="sm" className="h-7 px-1.5" aria-label={t('health.copy.label', { id })} onClick={() => void copy()}>
        {state === 'copied' ? <Check className="size-4 text-primary-700 dark:text-primary-400" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
      </Button>
      <span role="status" className={state === 'failed' ? 'text-xs font-normal text-red-700 dark:text-red-400' : 'text-xs font-normal text-primary-700 dark:text-primary-400'}>
        {state === 'copied' ? t('health.copy.copied') : state === 'failed' ? t('health.copy.failed') : ''}
      </span>
    </span>
  );
}

/** This API instance's recent server errors, newest first, each with the request id to find in the logs. */
export function SystemErrors({ errors, startedAt, now }: { errors: StaffSystemError[]; startedAt: string; now: number }) {
  const t = useT();
  const id = useId();
  const columns: Array<TableColumn<StaffSystemError>> = [
    {
      key: 'at',
      header: t('health.errors.col.time'),
      label: t('health.errors.col.time'),
      cell: (entry) => (
        <time dateTime={entry.at} title={formatRelative(Math.min(Date.parse(entry.at), now), now)} className="whitespace-nowrap">
          {formatDateTime(entry.at, { seconds: true })}
        </time>
      ),
    },
    {
      key: 'requestId',
      header: t('health.errors.col.requestId'),
      label: t('health.errors.col.requestId'),
      rowHeader: true,
      cell: (entry) => (
        <span className="inline-flex max-w-full flex-wrap items-center gap-1 font-normal">
          <code className="font-mono text-xs break-all select-all">{entry.requestId}</code>
          <CopyRequestId id={entry.requestId} />
        </span>
      ),
    },
    {
      key: 'request',
      header: t('health.errors.col.request'),
      label: t('health.errors.col.request'),
      cell: (entry) => (
        <span className="break-all">
          <span className="font-mono text-xs font-semibold">{entry.method}</span>{' '}
          {entry.route === null ? <span className="text-surface-500 dark:text-surface-400">{t('health.errors.noRoute')}</span> : <code className="font-mono text-xs">{entry.route}</code>}
        </span>
      ),
    },
    { key: 'status', header: t('health.errors.col.status'), label: t('health.errors.col.status'), align: 'end', cell: (e) => <span className="tabular-nums">{e.status}</span> },
    { key: 'code', header: t('health.errors.col.code'), label: t('health.errors.col.code'), align: 'end', cell: (e) => <span className="tabular-nums">{e.code}</span> },
    { key: 'message', header: t('health.errors.col.message'), label: t('health.errors.col.message'), cell: (e) => <span className="break-words">{e.message}</span> },
  ];
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div>
        <h3 id={id} className="text-base font-semibold text-surface-900 dark:text-surface-50">
          {t('health.errors.heading')}
        </h3>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('health.errors.note')}</p>
      </div>
      <Table
        caption={t('health.errors.caption')}
        columns={columns}
        rows={errors}
        rowKey={(e) => `${e.at}|${e.requestId}`}
        empty={
          <EmptyState
            icon={<CircleCheck className="size-6" aria-hidden="true" />}
            title={t('health.errors.empty.title')}
            description={t('health.errors.empty.text', { time: formatDateTime(startedAt) })}
          />
        }
      />
    </section>
  );
}

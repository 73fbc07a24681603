/**
 * What the System page's sections share: they read themselves again every 15 s, on Refresh and on
 * Retry, show when they were last read, and announce only what the reader asked for (not each poll).
 */
import { failureText, formatDateTime } from '@tickety/shared';
import { Button, cx, LoadFailed, type LoadFailedProps } from '@tickety/ui';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { type ReactNode, useCallback, useState } from 'react';
import { useT } from '../../lib/i18n';

/** Each System section reads itself again this often (RTK Query's `pollingInterval`). */
export const SYSTEM_REFRESH_MS = 15_000;

/** The section's last read asked for by the reader: announced in its live region. */
type RefreshNote = { kind: 'refreshing' } | { kind: 'refreshed'; at: number } | { kind: 'failed' } | null;

/**
 * Refresh on request: reads again through `refetch` (a query's own), noting "refreshing" and then
 * "refreshed at" or "failed" for the live region. `clear` forgets the note (another message replaces it).
 */
export function useRefresh(refetch: () => PromiseLike<{ isError: boolean }>) {
  const [note, setNote] = useState<RefreshNote>(null);
  const refresh = useCallback(async () => {
    setNote({ kind: 'refreshing' });
    const result = await refetch();
    setNote(result.isError ? { kind: 'failed' } : { kind: 'refreshed', at: Date.now() });
  }, [refetch]);
  const clear = useCallback(() => setNote(null), []);
  return { note, refresh, clear };
}

interface RefreshHeaderProps {
  headingId: string;
  title: ReactNode;
  description: ReactNode;
  /** When the section's data was last read (ms), or undefined before the first answer. */
  updatedAt: number | undefined;
  /** A read (poll, Refresh, Retry) is under way: the button spins and does nothing more. */
  fetching: boolean;
  onRefresh: () => void;
  /** The Refresh button's accessible name when the page has more than one (its visible text stays "Refresh"). */
  refreshLabel?: string;
  note: RefreshNote;
  /** The live region's words for this section. */
  live: { refreshing: string; refreshed: (time: string) => string; failed: string };
}

/** A section's heading, its description, "Updated …", the Refresh button and the polite live region. */
export function RefreshHeader({ headingId, title, description, updatedAt, fetching, onRefresh, refreshLabel, note, live }: RefreshHeaderProps) {
  const t = useT();
  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-surface-900 dark:text-surface-50">
            {title}
          </h2>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{description}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {updatedAt ? <p className="text-xs text-surface-600 dark:text-surface-400">{t('refresh.updated', { time: formatDateTime(updatedAt, { seconds: true }) })}</p> : null}
          <Button variant="secondary" size="sm" aria-label={refreshLabel} aria-busy={fetching || undefined} onClick={() => (fetching ? undefined : onRefresh())}>
            <RefreshCw className={cx('size-4', fetching && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
            {t('refresh.button')}
          </Button>
        </div>
      </div>
      <p role="status" aria-live="polite" className="sr-only">
        {note?.kind === 'refreshing'
          ? live.refreshing
          : note?.kind === 'refreshed'
            ? live.refreshed(formatDateTime(note.at, { seconds: true }))
            : note?.kind === 'failed'
              ? live.failed
              : ''}
      </p>
    </>
  );
}

/** A failed read of the System page: what failed, the reason in the reader's words, and Retry. */
export function LoadError({ title, error, onRetry, tone = 'danger' }: { title: string; error: unknown; onRetry: () => void; tone?: LoadFailedProps['tone'] }) {
  const t = useT();
  return <LoadFailed tone={tone} title={title} reason={failureText(error)} retryLabel={t('refresh.retry')} onRetry={onRetry} />;
}

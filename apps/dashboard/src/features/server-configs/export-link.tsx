import { ApiRequestError, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses, cx } from '@tickety/ui';
import Download from 'lucide-react/icons/download';
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { failureDetail, failureText } from '../../lib/failures';
import { useT } from './i18n';
import { useServerName, useStaffRead } from '../../lib/server-access';
import { downloadConfigFile, exportPath, fallbackFileName } from './api';

type ExportState = { state: 'idle' } | { state: 'running' } | { state: 'done'; file: string } | { state: 'failed'; message: string };

/** A failure of the download in the reader's language (the API's own sentence after the catalogue's, when it says more). */
function exportFailure(error: unknown): string {
  if (error instanceof ApiRequestError && error.body) {
    const failure = { status: error.status, data: error.body, message: error.message };
    const detail = failureDetail(failure);
    return detail ? `${failureText(failure)} ${detail}` : failureText(failure);
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A link that downloads a configuration file (the live version, or `version`): a real link to the
 * API's export (so "save link as" works too); a plain click fetches it with the session and saves it
 * under the name the API gives, and says in place when it cannot. Not offered in a staff member's
 * read-only view: the API signs no file for staff read (it refuses the export), so the page says so.
 */
export function ExportLink({
  server,
  version,
  nameVersion = version,
  label,
  description,
  size = 'md',
}: {
  server: string;
  /** The version exported (none: the live one). */
  version?: number;
  /** The version the file holds, for its name when the API's answer gives none. */
  nameVersion?: number;
  label: string;
  description?: string;
  size?: 'sm' | 'md';
}) {
  const t = useT();
  const { apiOrigin } = useRuntimeConfig();
  const origin = (() => {
    try {
      return new URL(apiOrigin).origin;
    } catch {
      return apiOrigin;
    }
  })();
  const [status, setStatus] = useState<ExportState>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const statusId = useId();
  const fileName = fallbackFileName(server, nameVersion, useServerName());
  const staffRead = useStaffRead();
  useEffect(() => () => controller.current?.abort(), []);
  // Another version: the outcome shown was about the one before.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the version changes
  useEffect(() => {
    controller.current?.abort();
    setStatus({ state: 'idle' });
  }, [server, version]);

  const onClick = async (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window, or "save as": the browser's own way.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (status.state === 'running') return;
    const own = new AbortController();
    controller.current = own;
    setStatus({ state: 'running' });
    try {
      const file = await downloadConfigFile(origin, server, { version, signal: own.signal, fallbackName: fileName });
      if (controller.current === own) setStatus({ state: 'done', file });
    } catch (error) {
      if (controller.current !== own || (error instanceof ApiRequestError && error.kind === 'cancelled')) return;
      setStatus({ state: 'failed', message: exportFailure(error) });
    }
  };

  if (staffRead) {
    return (
      <div className="flex min-w-0 flex-col items-start gap-1">
        <button type="button" disabled aria-describedby={statusId} className={buttonClasses({ variant: 'secondary', size })}>
          <Download aria-hidden="true" className="size-4" />
          {label}
        </button>
        <span id={statusId} className="text-xs text-surface-600 dark:text-surface-400">
          {t('restore.export.staffRead')}
        </span>
      </div>
    );
  }

  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      <a
        href={origin + exportPath(server, version)}
        download={fileName}
        onClick={(event) => void onClick(event)}
        aria-describedby={statusId}
        aria-busy={status.state === 'running' || undefined}
        title={description}
        className={cx(buttonClasses({ variant: 'secondary', size }), status.state === 'running' && 'opacity-70')}
      >
        {status.state === 'running' ? (
          <span aria-hidden="true" className="inline-block size-3.5 animate-spin rounded-full border-2 border-current border-t-transparent" />
        ) : (
          <Download aria-hidden="true" className="size-4" />
        )}
        {label}
      </a>
      <span id={statusId} aria-live="polite" className={cx('text-xs', status.state === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-surface-600 dark:text-surface-400')}>
        {status.state === 'running' ? t('restore.export.running') : null}
        {status.state === 'done' ? t('restore.export.done', { file: status.file }) : null}
        {status.state === 'failed' ? t('restore.export.failed', { message: status.message }) : null}
      </span>
    </div>
  );
}

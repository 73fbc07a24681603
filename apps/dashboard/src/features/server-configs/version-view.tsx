import { diffConfig, type ServerConfigAnswer } from '@tickety/api-contract';
import { Link, useNow } from '@tickety/shared';
import { Alert, Badge, Button, ConfirmDialog, LoadFailed, Skeleton } from '@tickety/ui';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ConfigChanges } from '../../components/config-changes';
import { changeText, describeChanges } from '../../lib/config-change-text';
import { failedRead, failureCode, failureDetail, failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { useConfigVersionQuery, useRestoreConfigVersionMutation, type VersionDetail } from './api';
import { ConfigSummary } from './config-summary';
import { ExportLink } from './export-link';
import { Actor, When } from './parts';
import { Tabs } from './tabs';

type Tab = 'compare' | 'previous' | 'contents';

/** Lines of the confirmation: at most this many changes are named, then "and N more". */
const CONFIRM_LINES = 6;

/** What this version changed against the one before it (fetched when the tab is opened). */
function PreviousDiff({ server, detail }: { server: string; detail: VersionDetail }) {
  const t = useT();
  const previousVersion = detail.version - 1;
  const previous = useConfigVersionQuery({ server, version: previousVersion }, { skip: previousVersion < 1 });
  const changes = useMemo(() => (previous.data ? diffConfig(previous.data.config, detail.config) : []), [previous.data, detail.config]);
  if (previousVersion < 1) return <p className="text-sm text-surface-700 dark:text-surface-300">{t('restore.view.first')}</p>;
  if (previous.isError && !previous.data) {
    return failureCode(previous.error) === 1002 ? (
      <p className="text-sm text-surface-700 dark:text-surface-300">{t('restore.view.previousGone', { version: previousVersion })}</p>
    ) : (
      <LoadFailed title={t('restore.view.previousFailed', { version: previousVersion })} {...failedRead(t, previous.error)} onRetry={() => void previous.refetch()} />
    );
  }
  if (!previous.data) return <Skeleton className="h-16 w-full" />;
  return (
    <div>
      <p className="mb-3 text-sm text-surface-700 dark:text-surface-300">{t('restore.view.previousIntro', { version: detail.version, previous: previousVersion })}</p>
      <ConfigChanges changes={changes} config={detail.config} />
    </div>
  );
}

type RestoreFailure = { conflict: boolean; text: string; detail: string | null };

/**
 * One version: who saved it and when, its summary, and three views: what restoring it would change
 * (the current configuration before, this version after), what it changed against the version before
 * it, and what it contains. Restore (confirmed) and the export of this version.
 */
export function VersionView({
  server,
  version,
  live,
  canWrite,
  readOnlyReason,
  focusOnLoad,
  onRestored,
  onReload,
}: {
  server: string;
  version: number;
  live: ServerConfigAnswer;
  canWrite: boolean;
  readOnlyReason: string | null;
  /** Move focus to the heading once shown (the reader chose this version in the list). */
  focusOnLoad: boolean;
  onRestored: (answer: ServerConfigAnswer, from: number) => void;
  onReload: () => void;
}) {
  const t = useT();
  const now = useNow(30_000);
  const id = useId();
  const query = useConfigVersionQuery({ server, version });
  const detail = query.currentData ?? (query.data?.version === version ? query.data : undefined);
  const isCurrent = version === live.version;
  const [tab, setTab] = useState<Tab>(isCurrent ? 'previous' : 'compare');
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<RestoreFailure | null>(null);
  const [restore, restoring] = useRestoreConfigVersionMutation();
  const heading = useRef<HTMLHeadingElement>(null);

  // This version became (or stopped being) the current one: its natural first view. (Another version
  // is another instance: the page keys this view by version.)
  useEffect(() => {
    setTab(isCurrent ? 'previous' : 'compare');
  }, [isCurrent]);

  const loaded = detail !== undefined;
  useEffect(() => {
    const el = heading.current;
    if (!loaded || !focusOnLoad || !el) return;
    el.focus({ preventScroll: true });
    // On a phone the version is below the list: bring its top into view (not just its last line).
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight * 0.6) el.scrollIntoView?.({ block: 'start' });
  }, [loaded, focusOnLoad]);

  // Restoring would change: from the live configuration (before) to this version's (after).
  const restoreChanges = useMemo(() => (detail ? diffConfig(live.config, detail.config) : []), [detail, live.config]);
  const confirmLines = useMemo(() => describeChanges(t, restoreChanges, detail?.config).map((view) => changeText(t, view)), [t, restoreChanges, detail?.config]);

  if (!detail) {
    if (query.isError) {
      return failureCode(query.error) === 1002 ? (
        <Alert tone="warning" title={t('restore.view.missingTitle', { version })}>
          {t('restore.view.missing')}
        </Alert>
      ) : (
        <LoadFailed title={t('restore.view.loadFailed', { version })} {...failedRead(t, query.error)} onRetry={() => void query.refetch()} />
      );
    }
    return (
      <div aria-busy="true" className="space-y-3">
        <span role="status" className="sr-only">
          {t('restore.view.loading', { version })}
        </span>
        <Skeleton className="h-7 w-40" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }

  const unchanged = restoreChanges.length === 0;
  const restoreBlocked = !canWrite ? readOnlyReason ?? t('restore.readOnly') : isCurrent ? t('restore.view.isCurrent') : unchanged ? t('restore.view.sameAsCurrent') : null;

  const doRestore = async () => {
    setFailure(null);
    try {
      const answer = await restore({ server, version, expectedVersion: live.version }).unwrap();
      setConfirming(false);
      onRestored(answer, version);
    } catch (error) {
      setConfirming(false);
      const conflict = failureCode(error) === 1013;
      setFailure({ conflict, text: failureText(error), detail: conflict ? null : failureDetail(error) });
    }
  };

  let body: ReactNode;
  if (tab === 'compare') {
    body = isCurrent ? (
      <p className="text-sm text-surface-700 dark:text-surface-300">{t('restore.view.compareCurrent')}</p>
    ) : (
      <div>
        <p className="mb-3 text-sm text-surface-700 dark:text-surface-300">{t('restore.view.compareIntro', { version, current: live.version, count: restoreChanges.length })}</p>
        <ConfigChanges changes={restoreChanges} config={detail.config} />
      </div>
    );
  } else if (tab === 'previous') {
    body = <PreviousDiff server={server} detail={detail} />;
  } else {
    body = <ConfigSummary server={server} config={detail.config} />;
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="min-w-0">
      <div className="flex flex-wrap items-center gap-2">
        <h2 ref={heading} id={`${id}-heading`} tabIndex={-1} className="text-xl font-semibold text-surface-900 outline-none focus-visible:ring-2 focus-visible:ring-primary-500 dark:text-surface-50">
          {t('restore.version', { version })}
        </h2>
        {isCurrent ? <Badge tone="primary">{t('restore.current')}</Badge> : null}
        {detail.restoredFrom !== null ? <Badge tone="warning">{t('restore.restoredFrom', { version: detail.restoredFrom })}</Badge> : null}
      </div>
      <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-surface-700 dark:text-surface-300">
        <span>{t('restore.view.savedBy')}</span>
        <Actor actor={detail.savedBy} />
        <When at={detail.savedAt} now={now} />
      </p>
      <p className="mt-2 break-words text-sm text-surface-900 [overflow-wrap:anywhere] dark:text-surface-100">{detail.summary}</p>
      {detail.restoredFrom !== null ? (
        <p className="mt-1 text-sm">
          <Link to={href('/dashboard/:server/server-configs', { server }, { version: detail.restoredFrom })} className="text-primary-700 underline-offset-2 hover:underline dark:text-primary-300">
            {t('restore.view.openRestored', { version: detail.restoredFrom })}
          </Link>
        </p>
      ) : null}

      <div className="mt-4 flex flex-wrap items-start gap-3">
        <Button
          onClick={() => {
            if (restoreBlocked === null) setConfirming(true);
          }}
          aria-disabled={restoreBlocked !== null || undefined}
          aria-describedby={restoreBlocked !== null ? `${id}-blocked` : undefined}
          loading={restoring.isLoading}
        >
          <RotateCcw aria-hidden="true" className="size-4" />
          {t('restore.action', { version })}
        </Button>
        <ExportLink server={server} version={version} label={t('restore.export.version', { version })} />
      </div>
      {restoreBlocked !== null ? (
        <p id={`${id}-blocked`} className="mt-1 text-xs text-surface-600 dark:text-surface-400">
          {restoreBlocked}
        </p>
      ) : null}

      <div aria-live="polite">
        {failure ? (
          <Alert
            tone="danger"
            className="mt-4"
            title={failure.conflict ? t('restore.conflict.title') : t('restore.failed.title', { version })}
            actions={
              failure.conflict ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    setFailure(null);
                    onReload();
                  }}
                >
                  {t('common.reload')}
                </Button>
              ) : undefined
            }
          >
            <p>{failure.text}</p>
            {failure.conflict ? <p className="mt-1">{t('restore.conflict.body', { version })}</p> : null}
            {failure.detail ? <p className="mt-1">{failure.detail}</p> : null}
          </Alert>
        ) : null}
      </div>

      <div className="mt-5">
        <Tabs<Tab>
          label={t('restore.view.tabs', { version })}
          selected={tab}
          onSelect={setTab}
          tabs={[
            { key: 'compare', label: t('restore.tab.compare') },
            { key: 'previous', label: t('restore.tab.previous') },
            { key: 'contents', label: t('restore.tab.contents') },
          ]}
        >
          {body}
        </Tabs>
      </div>

      <ConfirmDialog
        open={confirming}
        title={t('restore.confirm.title', { version })}
        confirmLabel={t('restore.confirm.action', { version })}
        cancelLabel={t('common.cancel')}
        tone="primary"
        busy={restoring.isLoading}
        onConfirm={() => void doRestore()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('restore.confirm.body', { version, current: live.version, next: live.version + 1 })}</p>
        <p className="font-medium">{t('restore.confirm.changes', { count: restoreChanges.length })}</p>
        <ul className="max-h-48 list-disc space-y-1 overflow-y-auto pl-5 break-words [overflow-wrap:anywhere]">
          {confirmLines.slice(0, CONFIRM_LINES).map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list for the dialog's lifetime
            <li key={index}>{line}</li>
          ))}
          {confirmLines.length > CONFIRM_LINES ? <li className="list-none italic">{t('restore.confirm.more', { count: confirmLines.length - CONFIRM_LINES })}</li> : null}
        </ul>
        <p>{t('restore.confirm.posts')}</p>
      </ConfirmDialog>
    </section>
  );
}

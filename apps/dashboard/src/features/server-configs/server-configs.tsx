import type { ImportPreview, ResetConfigAnswer, ServerConfigAnswer } from '@tickety/api-contract';
import { Link, useAppDispatch, useNavigate, useNow, useParams, useSearchParams } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, Card, cx, EmptyState, LoadFailed, PageHeader, Skeleton } from '@tickety/ui';
import FileUp from 'lucide-react/icons/file-up';
import History from 'lucide-react/icons/history';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { failedRead } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { Message, useT } from './i18n';
import { useAreaWrite, useServerName } from '../../lib/server-access';
import { outdatedPosts, useConfigVersionsInfiniteQuery, useRestoreLiveConfigQuery, type VersionSummary } from './api';
import { ExportLink } from './export-link';
import { ImportFile } from './import-file';
import { Actor, When } from './parts';

// A version's detail (its summary, its changes, restoring it) is fetched when a version is chosen.
const VersionView = lazy(() => import('./version-view').then((module) => ({ default: module.VersionView })));
// "Reset to defaults" asks in a dialog fetched when it is opened.
const ResetDialog = lazy(() => import('./reset-dialog').then((module) => ({ default: module.ResetDialog })));

/** What was just applied: a restore or an import, the new version, and the posted panels it left outdated. */
type Applied = {
  kind: 'restore' | 'import' | 'reset';
  version: number;
  /** The version restored, or the file's origin. */
  from: { version: number; server?: string };
  /** Names of posted panels and multi-panels that need an update; null: not known; undefined: still asking. */
  outdated?: string[] | null;
};

/** After a reset: the new version, the one it replaced, and the posted panels that no longer match. */
function ResetNotice({ server, answer, from, onClose }: { server: string; answer: ResetConfigAnswer; from: number; onClose: () => void }) {
  const t = useT();
  const menu = href('/dashboard/:server/configs', { server });
  const link = <Link to={menu} className="font-semibold underline underline-offset-2" />;
  const posts = answer.postedPanels;
  return (
    <Alert
      tone="primary"
      className="mb-6"
      title={t('restore.applied.reset', { version: answer.version, from })}
      actions={
        <Button variant="ghost" size="sm" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      {posts.length === 0 ? (
        <p className="mt-1">{t('restore.applied.resetPostsNone')}</p>
      ) : (
        <>
          <p className="mt-1">{t('restore.applied.resetPosts', { count: posts.length })}</p>
          <ul aria-label={t('restore.applied.resetPostsList')} className="mt-1 list-disc space-y-0.5 pl-5 break-words [overflow-wrap:anywhere]">
            {posts.map((post) => (
              <li key={`${post.kind}:${post.id}`}>{t(post.kind === 'panel' ? 'restore.reset.post.panel' : 'restore.reset.post.multiPanel', { name: post.name })}</li>
            ))}
          </ul>
          <p className="mt-1">
            <Message k="restore.applied.resetPostsWhat" values={{ from }} components={{ link }} />
          </p>
        </>
      )}
    </Alert>
  );
}

/** "Reset to defaults": the danger zone below the versions and the import; the dialog is loaded when opened. */
function ResetSection({
  server,
  serverName,
  live,
  canReset,
  reason,
  onReset,
  onConflict,
}: {
  server: string;
  serverName: string | null;
  live: ServerConfigAnswer | undefined;
  canReset: boolean;
  reason: string | null;
  onReset: (answer: ResetConfigAnswer, from: number) => void;
  onConflict: () => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="restore-reset-title" className="mt-8 rounded-xl border border-red-300 bg-red-50/60 p-4 sm:p-5 dark:border-red-900 dark:bg-red-950/30">
      <h2 id="restore-reset-title" className="text-lg font-semibold text-red-800 dark:text-red-300">
        {t('restore.reset.title')}
      </h2>
      <p className="mt-1 text-sm text-surface-800 dark:text-surface-200">{t('restore.reset.intro')}</p>
      {canReset ? (
        <Button variant="danger" className="mt-3" disabled={!live || serverName === null} onClick={() => setOpen(true)}>
          <RotateCcw aria-hidden="true" className="size-4" />
          {t('restore.reset.open')}
        </Button>
      ) : (
        <p className="mt-3 text-sm text-surface-700 dark:text-surface-300">{reason}</p>
      )}
      {open && live && serverName !== null ? (
        <Suspense fallback={<span role="status" className="sr-only">{t('restore.loading')}</span>}>
          <ResetDialog
            server={server}
            serverName={serverName}
            version={live.version}
            onClose={() => setOpen(false)}
            onConflict={onConflict}
            onReset={(answer, from) => {
              setOpen(false);
              onReset(answer, from);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

function ListSkeleton() {
  const t = useT();
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        {t('restore.loading')}
      </span>
      <div className="space-y-3">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="flex items-center gap-3 rounded-xl border border-surface-200 p-3 dark:border-surface-800">
            <Skeleton className="size-6 shrink-0 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-2/3" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function VersionItem({
  server,
  item,
  current,
  selected,
  now,
  onChoose,
  focusRef,
}: {
  server: string;
  item: VersionSummary;
  current: boolean;
  selected: boolean;
  now: number;
  onChoose: () => void;
  focusRef?: (el: HTMLAnchorElement | null) => void;
}) {
  const t = useT();
  return (
    <li>
      <Link
        ref={focusRef}
        to={href('/dashboard/:server/server-configs', { server }, { version: item.version })}
        aria-current={selected ? 'true' : undefined}
        onClick={onChoose}
        className={cx(
          'block px-3 py-3 outline-none transition focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-primary-500',
          selected ? 'bg-primary-50 dark:bg-primary-950/60' : 'hover:bg-surface-50 dark:hover:bg-surface-800/60',
        )}
      >
        <span className="flex flex-wrap items-center gap-1.5">
          {/* The visible "v7" starts the link's accessible name (label in name: a voice-control
              user says what they see); "Version 7" follows for screen readers, as in Web Logs. */}
          <span className="font-mono text-sm font-semibold text-surface-900 dark:text-surface-50">{t('restore.versionShort', { version: item.version })}</span>
          <span className="sr-only"> ({t('restore.version', { version: item.version })})</span>
          {current ? <Badge tone="primary">{t('restore.current')}</Badge> : null}
          {item.restoredFrom !== null ? <Badge tone="warning">{t('restore.restoredFrom', { version: item.restoredFrom })}</Badge> : null}
        </span>
        <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-surface-700 dark:text-surface-300">
          <Actor actor={item.savedBy} />
          <When at={item.savedAt} now={now} />
        </span>
        <span className="mt-1 line-clamp-2 block break-words text-sm text-surface-800 [overflow-wrap:anywhere] dark:text-surface-200" title={item.summary}>
          {item.summary}
        </span>
      </Link>
    </li>
  );
}

/** The notice after a restore or an import: the new live version, and which posted panels now need an update. */
function AppliedNotice({ server, applied, onClose }: { server: string; applied: Applied; onClose: () => void }) {
  const t = useT();
  const menu = href('/dashboard/:server/configs', { server });
  let posts: ReactNode;
  if (applied.outdated === undefined) posts = <p className="mt-1">{t('restore.applied.postsChecking')}</p>;
  else if (applied.outdated === null)
    posts = (
      <p className="mt-1">
        <Message k="restore.applied.postsUnknown" components={{ link: <Link to={menu} className="font-semibold underline underline-offset-2" /> }} />
      </p>
    );
  else if (applied.outdated.length === 0) posts = <p className="mt-1">{t('restore.applied.postsNone')}</p>;
  else
    posts = (
      <p className="mt-1">
        <Message
          k="restore.applied.postsOutdated"
          values={{ count: applied.outdated.length, names: applied.outdated.map((name) => `${t('changes.quoteOpen')}${name}${t('changes.quoteClose')}`).join(', ') }}
          components={{ link: <Link to={menu} className="font-semibold underline underline-offset-2" /> }}
        />
      </p>
    );
  return (
    <Alert
      tone="primary"
      className="mb-6"
      title={
        applied.kind === 'restore'
          ? t('restore.applied.restored', { version: applied.version, from: applied.from.version })
          : t('restore.applied.imported', { version: applied.version, server: applied.from.server ?? '', from: applied.from.version })
      }
      actions={
        <Button variant="ghost" size="sm" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      {posts}
    </Alert>
  );
}

export interface RestoreConfigsProps {
  /**
   * Whether the signed-in member may restore and import (the `configs` area's write access). False:
   * both are off, with `readOnlyReason` next to them; viewing, comparing and exporting stay. The API
   * decides either way.
   */
  canWrite?: boolean;
  readOnlyReason?: string | null;
}

/**
 * Restore Configs (/dashboard/:server/server-configs): every saved configuration as a version
 * (newest first, paged): who saved it and when, its summary, the current one marked. Choosing one
 * (kept in the address: `?version=N`, as Web Logs links to it) shows what restoring it would change,
 * what it changed, and what it contains; Restore (confirmed) saves it as a new version. Export the
 * live or any version as a signed file; import one with its changes and unmatched channels and roles
 * shown before anything is applied.
 */
export default function ServerRestoreConfigs(props: RestoreConfigsProps = {}) {
  const t = useT();
  // What the open server's access gives (a role with read access sees, exports, but cannot restore or import).
  const write = useAreaWrite('configs');
  const canWrite = props.canWrite ?? write.canWrite;
  const readOnlyReason = props.readOnlyReason ?? write.reason;
  // An import replaces panels and settings too: with a role's grant the API wants the Panel Menu's
  // write access as well (a restore of this server's own versions needs only Restore Configs').
  const panelsWrite = useAreaWrite('panels');
  const canImport = canWrite && panelsWrite.canWrite;
  const importReason = canWrite ? (panelsWrite.canWrite ? null : t('restore.import.needsPanels')) : readOnlyReason;
  // A reset removes the panels too: the same two write accesses as an import.
  const resetReason = canWrite ? (panelsWrite.canWrite ? null : t('restore.reset.needsPanels')) : readOnlyReason;
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const now = useNow(30_000);
  const live = useRestoreLiveConfigQuery(server, { skip: server === '', refetchOnMountOrArgChange: true });
  const versions = useConfigVersionsInfiniteQuery(server, { skip: server === '', refetchOnMountOrArgChange: true });
  const [applied, setApplied] = useState<Applied | null>(null);
  const [wasReset, setWasReset] = useState<{ answer: ResetConfigAnswer; from: number } | null>(null);
  const chosenByReader = useRef(false);
  const importRef = useRef<HTMLDivElement>(null);

  const selectedParam = params.get('version');
  const selected = selectedParam && /^[1-9]\d{0,9}$/.test(selectedParam) ? Number(selectedParam) : null;

  const pages = versions.currentData?.pages ?? versions.data?.pages;
  const items = useMemo(() => {
    const seen = new Set<number>();
    return (pages ?? []).flatMap((page) => page.versions).filter((item) => !seen.has(item.version) && seen.add(item.version));
  }, [pages]);

  // After "Load more", focus moves to the first new version.
  const focusFrom = useRef<number | null>(null);
  const firstNew = useCallback((el: HTMLAnchorElement | null) => {
    if (el && focusFrom.current !== null) {
      focusFrom.current = null;
      el.focus();
    }
  }, []);
  const loadMore = () => {
    focusFrom.current = items.length;
    void versions.fetchNextPage();
  };

  const reload = useCallback(() => {
    void live.refetch();
    void versions.refetch();
  }, [live, versions]);

  /** A restore or import made a new live version: show it, and find the posted panels it left outdated. */
  const afterApply = (answer: ServerConfigAnswer, made: Omit<Applied, 'version' | 'outdated'>) => {
    setWasReset(null);
    setApplied({ ...made, version: answer.version });
    chosenByReader.current = false;
    navigate(href('/dashboard/:server/server-configs', { server }, { version: answer.version }));
    void outdatedPosts(dispatch, server, answer.config).then((outdated) => setApplied((shown) => (shown && shown.version === answer.version ? { ...shown, outdated } : shown)));
  };

  // Another server: nothing applied there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the server changes
  useEffect(() => {
    setApplied(null);
    setWasReset(null);
  }, [server]);

  const description = t('server.restore.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' });
  const liveData = live.currentData ?? live.data;

  const empty = pages !== undefined && items.length === 0;
  let versionsContent: ReactNode;
  if (!pages) {
    versionsContent = versions.isError ? <LoadFailed title={t('restore.loadFailed')} {...failedRead(t, versions.error)} onRetry={() => void versions.refetch()} /> : <ListSkeleton />;
  } else if (empty) {
    versionsContent = (
      <EmptyState icon={<History aria-hidden="true" className="size-6" />} title={t('restore.empty.title')} description={t('restore.empty.body')}>
        <Link to={href('/dashboard/:server/configs', { server })} className={buttonClasses({ variant: 'secondary' })}>
          {t('restore.empty.link')}
        </Link>
      </EmptyState>
    );
  } else {
    const firstNewIndex = focusFrom.current;
    versionsContent = (
      <>
        {versions.isError && !versions.isFetchNextPageError ? <LoadFailed className="mb-3" title={t('restore.loadFailed')} {...failedRead(t, versions.error)} onRetry={() => void versions.refetch()} /> : null}
        <ol
          aria-label={t('restore.list')}
          aria-busy={versions.isFetching || undefined}
          className="divide-y divide-surface-200 overflow-hidden rounded-xl border border-surface-200 bg-white dark:divide-surface-800 dark:border-surface-800 dark:bg-surface-900"
        >
          {items.map((item, index) => (
            <VersionItem
              key={item.version}
              server={server}
              item={item}
              current={liveData?.version === item.version}
              selected={selected === item.version}
              now={now}
              onChoose={() => {
                chosenByReader.current = true;
              }}
              focusRef={firstNewIndex !== null && index === firstNewIndex ? firstNew : undefined}
            />
          ))}
        </ol>
        <div className="mt-3 flex flex-col items-center gap-2">
          <p className="text-xs text-surface-600 dark:text-surface-400">{t('restore.shown', { count: items.length })}</p>
          {versions.isFetchNextPageError ? (
            <LoadFailed className="w-full" title={t('restore.moreFailed')} {...failedRead(t, versions.error)} onRetry={loadMore} />
          ) : versions.hasNextPage ? (
            <Button variant="secondary" size="sm" loading={versions.isFetchingNextPage} onClick={loadMore}>
              {t('restore.loadMore')}
            </Button>
          ) : (
            <p className="text-xs text-surface-500 dark:text-surface-400">{t('restore.end')}</p>
          )}
        </div>
      </>
    );
  }

  let detail: ReactNode;
  if (!liveData) {
    detail = live.isError ? <LoadFailed title={t('restore.liveFailed')} {...failedRead(t, live.error)} onRetry={() => void live.refetch()} /> : <Skeleton className="h-40 w-full" />;
  } else if (selected === null) {
    detail = empty ? null : (
        <div className="flex min-h-40 items-center justify-center rounded-xl border border-dashed border-surface-300 p-6 text-center text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">
          {t('restore.choose')}
        </div>
      );
  } else {
    detail = (
      <Card className="p-4 sm:p-5">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <VersionView
          key={selected}
          server={server}
          version={selected}
          live={liveData}
          canWrite={canWrite}
          readOnlyReason={readOnlyReason}
          focusOnLoad={chosenByReader.current}
          onRestored={(answer, from) => afterApply(answer, { kind: 'restore', from: { version: from } })}
          onReload={reload}
          />
        </Suspense>
      </Card>
    );
  }

  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <History aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('sidebar.serverRestoreConfigs')}</span>
          </span>
        }
        description={description}
        actions={
          <>
            {liveData && liveData.version > 0 ? (
              <ExportLink server={server} nameVersion={liveData.version} label={t('restore.export.live', { version: liveData.version })} description={t('restore.export.hint')} />
            ) : null}
            <Button
              variant="secondary"
              className="self-start"
              onClick={() => {
                const section = importRef.current;
                section?.scrollIntoView?.({ block: 'start' });
                section?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
              }}
            >
              <FileUp aria-hidden="true" className="size-4" />
              {t('restore.import.open')}
            </Button>
          </>
        }
      />
      <p className="-mt-4 mb-4 text-xs text-surface-500 dark:text-surface-400">{t('restore.timeZone', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })}</p>

      <div aria-live="polite">
        {applied ? <AppliedNotice server={server} applied={applied} onClose={() => setApplied(null)} /> : null}
        {wasReset ? <ResetNotice server={server} answer={wasReset.answer} from={wasReset.from} onClose={() => setWasReset(null)} /> : null}
      </div>

      <div className={cx('grid gap-6', !empty && 'lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]')}>
        <section aria-labelledby="restore-versions-title" className="min-w-0">
          <h2 id="restore-versions-title" className="mb-3 text-lg font-semibold text-surface-900 dark:text-surface-50">
            {t('restore.versions')}
          </h2>
          {versionsContent}
        </section>
        {detail ? <div className="min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">{detail}</div> : null}
      </div>

      <div ref={importRef} className="mt-8 scroll-mt-4">
        <ImportFile
          server={server}
          canWrite={canImport}
          readOnlyReason={importReason}
          onImported={(answer: ServerConfigAnswer, preview: ImportPreview) => afterApply(answer, { kind: 'import', from: { version: preview.from.version, server: preview.from.serverName } })}
        />
      </div>

      <ResetSection
        server={server}
        serverName={serverName}
        live={liveData}
        canReset={canWrite && panelsWrite.canWrite}
        reason={resetReason}
        onConflict={reload}
        onReset={(answer, from) => {
          setApplied(null);
          setWasReset({ answer, from });
          chosenByReader.current = false;
          navigate(href('/dashboard/:server/server-configs', { server }, { version: answer.version }));
        }}
      />
    </div>
  );
}

import { failureText, formatDateTime, useAppDispatch } from '@tickety/shared';
import { AnnouncementText, SeverityIcon } from '@tickety/shared/announcement-text';
import { Alert, Badge, Button, EmptyState, LoadFailed, PageHeader, Skeleton, Table, type TableColumn, type Tone } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import Megaphone from 'lucide-react/icons/megaphone';
import Plus from 'lucide-react/icons/plus';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useHoldsFlag } from '../../components/notices';
import { Message, useT } from '../../lib/i18n';
import { AnnouncementForm, type SavedHow } from './announcement-form';
import { AnnouncementWithdrawDialog } from './announcement-withdraw-dialog';
import { type Announcement, announcementsApi, useStaffAnnouncementsInfiniteQuery, useWithdrawAnnouncementMutation } from './api';

/** The list reads itself again this often: a scheduled notice turns active, an active one ends. */
const ANNOUNCEMENTS_POLL_MS = 30_000;

const STATUS_TONE: Record<Announcement['status'], Tone> = { draft: 'neutral', scheduled: 'info', active: 'primary', ended: 'neutral', withdrawn: 'warning' };

/** What the page last did, said in its status region. */
type Done = { kind: 'saved'; how: SavedHow; notice: Announcement } | { kind: 'withdrawn'; notice: Announcement } | null;

const changeable = (a: Announcement) => a.status === 'draft' || a.status === 'scheduled' || a.status === 'active';

/**
 * /systemUpdate: announcements and maintenance notices, which the shell shows as a banner on every
 * page. Every notice with its status (DASHBOARD_SUPPORT_SYSTEM_READ, which guards the page); with
 * DASHBOARD_SUPPORT_SYSTEM_WRITE, a form to write, edit, schedule and publish them, and Withdraw after
 * a confirmation. Reads itself again every 30 s.
 */
export default function SystemUpdatePage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const canWrite = useHoldsFlag('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  const list = useStaffAnnouncementsInfiniteQuery(undefined, { pollingInterval: ANNOUNCEMENTS_POLL_MS, refetchOnMountOrArgChange: true });
  const rows = useMemo(() => (list.data?.pages ?? []).flatMap((p) => p.announcements), [list.data]);
  const ids = useId();
  const newButton = useRef<HTMLButtonElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [form, setForm] = useState<{ editing: Announcement | null } | null>(null);
  const [done, setDone] = useState<Done>(null);

  const [confirming, setConfirming] = useState<Announcement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [withdraw, withdrawState] = useWithdrawAnnouncementMutation();
  const [withdrawError, setWithdrawError] = useState<unknown>(undefined);

  const { refetch } = list;
  // Where focus goes once the change it follows is on the page (the form closed, the dialog gone).
  const pendingFocus = useRef<(() => HTMLElement | null | undefined) | null>(null);
  const focusLater = (target: () => HTMLElement | null | undefined) => {
    pendingFocus.current = target;
  };
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target || form || confirming) return;
    pendingFocus.current = null;
    target()?.focus();
  });

  const openForm = (editing: Announcement | null) => {
    setDone(null);
    setForm({ editing });
  };
  const closeForm = () => {
    setForm(null);
    focusLater(() => newButton.current ?? listHeading.current);
  };
  const saved = (notice: Announcement, how: SavedHow) => {
    setForm(null);
    setDone({ kind: 'saved', how, notice });
    focusLater(() => newButton.current ?? listHeading.current);
  };

  const ask = (notice: Announcement) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setWithdrawError(undefined);
    withdrawState.reset();
    setConfirming(notice);
  };
  const cancelWithdraw = () => {
    setConfirming(null);
    const target = opener.current;
    opener.current = null;
    focusLater(() => (target?.isConnected ? target : listHeading.current));
  };
  const confirmWithdraw = async () => {
    if (!confirming) return;
    const notice = confirming;
    try {
      const withdrawn = await withdraw({ id: notice.id, version: notice.version }).unwrap();
      dispatch(
        announcementsApi.util.updateQueryData('staffAnnouncements', undefined, (draft) => {
          for (const page of draft.pages) page.announcements = page.announcements.map((a) => (a.id === withdrawn.id ? withdrawn : a));
        }),
      );
      setConfirming(null);
      setDone({ kind: 'withdrawn', notice: withdrawn });
      opener.current = null;
      focusLater(() => listHeading.current);
    } catch (error) {
      // A 409 (changed meanwhile) reads the list again through the mutation's tags.
      setWithdrawError(error);
    }
  };

  let body: ReactNode;
  if (!list.data) {
    body = list.isError ? (
      <LoadFailed title={t('announcements.loadFailed')} reason={failureText(list.error)} retryLabel={t('announcements.retry')} onRetry={() => void refetch()} />
    ) : (
      <div role="status" aria-busy="true" className="space-y-3">
        <span className="sr-only">{t('announcements.loading')}</span>
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  } else {
    body = (
      <div className="space-y-4">
        {list.isError ? (
          <LoadFailed tone="warning" title={t('announcements.refreshFailed')} reason={failureText(list.error)} retryLabel={t('announcements.retry')} onRetry={() => void refetch()} />
        ) : null}
        <AnnouncementTable
          rows={rows}
          canWrite={canWrite && form === null}
          onEdit={openForm}
          onWithdraw={ask}
          empty={
            <EmptyState
              icon={<Megaphone className="size-6" aria-hidden="true" />}
              title={t('announcements.empty.title')}
              description={canWrite ? t('announcements.empty.write') : t('announcements.empty.read', { label: t('flags.systemWrite.label') })}
            />
          }
        />
        {list.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="secondary" aria-disabled={list.isFetchingNextPage || undefined} onClick={() => (list.isFetchingNextPage ? undefined : void list.fetchNextPage())}>
              {list.isFetchingNextPage ? t('announcements.loadingMore') : t('announcements.loadMore')}
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={t('title.systemUpdate')} description={t('systemUpdate.description')} />
      <div className="space-y-6">
        {canWrite ? null : (
          <Alert tone="info" title={t('announcements.readOnly.title')}>
            <Message k="announcements.readOnly.body" values={{ label: t('flags.systemWrite.label') }} components={{ code: <code className="font-mono text-xs break-all" /> }} />
          </Alert>
        )}
        <p role="status" aria-live="polite" className={done ? undefined : 'sr-only'}>
          {done ? (
            <span className="flex items-start gap-2 rounded-lg border border-primary-300 bg-primary-50 p-3 text-sm text-primary-900 dark:border-primary-800 dark:bg-primary-950 dark:text-primary-100">
              <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {done.kind === 'withdrawn' ? t('announcements.done.withdrawn', { id: done.notice.id }) : t(`announcements.done.${done.how}`, { id: done.notice.id })}
            </span>
          ) : null}
        </p>
        {form ? (
          <AnnouncementForm key={form.editing?.id ?? 'new'} editing={form.editing} onSaved={saved} onCancel={closeForm} />
        ) : canWrite ? (
          <div>
            <Button ref={newButton} onClick={() => openForm(null)}>
              <Plus className="size-4" aria-hidden="true" />
              {t('announcements.new')}
            </Button>
          </div>
        ) : null}
        <section aria-labelledby={`${ids}-list`} className="space-y-3">
          <h2 ref={listHeading} id={`${ids}-list`} tabIndex={-1} className="text-lg font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
            {t('announcements.list.heading')}
          </h2>
          {body}
        </section>
      </div>
      {confirming ? (
        <AnnouncementWithdrawDialog notice={confirming} busy={withdrawState.isLoading} error={withdrawError} onConfirm={() => void confirmWithdraw()} onCancel={cancelWithdraw} />
      ) : null}
    </div>
  );
}

function When({ notice }: { notice: Announcement }) {
  const t = useT();
  const time = (at: string) => (
    <time dateTime={at} className="whitespace-nowrap">
      {formatDateTime(at)}
    </time>
  );
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      <dt className="text-surface-600 dark:text-surface-400">{t('announcements.list.from')}</dt>
      <dd>{notice.startsAt ? time(notice.startsAt) : t('announcements.list.whenPublished')}</dd>
      <dt className="text-surface-600 dark:text-surface-400">{t('announcements.list.until')}</dt>
      <dd>{notice.endsAt ? time(notice.endsAt) : t('announcements.list.untilWithdrawn')}</dd>
    </dl>
  );
}

function AnnouncementTable({
  rows,
  canWrite,
  onEdit,
  onWithdraw,
  empty,
}: {
  rows: Announcement[];
  canWrite: boolean;
  onEdit: (announcement: Announcement) => void;
  onWithdraw: (announcement: Announcement) => void;
  empty: ReactNode;
}) {
  const t = useT();
  const columns: Array<TableColumn<Announcement>> = [
    {
      key: 'notice',
      header: t('announcements.list.notice'),
      label: t('announcements.list.notice'),
      rowHeader: true,
      cell: (announcement) => (
        <div className="min-w-0 max-w-xl font-normal">
          <span className="mb-1 flex items-center gap-1.5 text-xs font-semibold text-surface-700 dark:text-surface-300">
            <SeverityIcon severity={announcement.severity} className="size-4" />
            {t(`announcements.severity.${announcement.severity}`)}
            <span className="font-normal text-surface-500 dark:text-surface-400">#{announcement.id}</span>
          </span>
          <AnnouncementText text={announcement.text} />
        </div>
      ),
    },
    { key: 'status', header: t('announcements.list.status'), label: t('announcements.list.status'), cell: (a) => <Badge tone={STATUS_TONE[a.status]}>{t(`announcements.status.${a.status}`)}</Badge> },
    { key: 'audience', header: t('announcements.list.audience'), label: t('announcements.list.audience'), cell: (a) => t(`announcements.audience.${a.audience}`) },
    { key: 'when', header: t('announcements.list.when'), label: t('announcements.list.when'), cell: (a) => <When notice={a} /> },
    {
      key: 'updated',
      header: t('announcements.list.updated'),
      label: t('announcements.list.updated'),
      cell: (announcement) => (
        <span className="text-xs">
          <time dateTime={announcement.updatedAt} className="whitespace-nowrap">
            {formatDateTime(announcement.updatedAt)}
          </time>
          <span className="block text-surface-600 dark:text-surface-400">{t('announcements.list.by', { name: announcement.updatedByName ?? announcement.updatedBy })}</span>
        </span>
      ),
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">{t('announcements.list.actions')}</span>,
      label: t('announcements.list.actions'),
      align: 'end',
      cell: (announcement) =>
        changeable(announcement) ? (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" size="sm" aria-label={t('announcements.edit', { id: announcement.id })} onClick={() => onEdit(announcement)}>
              {t('announcements.editShort')}
            </Button>
            <Button variant="secondary" size="sm" aria-label={t('announcements.withdraw.button', { id: announcement.id })} onClick={() => onWithdraw(announcement)}>
              {t('announcements.withdraw.short')}
            </Button>
          </div>
        ) : null,
    });
  }
  return <Table caption={t('announcements.list.caption')} columns={columns} rows={rows} rowKey={(a) => a.id} empty={empty} />;
}

import type { MultiPanel, Panel, PanelPost, PostKind, ServerConfig, ServerResources } from '@tickety/api-contract';
import { formatNumber, Link } from '@tickety/shared';
import { Alert, Badge, Button, buttonClasses, ConfirmDialog, cx, EmptyState, Skeleton, Table, type TableColumn } from '@tickety/ui';
import Copy from 'lucide-react/icons/copy';
import Gem from 'lucide-react/icons/gem';
import LayoutPanelTop from 'lucide-react/icons/layout-panel-top';
import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Send from 'lucide-react/icons/send';
import Trash2 from 'lucide-react/icons/trash-2';
import { lazy, memo, type ReactNode, Suspense, useId, useState } from 'react';
import { MiniPreview } from '../../components/mini-preview';
import { failureCode, failureDetail, failureText, isMissingRoute } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { editorCatalog, useT } from './i18n';
import { useAreaWrite } from '../../lib/server-access';
import { configApi, type LiveConfig, useSaveServerConfigMutation, useUpdatePostMutation } from './api';
import { offeredBy, withoutMultiPanel, withoutPanel } from './config-draft';
import { usePanelMenuReads } from './reads';

/**
 * From this many rows, a table renders only the rows on screen (a server on a large plan may have a
 * hundred panels: rendering them all makes every change of the list, and the way back from an
 * editor, one long task).
 */
const WINDOW_FROM = 20;
/** A row's height before it is measured: about a desktop row with its small preview. */
const ROW_HEIGHT = 112;

// The send dialog (with the searchable channel picker) is fetched when Send is pressed.
const SendDialog = lazy(() => Promise.all([import('./send-dialog'), editorCatalog.ready()]).then(([module]) => module));

type Kind = 'panel' | 'multi';

interface PendingDelete {
  kind: Kind;
  id: string;
  name: string;
}

/** Multi-panels a delete of panel `id` would leave with too few panels for their mode. */
function brokenByDelete(config: ServerConfig, id: string): MultiPanel[] {
  return offeredBy(config, id).filter((m) => m.panelIds.length - 1 < (m.mode === 'select' ? 2 : 1));
}

type PostsState = ReturnType<typeof configApi.endpoints.panelPosts.useQueryState>;

/** Where a panel is posted: a channel, "not sent", "message deleted in Discord", or not known. */
function PostedCell({ post, posts, resources }: { post: PanelPost | undefined; posts: PostsState; resources: ServerResources | undefined }) {
  const t = useT();
  if (posts.isLoading) return <Skeleton className="h-4 w-24" />;
  if (!posts.data) return <span className="text-surface-500 dark:text-surface-400">{t('list.posted.unknown')}</span>;
  if (!post) return <span className="text-surface-600 dark:text-surface-400">{t('list.posted.notSent')}</span>;
  const channel = resources?.channels.find((c) => c.id === post.channelId);
  const where = channel ? `#${channel.name}` : t('list.posted.channelId', { id: post.channelId });
  if (post.state === 'deleted') return <Badge tone="danger">{t('list.posted.deleted')}</Badge>;
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <span className="font-medium text-surface-800 dark:text-surface-200">{where}</span>
      {post.state === 'outdated' ? <Badge tone="warning">{t('list.posted.outdated')}</Badge> : null}
    </span>
  );
}

/** A link that looks like a button, or (when `disabledReason` is set) a focusable disabled button saying why. */
function ActionLink({ to, icon, children, disabledReasonId }: { to: string; icon: ReactNode; children: ReactNode; disabledReasonId?: string }) {
  if (disabledReasonId) {
    return (
      <Button size="sm" variant="ghost" aria-disabled="true" aria-describedby={disabledReasonId} onClick={(e) => e.preventDefault()} className="cursor-not-allowed opacity-50">
        {icon}
        {children}
      </Button>
    );
  }
  return (
    <Link to={to} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
      {icon}
      {children}
    </Link>
  );
}

/**
 * The list of panels and multi-panels: a small preview, the name, where each is posted and its
 * actions; the count against the server's panel limit; delete with a confirmation.
 */
export const PanelList = memo(function PanelList({ server, live, onFlash, onReload }: { server: string; live: LiveConfig; onFlash: (text: string) => void; onReload: () => void }) {
  const t = useT();
  const limitId = useId();
  const sendNoteId = useId();
  const readOnlyId = useId();
  // Read access only (a role's grant): every change is off and says why; the API refuses it anyway.
  const write = useAreaWrite('panels');
  const locked = write.canWrite ? undefined : readOnlyId;
  const { config, panelLimit, premium } = live;
  // Where panels are posted changes with every save (an update may be needed): the route reads it as
  // the page is entered and holds it, so a save's invalidation reads it anew.
  const posts = configApi.endpoints.panelPosts.useQueryState(server);
  const resources = configApi.endpoints.serverResources.useQueryState(server);
  const { refetchPosts } = usePanelMenuReads();
  const [save, saving] = useSaveServerConfigMutation();
  const [updatePost] = useUpdatePostMutation();
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [sending, setSending] = useState<{ kind: PostKind; id: string; name: string } | null>(null);
  const [updating, setUpdating] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; text: string; detail?: string | null; conflict: boolean } | null>(null);
  const channelName = (channelId: string) => {
    const channel = resources.data?.channels.find((c) => c.id === channelId);
    return channel ? `#${channel.name}` : t('list.posted.channelId', { id: channelId });
  };

  const atLimit = config.panels.length >= panelLimit;
  const overLimit = config.panels.length > panelLimit;
  const postOf = (kind: 'panel' | 'multiPanel', id: string) => posts.data?.posts.find((p) => p.kind === kind && p.id === id);
  const editHref = (kind: Kind, query: Record<string, string>) => href('/dashboard/:server/configs', { server }, { edit: kind, ...query });

  const confirmDelete = async () => {
    if (!pending) return;
    const next = pending.kind === 'panel' ? withoutPanel(config, pending.id) : withoutMultiPanel(config, pending.id);
    setFailure(null);
    try {
      const saved = await save({ server, expectedVersion: live.version, config: next }).unwrap();
      onFlash(t('list.deleted', { name: pending.name, version: saved.version }));
    } catch (error) {
      const code = failureCode(error);
      setFailure({
        title: code === 1013 ? t('list.conflictTitle') : t('list.deleteFailedTitle'),
        text: code === 1013 ? t('list.conflict', { message: failureText(error) }) : t('list.deleteFailed', { message: failureText(error) }),
        detail: code === 1013 ? null : failureDetail(error),
        conflict: code === 1013,
      });
    }
    setPending(null);
  };

  const update = async (kind: PostKind, id: string, name: string) => {
    setFailure(null);
    setUpdating(`${kind}:${id}`);
    try {
      const post = await updatePost({ server, kind, id }).unwrap();
      onFlash(t('list.updated', { name, channel: channelName(post.channelId) }));
    } catch (error) {
      setFailure({ title: t('list.updateFailedTitle', { name }), text: failureText(error), detail: failureDetail(error), conflict: false });
    } finally {
      setUpdating(null);
    }
  };

  /** Send, and Update when the message is in Discord; both off, saying why, while posts cannot be read. */
  const postActions = (kind: PostKind, id: string, name: string) => {
    const named = <span className="sr-only"> {t('list.action.named', { name })}</span>;
    if (!posts.data || locked) {
      return (
        <Button size="sm" variant="ghost" aria-disabled="true" aria-describedby={locked ?? sendNoteId} onClick={(e) => e.preventDefault()} className="cursor-not-allowed opacity-50">
          <Send aria-hidden="true" className="size-3.5" />
          {t('list.action.send')}
          {named}
        </Button>
      );
    }
    const post = postOf(kind, id);
    const live = post && post.state !== 'deleted';
    return (
      <>
        {live ? (
          <Button size="sm" variant={post.state === 'outdated' ? 'secondary' : 'ghost'} loading={updating === `${kind}:${id}`} onClick={() => void update(kind, id, name)}>
            {updating === `${kind}:${id}` ? null : <RefreshCw aria-hidden="true" className="size-3.5" />}
            {t('list.action.update')}
            {named}
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => setSending({ kind, id, name })}>
          <Send aria-hidden="true" className="size-3.5" />
          {post ? t('list.action.sendAgain') : t('list.action.send')}
          {named}
        </Button>
      </>
    );
  };

  /** Delete (confirmed), or off with the reason when the member may only read. */
  const deleteButton = (kind: Kind, id: string, name: string) => (
    <Button
      size="sm"
      variant="ghost"
      className={cx('text-red-700 dark:text-red-400', locked && 'cursor-not-allowed opacity-50')}
      aria-disabled={locked ? 'true' : undefined}
      aria-describedby={locked}
      onClick={() => (locked ? undefined : setPending({ kind, id, name }))}
    >
      <Trash2 aria-hidden="true" className="size-3.5" />
      {t('list.action.delete')}
      <span className="sr-only"> {t('list.action.named', { name })}</span>
    </Button>
  );

  const panelColumns: TableColumn<Panel>[] = [
    { key: 'preview', header: t('list.column.preview'), label: t('list.column.preview'), cell: (p) => <MiniPreview embed={p.embed} buttons={[p.button]} /> },
    {
      key: 'name',
      header: t('list.column.name'),
      label: t('list.column.name'),
      rowHeader: true,
      cell: (panel) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-semibold break-words text-surface-900 dark:text-surface-50">{panel.name}</span>
          <span className="text-xs text-surface-500 dark:text-surface-400">
            {panel.form.length > 0 ? t('list.formQuestions', { count: panel.form.length }) : t('list.noForm')}
          </span>
        </span>
      ),
    },
    { key: 'posted', header: t('list.column.posted'), label: t('list.column.posted'), cell: (p) => <PostedCell post={postOf('panel', p.id)} posts={posts} resources={resources.data} /> },
    {
      key: 'actions',
      header: t('list.column.actions'),
      label: t('list.column.actions'),
      align: 'end',
      cell: (panel) => (
        <span className="flex flex-wrap gap-1 sm:justify-end">
          <ActionLink to={editHref('panel', { id: panel.id })} icon={<Pencil aria-hidden="true" className="size-3.5" />}>
            {locked ? t('list.action.view') : t('list.action.edit')}
            <span className="sr-only"> {t('list.action.named', { name: panel.name })}</span>
          </ActionLink>
          <ActionLink to={editHref('panel', { copy: panel.id })} icon={<Copy aria-hidden="true" className="size-3.5" />} disabledReasonId={locked ?? (atLimit ? limitId : undefined)}>
            {t('list.action.duplicate')}
            <span className="sr-only"> {t('list.action.named', { name: panel.name })}</span>
          </ActionLink>
          {postActions('panel', panel.id, panel.name)}
          {deleteButton('panel', panel.id, panel.name)}
        </span>
      ),
    },
  ];

  const panelName = (id: string) => config.panels.find((p) => p.id === id)?.name ?? id;
  const multiColumns: TableColumn<MultiPanel>[] = [
    {
      key: 'preview',
      header: t('list.column.preview'),
      label: t('list.column.preview'),
      cell: (menu) => (
        <MiniPreview
          embed={menu.embed}
          buttons={menu.mode === 'buttons' ? menu.panelIds.flatMap((id) => config.panels.find((p) => p.id === id)?.button ?? []) : []}
          select={menu.mode === 'select' ? (menu.selectPlaceholder ?? t('preview.selectDefault')) : undefined}
        />
      ),
    },
    {
      key: 'name',
      header: t('list.column.name'),
      label: t('list.column.name'),
      rowHeader: true,
      cell: (menu) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-semibold break-words text-surface-900 dark:text-surface-50">{menu.name}</span>
          <span className="text-xs break-words text-surface-500 dark:text-surface-400">
            {t(menu.mode === 'select' ? 'list.multi.select' : 'list.multi.buttons', { count: menu.panelIds.length })}: {menu.panelIds.map(panelName).join(', ')}
          </span>
        </span>
      ),
    },
    { key: 'posted', header: t('list.column.posted'), label: t('list.column.posted'), cell: (m) => <PostedCell post={postOf('multiPanel', m.id)} posts={posts} resources={resources.data} /> },
    {
      key: 'actions',
      header: t('list.column.actions'),
      label: t('list.column.actions'),
      align: 'end',
      cell: (menu) => (
        <span className="flex flex-wrap gap-1 sm:justify-end">
          <ActionLink to={editHref('multi', { id: menu.id })} icon={<Pencil aria-hidden="true" className="size-3.5" />}>
            {locked ? t('list.action.view') : t('list.action.edit')}
            <span className="sr-only"> {t('list.action.named', { name: menu.name })}</span>
          </ActionLink>
          <ActionLink to={editHref('multi', { copy: menu.id })} icon={<Copy aria-hidden="true" className="size-3.5" />} disabledReasonId={locked}>
            {t('list.action.duplicate')}
            <span className="sr-only"> {t('list.action.named', { name: menu.name })}</span>
          </ActionLink>
          {postActions('multiPanel', menu.id, menu.name)}
          {deleteButton('multi', menu.id, menu.name)}
        </span>
      ),
    },
  ];

  const limitText = premium
    ? t('list.limit.premium', { count: config.panels.length, limit: panelLimit })
    : t('list.limit.free', { count: config.panels.length, limit: panelLimit });
  const broken = pending?.kind === 'panel' ? brokenByDelete(config, pending.id) : [];
  const offering = pending?.kind === 'panel' ? offeredBy(config, pending.id) : [];
  const pendingPost = pending ? postOf(pending.kind === 'panel' ? 'panel' : 'multiPanel', pending.id) : undefined;

  return (
    <div className="space-y-8">
      {write.reason ? (
        <Alert tone="info">
          <p id={readOnlyId}>{write.reason}</p>
        </Alert>
      ) : null}
      {failure ? (
        <Alert
          tone="danger"
          title={failure.title}
          actions={
            failure.conflict ? (
              <Button
                size="sm"
                onClick={() => {
                  setFailure(null);
                  onReload();
                }}
              >
                {t('common.reload')}
              </Button>
            ) : null
          }
        >
          <p>{failure.text}</p>
          {failure.detail ? <p className="mt-1">{failure.detail}</p> : null}
        </Alert>
      ) : null}

      <section aria-labelledby={`${limitId}-heading`}>
        <div className="mb-3 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="min-w-0">
            <h2 id={`${limitId}-heading`} className="text-lg font-semibold text-surface-900 dark:text-surface-50">
              {t('list.panels.title')}
            </h2>
            <p id={limitId} className="mt-1 text-sm text-surface-600 dark:text-surface-400">
              <span className={cx('font-semibold', atLimit ? 'text-amber-800 dark:text-amber-300' : 'text-surface-800 dark:text-surface-200')}>
                {t('list.limit.count', { count: config.panels.length, limit: formatNumber(panelLimit) })}
              </span>{' '}
              {limitText}{' '}
              {!premium ? (
                <Link to={href('/premium')} className="inline-flex items-center gap-1 font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 dark:text-primary-400">
                  <Gem aria-hidden="true" className="size-3.5" />
                  {t('list.limit.premiumLink')}
                </Link>
              ) : null}
            </p>
          </div>
          {config.panels.length > 0 ? (
            <ActionLinkPrimary to={editHref('panel', {})} disabledReasonId={locked ?? (atLimit ? limitId : undefined)}>
              {t('list.panels.create')}
            </ActionLinkPrimary>
          ) : null}
        </div>
        {overLimit ? (
          <Alert tone="warning" className="mb-3">
            {t('list.limit.over', { count: config.panels.length, limit: panelLimit, extra: config.panels.length - panelLimit })}
          </Alert>
        ) : null}
        {config.panels.length > 0 ? (
          <p id={sendNoteId} className="mb-3 text-xs text-surface-600 dark:text-surface-400">
            {posts.data
              ? t('list.send.hint')
              : posts.isError
                ? `${t('list.send.unavailable')} ${isMissingRoute(posts.error) ? t('list.posted.unavailable') : t('list.send.failed', { message: failureText(posts.error) })}`
                : null}
            {posts.isError && !isMissingRoute(posts.error) ? (
              <Button size="sm" variant="ghost" className="ml-2" onClick={refetchPosts}>
                {t('common.retry')}
              </Button>
            ) : null}
          </p>
        ) : null}
        <Table
          caption={t('list.panels.title')}
          columns={panelColumns}
          rows={config.panels}
          rowKey={(p) => p.id}
          windowFrom={WINDOW_FROM}
          rowHeightEstimate={ROW_HEIGHT}
          empty={
            <EmptyState icon={<LayoutPanelTop aria-hidden="true" className="size-6" />} title={t('list.empty.title')} description={t('list.empty.description')}>
              {locked ? null : (
                <Link to={editHref('panel', {})} className={buttonClasses()}>
                  <Plus aria-hidden="true" className="size-4" />
                  {t('list.empty.create')}
                </Link>
              )}
            </EmptyState>
          }
        />
      </section>

      <section aria-labelledby={`${limitId}-multi`}>
        <div className="mb-3 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="min-w-0">
            <h2 id={`${limitId}-multi`} className="text-lg font-semibold text-surface-900 dark:text-surface-50">
              {t('list.multi.title')}
            </h2>
            <p id={`${limitId}-multi-hint`} className="mt-1 text-sm text-surface-600 dark:text-surface-400">
              {config.panels.length === 0 ? t('list.multi.needPanels') : t('list.multi.hint')}
            </p>
          </div>
          <ActionLinkPrimary to={editHref('multi', {})} variant="secondary" disabledReasonId={locked ?? (config.panels.length === 0 ? `${limitId}-multi-hint` : undefined)}>
            {t('list.multi.create')}
          </ActionLinkPrimary>
        </div>
        <Table
          caption={t('list.multi.title')}
          columns={multiColumns}
          rows={config.multiPanels}
          rowKey={(m) => m.id}
          windowFrom={WINDOW_FROM}
          rowHeightEstimate={ROW_HEIGHT}
          empty={<p className="rounded-lg border border-dashed border-surface-300 px-4 py-6 text-center text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">{t('list.multi.empty')}</p>}
        />
      </section>

      {sending ? (
        <Suspense fallback={null}>
          <SendDialog
            server={server}
            kind={sending.kind}
            id={sending.id}
            name={sending.name}
            version={live.version}
            postedIn={(() => {
              const post = postOf(sending.kind, sending.id);
              return post && post.state !== 'deleted' ? channelName(post.channelId) : null;
            })()}
            onClose={() => setSending(null)}
            onSent={(text) => {
              setSending(null);
              onFlash(text);
            }}
          />
        </Suspense>
      ) : null}

      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(pending.kind === 'panel' ? 'list.delete.titlePanel' : 'list.delete.titleMulti', { name: pending.name }) : ''}
        confirmLabel={broken.length > 0 ? null : t('list.delete.confirm')}
        cancelLabel={broken.length > 0 ? t('common.close') : t('common.cancel')}
        busy={saving.isLoading}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirmDelete()}
      >
        {broken.length > 0 ? (
          <p className="font-medium text-red-700 dark:text-red-400">{t('list.delete.blocked', { names: broken.map((m) => m.name).join(', ') })}</p>
        ) : (
          <>
            <p>{t('list.delete.body')}</p>
            {offering.length > 0 ? <p>{t('list.delete.offered', { names: offering.map((m) => m.name).join(', ') })}</p> : null}
            {pendingPost && pendingPost.state !== 'deleted' ? <p>{t('list.delete.posted')}</p> : null}
          </>
        )}
      </ConfirmDialog>
    </div>
  );
});

function ActionLinkPrimary({ to, children, disabledReasonId, variant = 'primary' }: { to: string; children: ReactNode; disabledReasonId?: string; variant?: 'primary' | 'secondary' }) {
  if (disabledReasonId) {
    return (
      <Button variant={variant} aria-disabled="true" aria-describedby={disabledReasonId} onClick={(e) => e.preventDefault()} className="cursor-not-allowed opacity-50">
        <Plus aria-hidden="true" className="size-4" />
        {children}
      </Button>
    );
  }
  return (
    <Link to={to} className={buttonClasses({ variant })}>
      <Plus aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}

import { NavLink, useNavigate, useParams, useSearchParams } from '@tickety/shared';
import { Alert, Button, PageHeader, Skeleton } from '@tickety/ui';
import History from 'lucide-react/icons/history';
import LayoutPanelTop from 'lucide-react/icons/layout-panel-top';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { ListSkeleton } from '../../components/list-skeleton';
import { failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { HealthSummary } from '../health/summary';
import { editorCatalog, useT } from './i18n';
import { useServerName } from '../../lib/server-access';
import { configApi, type LiveConfig } from './api';
import { type MenuView, queryOf, viewKey, viewOf } from './config-draft';
import { PanelList } from './panel-list';
import { tabClasses } from './tab-classes';
import { usePanelMenuReads } from './reads';
import type { DraftStash } from './stash';

// The editors, the live preview, the shared schema (zod) and the markdown parser: one chunk, fetched
// when an editor opens, so the list stays small.
const MenuEditor = lazy(() => Promise.all([import('./editor'), editorCatalog.ready()]).then(([module]) => module));

function EditorSkeleton() {
  const t = useT();
  return (
    <div aria-busy="true" className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <span role="status" className="sr-only">
        {t('editor.loading')}
      </span>
      <div className="space-y-4">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** The two parts of the page: panels (list and editors) and the server's general settings with dashboard access. */
function MenuTabs({ server, view }: { server: string; view: MenuView }) {
  const t = useT();
  const onSettings = view.kind === 'settings';
  return (
    <nav aria-label={t('menu.tabs')} className="mb-6 flex gap-1 overflow-x-auto border-b border-surface-200 dark:border-surface-800">
      <NavLink to={href('/dashboard/:server/configs', { server })} end className={() => tabClasses(!onSettings)} aria-current={!onSettings ? 'page' : undefined}>
        {t('menu.tab.panels')}
      </NavLink>
      <NavLink to={href('/dashboard/:server/configs', { server }, { tab: 'settings' })} className={() => tabClasses(onSettings)} aria-current={onSettings ? 'page' : undefined}>
        {t('menu.tab.settings')}
      </NavLink>
    </nav>
  );
}

/**
 * Panel Menu (/dashboard/:server/configs): the server's panels and multi-panels, their editors with a
 * live Discord preview, and the general settings with dashboard access by role. Where the page is
 * lives in the address (`?edit=panel&id=…`, `?edit=multi`, `?tab=settings`), so Back and a shared link
 * work; the editors are one lazily loaded chunk.
 */
export default function ServerConfigs() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // The view follows the address one render behind: a click on Edit or Back paints at once, and
  // swapping the list (100 panels) for an editor happens in a background render.
  const view = viewOf(useDeferredValue(params));
  const key = viewKey(view);
  // The route (route.tsx) started the read as the page was entered, and reads it anew each visit.
  const config = configApi.endpoints.serverConfig.useQueryState(server, { skip: server === '' });
  const { refetchConfig } = usePanelMenuReads();
  // The first list (or editor) renders in the background, sliced, not in the one task the
  // configuration's arrival runs in; later changes of the configuration show at once.
  const loaded = useDeferredValue(config.data !== undefined);
  // A draft whose editor was left without the warning (the browser's Back): kept until the user decides.
  const [stash, setStash] = useState<DraftStash | null>(null);
  const [flash, setFlash] = useState<{ key: string; text: string } | null>(null);

  // A confirmation belongs to the view it was made in.
  useEffect(() => setFlash((current) => (current && current.key === key ? current : null)), [key]);

  const go = useCallback((next: MenuView, replace = false) => navigate(href('/dashboard/:server/configs', { server }, queryOf(next)), { replace }), [navigate, server]);
  const onSaved = useCallback(
    (live: LiveConfig, next: MenuView) => {
      setStash(null);
      setFlash({ key: viewKey(next), text: t('editor.saved', { version: live.version }) });
      if (viewKey(next) !== key) go(next, true);
    },
    [go, key, t],
  );

  const onListFlash = useCallback((text: string) => setFlash({ key: 'list', text }), []);
  const reload = useCallback(() => void refetchConfig().catch(() => {}), [refetchConfig]);

  const description = t('server.configs.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' });
  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <LayoutPanelTop aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('sidebar.serverConfigs')}</span>
          </span>
        }
        description={description}
      />
      <MenuTabs server={server} view={view} />

      {config.data === undefined || !loaded ? (
        config.isError ? (
          <Alert
            tone="danger"
            title={t('menu.loadFailed')}
            actions={
              <Button variant="secondary" size="sm" onClick={reload}>
                {t('common.retry')}
              </Button>
            }
          >
            {failureText(config.error)}
          </Alert>
        ) : (
          <ListSkeleton label={t('menu.loading')} rows={3} lead="preview" heading />
        )
      ) : view.kind === 'list' ? (
        <>
          {flash && flash.key === 'list' ? (
            <Alert tone="primary" className="mb-4">
              {flash.text}
            </Alert>
          ) : null}
          {stash ? (
            <Alert
              tone="warning"
              icon={<History aria-hidden="true" className="size-4" />}
              title={t('menu.stash.title', { name: stash.label })}
              className="mb-6"
              actions={
                <>
                  <Button size="sm" onClick={() => go(stash.view)}>
                    {t('menu.stash.resume')}
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => setStash(null)}>
                    {t('menu.stash.discard')}
                  </Button>
                </>
              }
            >
              {t('menu.stash.body')}
            </Alert>
          ) : null}
          <HealthSummary server={server} />
          <PanelList server={server} live={config.data} onFlash={onListFlash} onReload={reload} />
        </>
      ) : (
        <Suspense fallback={<EditorSkeleton />}>
          <MenuEditor
            key={key}
            server={server}
            view={view}
            live={config.data}
            restored={stash && stash.key === key ? stash : null}
            flash={flash && flash.key === key ? flash.text : null}
            onRestored={() => setStash(null)}
            onLeftDirty={setStash}
            onSaved={onSaved}
            onRefetch={refetchConfig}
          />
        </Suspense>
      )}
    </div>
  );
}

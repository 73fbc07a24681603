import { type AnyRemoteRoutesModule, type RemoteId, type RouteHandle, remoteScopeClass, siteHref } from '@tickety/shared';
import { Spinner } from '@tickety/ui';
import { Component, type ErrorInfo, type ReactNode, Suspense, startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { useMatches, useNavigate } from 'react-router-dom';
import { PageShown } from '../app/page-shown';
import { pageShown } from '../app/takeover';
import { useT } from '../lib/i18n';
import { ErrorPanel } from '../overlay/error-panel';
import { RemoteLoadError } from './errors';
import { loadRemoteRoutes, peekRemoteRoutes } from './registry';

type State = { status: 'loading' } | { status: 'ready'; module: AnyRemoteRoutesModule } | { status: 'failed'; error: unknown };

/** Loads a remote's routes module on first use; `retry` tries again (the registry never caches a failure). */
export function useRemoteRoutes(id: RemoteId) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(() => {
    const module = peekRemoteRoutes(id) as AnyRemoteRoutesModule | undefined;
    return module ? { status: 'ready', module } : { status: 'loading' };
  });
  // `attempt` is a dependency on purpose: bumping it (Retry) runs the load again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    const module = peekRemoteRoutes(id) as AnyRemoteRoutesModule | undefined;
    if (module) {
      setState({ status: 'ready', module });
      return;
    }
    let alive = true;
    setState({ status: 'loading' });
    loadRemoteRoutes(id).then(
      // Rendering the arrived page is a transition too: sliced, never one long task.
      (m) => alive && startTransition(() => setState({ status: 'ready', module: m as AnyRemoteRoutesModule })),
      (error: unknown) => alive && setState({ status: 'failed', error }),
    );
    return () => {
      alive = false;
    };
  }, [id, attempt]);
  return { state, attempt, retry: () => setAttempt((a) => a + 1) };
}

export function PageSpinner() {
  const t = useT();
  return (
    <div className="flex justify-center py-24">
      <Spinner size="lg" label={t('remote.loading')} />
    </div>
  );
}

/**
 * The error overlay for a part of the site that could not be loaded, shown on that remote's routes
 * only. Retry loads it again; if that fails too, Retry reloads the whole page (which also picks up a
 * remote redeployed under an open tab).
 */
export function RemoteFailed({ remote, error, attempt, retry }: { remote: RemoteId; error: unknown; attempt: number; retry: () => void }) {
  const navigate = useNavigate();
  const t = useT();
  // The detail is technical (the loader's own words), for a bug report: not translated.
  const detail = error instanceof RemoteLoadError && error.cause instanceof Error ? error.cause.message : null;
  return (
    <div className="flex justify-center px-4 py-16">
      <ErrorPanel
        title={t('remote.failed.title')}
        message={t('remote.failed.message', { remote })}
        detail={detail ? `remote ${remote}: ${detail.slice(0, 160)}` : null}
        actions={[
          { label: t('actions.retry'), primary: true, onClick: attempt >= 1 ? () => window.location.reload() : retry },
          { label: t('actions.home'), onClick: () => navigate(siteHref('/')) },
        ]}
      />
    </div>
  );
}

/** Catches a page that throws while rendering or whose chunk fails to download. */
class PageBoundary extends Component<{ remote: RemoteId; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`A page of the ${this.props.remote} remote failed`, error, info.componentStack);
  }
  override render() {
    if (this.state.error) return <RemoteFailed remote={this.props.remote} error={this.state.error} attempt={1} retry={() => window.location.reload()} />;
    return this.props.children;
  }
}

/** Renders the page named by the innermost route handle ({ remote, page }) from its remote. */
export function RemotePage() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  if (handle?.remote && handle.unavailable) return <Unavailable remote={handle.remote} reason={handle.unavailable} />;
  if (!handle?.remote || !handle.page) throw new Error('RemotePage needs a route handle with remote and page');
  return <LoadedPage key={handle.remote} remote={handle.remote} page={handle.page} />;
}

/** A refused route table: that remote's addresses say so (the reason is in the console too). */
function Unavailable({ remote, reason }: { remote: RemoteId; reason: string }) {
  const navigate = useNavigate();
  const t = useT();
  return (
    <div className="flex justify-center px-4 py-16">
      <ErrorPanel
        title={t('remote.failed.title')}
        message={t('remote.unavailable.message', { remote })}
        detail={reason.slice(0, 200)}
        actions={[
          { label: t('actions.retry'), primary: true, onClick: () => window.location.reload() },
          { label: t('actions.home'), onClick: () => navigate(siteHref('/')) },
        ]}
      />
    </div>
  );
}

function LoadedPage({ remote, page }: { remote: RemoteId; page: string }) {
  const { state, attempt, retry } = useRemoteRoutes(remote);
  const failed = state.status === 'failed';
  // An error in place of the page is shown at once too (never a prerendered page that does not work).
  useLayoutEffect(() => {
    if (failed) pageShown();
  }, [failed]);
  if (state.status === 'loading') return <PageSpinner />;
  if (state.status === 'failed') return <RemoteFailed remote={remote} error={state.error} attempt={attempt} retry={retry} />;
  const route = (state.module.routes as Record<string, { Component: React.ComponentType } | undefined>)[page];
  if (!route) return <RemoteFailed remote={remote} error={new Error(`page ${page} is missing`)} attempt={1} retry={retry} />;
  const Page = route.Component;
  return (
    <PageBoundary key={page} remote={remote}>
      <Suspense fallback={<PageSpinner />}>
        {/* The remote's stylesheet applies inside this element only (display: contents, no box of its own). */}
        <div className={`${remoteScopeClass(remote)} contents`}>
          <Page />
        </div>
        <PageShown />
      </Suspense>
    </PageBoundary>
  );
}

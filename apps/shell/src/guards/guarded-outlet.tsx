import { evaluateGuard, loadUser, login, loginButtonLabel, type RouteHandle, selectAuth, siteHref, useAppDispatch, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Button, buttonClasses, EmptyState, Spinner } from '@tickety/ui';
import { LockKeyhole, ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Link, Outlet, useLocation, useMatches } from 'react-router-dom';
import { useT } from '../lib/i18n';

/** The handles of every matched route, outer to inner. */
export function useHandles(): Array<RouteHandle | undefined> {
  return useMatches().map((m) => m.handle as RouteHandle | undefined);
}

/** docs/behaviour.md#request-overlay-and-error-catalogue 'Login Required' with its 'Login with discord' button, in the page (not an overlay). */
export function LoginRequired() {
  const dispatch = useAppDispatch();
  const t = useT();
  return (
    <EmptyState icon={<LockKeyhole aria-hidden="true" className="size-6" />} title={t('guard.loginRequired.title')} description={t('guard.loginRequired.description')}>
      <Button variant="discord" onClick={() => void dispatch(login())}>
        {loginButtonLabel()}
      </Button>
    </EmptyState>
  );
}

export function Forbidden({ permissions }: { permissions: string[] }) {
  const { productName } = useRuntimeConfig();
  const t = useT();
  return (
    <EmptyState
      icon={<ShieldAlert aria-hidden="true" className="size-6" />}
      title={t('guard.forbidden.title')}
      // The permissions are code identifiers: listed as they are, in any language.
      description={t('guard.forbidden.description', { product: productName, count: permissions.length, permissions: permissions.join(', ') })}
    >
      <Link to={siteHref('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
        {t('guard.forbidden.back')}
      </Link>
    </EmptyState>
  );
}

/**
 * The one guard (docs/behaviour.md#roles-and-guards): reads `requiresAuth` and `permission` from the matched routes' handles
 * (evaluateGuard in @tickety/shared) and renders the page, a spinner while the first user load runs,
 * 'Login Required', or a no-permission screen. Pages never re-check; the API checks again anyway.
 * A staff page decides on fresh flags: each navigation to one reloads the user (the page shows
 * meanwhile; a flag revoked since the last load turns it into the no-permission screen, and the
 * header's staff links follow).
 */
export function GuardedOutlet({ children }: { children?: ReactNode }) {
  const handles = useHandles();
  const auth = useAppSelector(selectAuth);
  const dispatch = useAppDispatch();
  const location = useLocation();
  const t = useT();
  const staffPage = handles.some((h) => h?.permission);
  const signedIn = auth.user !== null;
  const path = location.pathname;
  useEffect(() => {
    // Once per page reached (the path), not per query change (the support search types into ?q=).
    if (staffPage && signedIn && path) void dispatch(loadUser({ force: true }));
  }, [staffPage, signedIn, path, dispatch]);
  const decision = evaluateGuard(handles, auth);
  if (decision === 'allow') return children ?? <Outlet />;
  if (decision === 'pending') {
    return (
      <div className="flex justify-center py-24">
        <Spinner size="lg" label={t('guard.checking')} />
      </div>
    );
  }
  if (decision === 'login') return <LoginRequired />;
  const permissions = handles.flatMap((h) => (h?.permission ? [h.permission] : []));
  return <Forbidden permissions={permissions} />;
}

import { evaluateGuard, LOGIN_BUTTON_LABEL, login, type RouteHandle, selectAuth, useAppDispatch, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import type { ReactNode } from 'react';
import { Button, buttonClasses, EmptyState, Spinner } from '@tickety/ui';
import { LockKeyhole, ShieldAlert } from 'lucide-react';
import { Link, Outlet, useMatches } from 'react-router-dom';

/** The handles of every matched route, outer to inner. */
export function useHandles(): Array<RouteHandle | undefined> {
  return useMatches().map((m) => m.handle as RouteHandle | undefined);
}

/** Spec §8 'Login Required' with its 'Login with discord' button, in the page (not an overlay). */
export function LoginRequired() {
  const dispatch = useAppDispatch();
  return (
    <EmptyState icon={<LockKeyhole aria-hidden="true" className="size-6" />} title="Login Required" description="Log in with your Discord account to see this page. We only ask Discord for your name, avatar and server list.">
      <Button variant="discord" onClick={() => void dispatch(login())}>
        {LOGIN_BUTTON_LABEL}
      </Button>
    </EmptyState>
  );
}

export function Forbidden({ permissions }: { permissions: string[] }) {
  const { productName } = useRuntimeConfig();
  return (
    <EmptyState
      icon={<ShieldAlert aria-hidden="true" className="size-6" />}
      title="You don't have permission to view this page"
      description={`This page is for ${productName} staff holding the permission ${permissions.join(' and ')}. If you think you should have access, ask a team manager.`}
    >
      <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
        Go to your servers
      </Link>
    </EmptyState>
  );
}

/**
 * The one guard (spec §6): reads `requiresAuth` and `permission` from the matched routes' handles
 * (evaluateGuard in @tickety/shared) and renders the page, a spinner while the first user load runs,
 * 'Login Required', or a no-permission screen. Pages never re-check; the API checks again anyway.
 */
export function GuardedOutlet({ children }: { children?: ReactNode }) {
  const handles = useHandles();
  const auth = useAppSelector(selectAuth);
  const decision = evaluateGuard(handles, auth);
  if (decision === 'allow') return children ?? <Outlet />;
  if (decision === 'pending') {
    return (
      <div className="flex justify-center py-24">
        <Spinner size="lg" label="Checking your session…" />
      </div>
    );
  }
  if (decision === 'login') return <LoginRequired />;
  const permissions = handles.flatMap((h) => (h?.permission ? [h.permission] : []));
  return <Forbidden permissions={permissions} />;
}

import { LOGIN_BUTTON_LABEL, login, logout, selectAuth, useAppDispatch, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Button, buttonClasses, Card, Spinner } from '@tickety/ui';
import { Compass, LogIn, LogOut as LogOutIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useRouteError, useSearchParams } from 'react-router-dom';
import { PageShown } from '../app/page-shown';

/** The 404 page (title 'Not Found'), inside the public layout. */
export function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Compass aria-hidden="true" className="size-12 text-primary-600" />
      <p className="mt-6 text-sm font-semibold tracking-widest text-primary-700 uppercase dark:text-primary-400">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-surface-900 dark:text-surface-50">Page not found</h1>
      <p className="mt-3 text-surface-600 dark:text-surface-400">There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses()}>
          Back to home
        </Link>
        <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
          Your servers
        </Link>
      </div>
      {/* It arrives prerendered too (prerender.tsx). */}
      <PageShown />
    </section>
  );
}

/** A same-origin path to return to after login, or null (never an open redirect). */
export function safeNext(next: string | null): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** /login: opens the Discord sign-in popup on a click (browsers block popups without one). */
export function LoginPage() {
  const auth = useAppSelector(selectAuth);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { productName } = useRuntimeConfig();
  const next = safeNext(params.get('next')) ?? '/dashboard';
  const [busy, setBusy] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  if (auth.user) {
    return (
      <div className="mx-auto max-w-md px-4 py-24">
        <Card className="p-8 text-center">
          <h1 className="text-2xl font-bold text-surface-900 dark:text-surface-50">You're logged in</h1>
          <p className="mt-2 text-surface-600 dark:text-surface-400">as {auth.user.globalName ?? auth.user.username}.</p>
          <Link to={next} className={buttonClasses({ className: 'mt-6' })}>
            Continue
          </Link>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-24">
      <Card className="p-8 text-center">
        <LogIn aria-hidden="true" className="mx-auto size-10 text-primary-600" />
        <h1 className="mt-4 text-2xl font-bold text-surface-900 dark:text-surface-50">Log in to {productName}</h1>
        <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
          Sign in with Discord in a small window. We ask only for your name, avatar and the list of your servers, never your messages or email.
        </p>
        <Button
          variant="discord"
          size="lg"
          className="mt-6 w-full"
          loading={busy}
          onClick={async () => {
            setBusy(true);
            setCancelled(false);
            const result = await dispatch(login());
            setBusy(false);
            if (login.fulfilled.match(result) && result.payload) navigate(next, { replace: true });
            else setCancelled(true);
          }}
        >
          {LOGIN_BUTTON_LABEL}
        </Button>
        {cancelled ? (
          <p role="status" className="mt-4 text-sm text-surface-600 dark:text-surface-400">
            The login window was closed before you signed in. Try again when you are ready.
          </p>
        ) : null}
      </Card>
    </div>
  );
}

/** /logout: ends the session on the server (spec §4), then offers the way home. */
export function LogoutPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.auth.user);
  const started = useRef(false);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    dispatch(logout()).finally(() => setDone(true));
  }, [dispatch]);
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      {done && !user ? (
        <Card className="p-8">
          <LogOutIcon aria-hidden="true" className="mx-auto size-10 text-primary-600" />
          <h1 className="mt-4 text-2xl font-bold text-surface-900 dark:text-surface-50">You're logged out</h1>
          <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">Your session has ended on our side too.</p>
          <Link to="/" className={buttonClasses({ className: 'mt-6' })}>
            Back to home
          </Link>
        </Card>
      ) : (
        <>
          <h1 className="sr-only">Logging out</h1>
          <Spinner size="lg" label="Logging you out…" />
        </>
      )}
    </div>
  );
}

/** /docs: the external documentation site. */
export function DocsRedirect() {
  const { docsUrl } = useRuntimeConfig();
  useEffect(() => {
    window.location.replace(docsUrl);
  }, [docsUrl]);
  return (
    <div className="py-24 text-center">
      <Spinner label="Opening the documentation…" />
      <p className="mt-4 text-sm">
        <a className="underline" href={docsUrl}>
          Open the documentation
        </a>
      </p>
    </div>
  );
}

/** /subscriptions/:user -> /billing/:user (the route's guard requires DASHBOARD_SUPPORT_SYSTEM_READ first). */
export function SubscriptionsUserRedirect() {
  const { user = '' } = useParams();
  return <Navigate to={`/billing/${encodeURIComponent(user)}`} replace />;
}

/** A route that threw while rendering (outside any remote): a clear message and a way out. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-2 text-surface-600 dark:text-surface-400">This page failed to display. Reloading usually fixes it; if not, our support server can help.</p>
      <div className="mt-6 flex justify-center gap-3">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <a href="/" className={buttonClasses({ variant: 'secondary' })}>
          Home
        </a>
      </div>
    </div>
  );
}

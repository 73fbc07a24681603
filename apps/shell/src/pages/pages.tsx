import { login, loginButtonLabel, logout, selectAuth, siteHref, useAppDispatch, useAppSelector, useRuntimeConfig } from '@tickety/shared';
import { Button, buttonClasses, Card, Spinner } from '@tickety/ui';
import { Compass, LogIn, LogOut as LogOutIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useRouteError, useSearchParams } from 'react-router-dom';
import { PageShown } from '../app/page-shown';
import { useT } from '../lib/i18n';

/** The 404 page (title 'Not Found'), inside the public layout. */
export function NotFound() {
  const t = useT();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Compass aria-hidden="true" className="size-12 text-primary-600" />
      <p className="mt-6 text-sm font-semibold tracking-widest text-primary-700 uppercase dark:text-primary-400">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-surface-900 dark:text-surface-50">{t('notFound.heading')}</h1>
      <p className="mt-3 text-surface-600 dark:text-surface-400">{t('notFound.body')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={siteHref('/')} className={buttonClasses()}>
          {t('common.backHome')}
        </Link>
        <Link to={siteHref('/dashboard')} className={buttonClasses({ variant: 'secondary' })}>
          {t('notFound.servers')}
        </Link>
      </div>
      {/* It arrives prerendered too (prerender.tsx). */}
      <PageShown />
    </section>
  );
}

/** A same-origin path to return to after login, or null (never an open redirect). */
export function safeNext(next: string | null): string | null {
  if (!next?.startsWith('/')) return null;
  // Resolved as a browser would ("/\t/evil.com" is "https://evil.com/"), it must stay on this origin.
  const base = 'https://tickety.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /login: opens the Discord sign-in popup on a click (browsers block popups without one). */
export function LoginPage() {
  const auth = useAppSelector(selectAuth);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { productName } = useRuntimeConfig();
  const t = useT();
  const next = safeNext(params.get('next')) ?? siteHref('/dashboard');
  const [busy, setBusy] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  if (auth.user) {
    return (
      <div className="mx-auto max-w-md px-4 py-24">
        <Card className="p-8 text-center">
          <h1 className="text-2xl font-bold text-surface-900 dark:text-surface-50">{t('login.signedIn.title')}</h1>
          <p className="mt-2 text-surface-600 dark:text-surface-400">{t('login.signedIn.as', { name: auth.user.globalName ?? auth.user.username })}</p>
          <Link to={next} className={buttonClasses({ className: 'mt-6' })}>
            {t('login.continue')}
          </Link>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-24">
      <Card className="p-8 text-center">
        <LogIn aria-hidden="true" className="mx-auto size-10 text-primary-600" />
        <h1 className="mt-4 text-2xl font-bold text-surface-900 dark:text-surface-50">{t('login.title', { product: productName })}</h1>
        <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">{t('login.body')}</p>
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
          {loginButtonLabel()}
        </Button>
        {cancelled ? (
          <p role="status" className="mt-4 text-sm text-surface-600 dark:text-surface-400">
            {t('login.cancelled')}
          </p>
        ) : null}
      </Card>
    </div>
  );
}

/** /logout: ends the session on the server (docs/behaviour.md#sign-in-sign-out-and-the-user-cache), then offers the way home. */
export function LogoutPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.auth.user);
  const started = useRef(false);
  const [done, setDone] = useState(false);
  const t = useT();
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
          <h1 className="mt-4 text-2xl font-bold text-surface-900 dark:text-surface-50">{t('logout.title')}</h1>
          <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">{t('logout.body')}</p>
          <Link to={siteHref('/')} className={buttonClasses({ className: 'mt-6' })}>
            {t('common.backHome')}
          </Link>
        </Card>
      ) : (
        <>
          <h1 className="sr-only">{t('logout.inProgress')}</h1>
          <Spinner size="lg" label={t('logout.spinner')} />
        </>
      )}
    </div>
  );
}

/** /docs: the external documentation site. */
export function DocsRedirect() {
  const { docsUrl } = useRuntimeConfig();
  const t = useT();
  useEffect(() => {
    window.location.replace(docsUrl);
  }, [docsUrl]);
  return (
    <div className="py-24 text-center">
      <Spinner label={t('docs.spinner')} />
      <p className="mt-4 text-sm">
        <a className="underline" href={docsUrl}>
          {t('docs.link')}
        </a>
      </p>
    </div>
  );
}

/** /subscriptions/:user -> /billing/:user (the route's guard requires DASHBOARD_SUPPORT_SYSTEM_READ first). */
export function SubscriptionsUserRedirect() {
  const { user = '' } = useParams();
  return <Navigate to={siteHref('/billing/:user', { user })} replace />;
}

/** A route that threw while rendering (outside any remote): a clear message and a way out. */
export function RouteError() {
  const error = useRouteError();
  const t = useT();
  console.error(error);
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{t('routeError.title')}</h1>
      <p className="mt-2 text-surface-600 dark:text-surface-400">{t('routeError.body')}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
        <a href={siteHref('/')} className={buttonClasses({ variant: 'secondary' })}>
          {t('actions.home')}
        </a>
      </div>
    </div>
  );
}

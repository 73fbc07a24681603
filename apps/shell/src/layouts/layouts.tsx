import { selectOpenBilling, siteHref, useAppSelector } from '@tickety/shared';
import { cx } from '@tickety/ui';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { GuardedOutlet } from '../guards/guarded-outlet';
import { useT } from '../lib/i18n';
import { Footer } from './footer';
import { Header } from './header';
import { Logo } from './logo';

/** Lets keyboard users jump over the header. */
function SkipLink() {
  const t = useT();
  return (
    <a href="#content" className="sr-only z-50 rounded-lg bg-primary-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
      {t('skipLink')}
    </a>
  );
}

function Main({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <main id="content" tabIndex={-1} className={cx('flex-1 outline-none', className)}>
      {children}
    </main>
  );
}

/** Public layout: marketing header and footer; pages choose their own widths (full-bleed heroes). */
export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header variant="public" />
      {/* At least a screen tall: the footer starts below the fold, so the page arriving never shifts it. */}
      <Main className="min-h-[calc(100svh-4rem)]">
        <GuardedOutlet />
      </Main>
      <Footer />
    </div>
  );
}

/** Login layout: the signed-in app (Manage Servers, staff pages). */
export function LoginLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header variant="app" />
      <Main className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
        <GuardedOutlet />
      </Main>
    </div>
  );
}

const subNavClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'border-b-2 px-1 pb-3 text-sm font-medium transition',
    isActive ? 'border-primary-600 text-primary-700 dark:text-primary-400' : 'border-transparent text-surface-600 hover:text-surface-900 dark:text-surface-400 dark:hover:text-surface-100',
  );

/** Subscription layout: billing pages, with their own tabs. */
export function SubscriptionLayout() {
  const t = useT();
  // The subscription a billing page has open (it marks it), named as the tab the reader is on.
  const open = useAppSelector(selectOpenBilling);
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header variant="app" />
      <div className="border-b border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-950">
        <nav aria-label={t('nav.billing')} className="mx-auto flex max-w-7xl flex-wrap gap-x-6 px-4 pt-4 sm:px-6">
          <NavLink to={siteHref('/billing')} end className={subNavClass}>
            {t('billingNav.subscriptions')}
          </NavLink>
          <NavLink to={siteHref('/premium-purchase')} className={subNavClass}>
            {t('billingNav.buyPremium')}
          </NavLink>
          {open ? (
            <span aria-current="page" className={cx(subNavClass({ isActive: true }), 'max-w-full truncate')}>
              {t('billingNav.subscription', { id: open.id })}
            </span>
          ) : null}
        </nav>
      </div>
      <Main className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
        <GuardedOutlet />
      </Main>
    </div>
  );
}

/** Embeddable display layout: no chrome at all, transparent around the content. */
export function DisplayLayout() {
  return (
    <Main className="min-h-screen p-4">
      <GuardedOutlet />
    </Main>
  );
}

/** Transcript layout: a slim bar and the full width for the transcript. */
export function TranscriptLayout() {
  const t = useT();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="flex h-12 items-center gap-3 border-b border-surface-200 bg-white px-4 dark:border-surface-800 dark:bg-surface-950">
        <Logo compact />
        <span className="text-sm text-surface-500">{t('transcript.label')}</span>
      </header>
      <Main className="w-full px-4 py-6">
        <GuardedOutlet />
      </Main>
    </div>
  );
}

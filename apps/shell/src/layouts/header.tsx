import { login, selectAuth, selectTeam, siteHref, useAppDispatch, useAppSelector } from '@tickety/shared';
import { Avatar, Button, cx, Skeleton } from '@tickety/ui';
import { ChevronDown, LogOut, Menu, X as CloseIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Message, useT } from '../lib/i18n';
import { ThemeToggle } from '../theme/theme-toggle';
import { LanguagePicker } from './language-picker';
import { Logo } from './logo';
import { APP_NAV, type NavItem, PUBLIC_NAV, staffNavFor } from './nav';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition focus-visible:outline-2 focus-visible:outline-offset-2',
    isActive
      ? 'bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300'
      : 'text-surface-600 hover:bg-surface-100 hover:text-surface-900 dark:text-surface-300 dark:hover:bg-surface-800 dark:hover:text-surface-50',
  );

function NavLinks({ items, onNavigate, vertical = false }: { items: NavItem[]; onNavigate?: () => void; vertical?: boolean }) {
  const t = useT();
  return (
    // Horizontal, a long list (staff pages, longer German labels) scrolls rather than overlapping the controls.
    <ul className={cx('flex gap-1', vertical ? 'flex-col' : 'items-center overflow-x-auto p-1')}>
      {items.map((item) => (
        <li key={item.to}>
          {item.to.includes('#') ? (
            // An anchor on a page is never "the current page".
            <Link to={item.to} className={navLinkClass({ isActive: false })} onClick={onNavigate}>
              {t(item.label)}
            </Link>
          ) : (
            <NavLink to={item.to} end={item.to === siteHref('/dashboard')} className={navLinkClass} onClick={onNavigate}>
              {t(item.label)}
            </NavLink>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Closes a popover on Escape, on a click outside `ref`, and when the route changes. */
function useDismiss(open: boolean, close: () => void, ref: React.RefObject<HTMLElement | null>) {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on navigation is the point
  useEffect(() => close(), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open, close, ref]);
}

function UserMenu() {
  const auth = useAppSelector(selectAuth);
  const team = useAppSelector(selectTeam);
  const t = useT();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = () => setOpen(false);
  useDismiss(open, close, ref);
  const user = auth.user!;
  const name = user.globalName ?? user.username;
  const items: NavItem[] = [{ label: 'account.manageServers', to: siteHref('/dashboard') }, { label: 'nav.billing', to: siteHref('/billing') }, ...staffNavFor(team)];
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-surface-800 transition hover:bg-surface-100 focus-visible:outline-2 focus-visible:outline-offset-2 dark:text-surface-100 dark:hover:bg-surface-800"
      >
        <Avatar src={user.avatarUrl} name={name} size="sm" />
        <span className="max-w-40 truncate">{name}</span>
        <ChevronDown aria-hidden="true" className="size-4 opacity-60" />
        <span className="sr-only">{t('account.menu')}</span>
      </button>
      {open ? (
        <div id={id} className="absolute right-0 z-50 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl border border-surface-200 bg-white p-2 shadow-xl dark:border-surface-800 dark:bg-surface-900">
          <p className="truncate px-3 py-2 text-xs text-surface-500 dark:text-surface-400">
            <Message k="account.signedInAs" values={{ username: user.username }} components={{ name: <span className="font-semibold text-surface-800 dark:text-surface-100" /> }} />
          </p>
          <ul className="flex flex-col">
            {items.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="block rounded-lg px-3 py-2 text-sm text-surface-700 hover:bg-surface-100 dark:text-surface-200 dark:hover:bg-surface-800" onClick={close}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
            <li className="mt-1 border-t border-surface-200 px-3 pt-2 pb-1 dark:border-surface-800">
              <LanguagePicker />
            </li>
            <li className="mt-1 border-t border-surface-200 pt-1 dark:border-surface-800">
              <Link to={siteHref('/logout')} className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950" onClick={close}>
                <LogOut aria-hidden="true" className="size-4" /> {t('account.logout')}
              </Link>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Login button, the user menu, or a placeholder while the first user load runs. */
export function AuthControls() {
  const auth = useAppSelector(selectAuth);
  const dispatch = useAppDispatch();
  const t = useT();
  if (auth.user) return <UserMenu />;
  if (auth.status === 'idle' || auth.status === 'loading') return <Skeleton className="h-9 w-24 rounded-lg" />;
  return (
    <Button variant="discord" size="sm" onClick={() => void dispatch(login())}>
      {t('header.login')}
    </Button>
  );
}

/** The site header (the page's banner): logo, navigation, theme toggle, login or the user menu. */
export function Header({ variant }: { variant: 'public' | 'app' }) {
  const team = useAppSelector(selectTeam);
  const t = useT();
  const items = variant === 'public' ? PUBLIC_NAV : [...APP_NAV, ...staffNavFor(team)];
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useDismiss(open, () => setOpen(false), panel);
  return (
    <header className="sticky top-0 z-40 border-b border-surface-200 bg-white/85 backdrop-blur dark:border-surface-800 dark:bg-surface-950/85">
      <div ref={panel} className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t('nav.main')} className="hidden min-w-0 flex-1 lg:block">
          <NavLinks items={items} />
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <AuthControls />
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-lg text-surface-700 hover:bg-surface-100 focus-visible:outline-2 lg:hidden dark:text-surface-200 dark:hover:bg-surface-800"
            aria-expanded={open}
            aria-controls={id}
            aria-label={t(open ? 'nav.close' : 'nav.open')}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <CloseIcon aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          </button>
        </div>
        {open ? (
          <nav id={id} aria-label={t('nav.main')} className="absolute inset-x-0 top-16 border-b border-surface-200 bg-white p-4 shadow-lg lg:hidden dark:border-surface-800 dark:bg-surface-950">
            <NavLinks items={items} vertical onNavigate={() => setOpen(false)} />
          </nav>
        ) : null}
      </div>
    </header>
  );
}

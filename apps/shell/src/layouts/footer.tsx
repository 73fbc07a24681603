import { siteHref, useRuntimeConfig } from '@tickety/shared';
import { Link } from 'react-router-dom';
import { type ShellKey, useT } from '../lib/i18n';
import { LanguagePicker } from './language-picker';
import { Logo } from './logo';

const COLUMNS: Array<{ title: ShellKey; links: Array<{ label: ShellKey; to: string }> }> = [
  {
    title: 'footer.product',
    links: [
      { label: 'nav.features', to: `${siteHref('/')}#features` },
      { label: 'nav.premium', to: siteHref('/premium') },
      { label: 'footer.invite', to: siteHref('/invite') },
      { label: 'footer.dashboard', to: siteHref('/dashboard') },
    ],
  },
  {
    title: 'footer.help',
    links: [
      { label: 'footer.docs', to: siteHref('/docs') },
      { label: 'nav.support', to: siteHref('/support') },
      { label: 'nav.status', to: siteHref('/status') },
    ],
  },
  {
    title: 'footer.legal',
    links: [
      { label: 'footer.terms', to: siteHref('/terms-of-service') },
      { label: 'footer.privacy', to: siteHref('/privacy-policy') },
      { label: 'footer.refund', to: siteHref('/refund-policy') },
      { label: 'footer.aup', to: siteHref('/aup-policy') },
      { label: 'footer.legalNotice', to: siteHref('/legal') },
    ],
  },
];

export function Footer() {
  const { productName } = useRuntimeConfig();
  const t = useT();
  return (
    <footer className="border-t border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-950">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 max-w-xs text-sm text-surface-600 dark:text-surface-400">{t('footer.tagline')}</p>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={t(col.title)}>
            <h2 className="text-sm font-semibold text-surface-900 dark:text-surface-100">{t(col.title)}</h2>
            <ul className="mt-3 space-y-2">
              {col.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-surface-600 hover:text-primary-700 dark:text-surface-400 dark:hover:text-primary-400">
                    {t(link.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-3 border-t border-surface-200 px-4 py-6 sm:px-6 dark:border-surface-800">
        <p className="text-xs text-surface-500">{t('footer.copyright', { year: String(new Date().getFullYear()), product: productName })}</p>
        {/* Visitors have no account menu: the language is picked here (signed-in users have it in both). */}
        <LanguagePicker />
      </div>
    </footer>
  );
}

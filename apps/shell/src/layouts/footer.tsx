import { useRuntimeConfig } from '@tickety/shared';
import { Link } from 'react-router-dom';
import { Logo } from './logo';

const COLUMNS: Array<{ title: string; links: Array<{ label: string; to: string }> }> = [
  {
    title: 'Product',
    links: [
      { label: 'Features', to: '/#features' },
      { label: 'Premium', to: '/premium' },
      { label: 'Add to Discord', to: '/invite' },
      { label: 'Dashboard', to: '/dashboard' },
    ],
  },
  {
    title: 'Help',
    links: [
      { label: 'Documentation', to: '/docs' },
      { label: 'Support', to: '/support' },
      { label: 'Status', to: '/status' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: '/terms-of-service' },
      { label: 'Privacy Policy', to: '/privacy-policy' },
      { label: 'Refund Policy', to: '/refund-policy' },
      { label: 'Acceptable Use', to: '/aup-policy' },
      { label: 'Legal', to: '/legal' },
    ],
  },
];

export function Footer() {
  const { productName } = useRuntimeConfig();
  return (
    <footer className="border-t border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-950">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 max-w-xs text-sm text-surface-600 dark:text-surface-400">Ticket support for Discord communities, configured from the web.</p>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="text-sm font-semibold text-surface-900 dark:text-surface-100">{col.title}</h2>
            <ul className="mt-3 space-y-2">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="text-sm text-surface-600 hover:text-primary-700 dark:text-surface-400 dark:hover:text-primary-400">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t border-surface-200 py-6 text-center text-xs text-surface-500 dark:border-surface-800">
        © {new Date().getFullYear()} {productName}. Not affiliated with Discord Inc.
      </p>
    </footer>
  );
}

import { siteHref, useRuntimeConfig } from '@tickety/shared';
import { Link } from 'react-router-dom';

/** The product mark and name, linking home. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const { productName } = useRuntimeConfig();
  return (
    <Link to={siteHref('/')} className="flex shrink-0 items-center gap-2 rounded-lg font-bold tracking-tight text-surface-900 focus-visible:outline-2 focus-visible:outline-offset-2 dark:text-surface-50">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="8" className="fill-primary-600" />
        <path d="M9 11.5A2.5 2.5 0 0 1 11.5 9h9A2.5 2.5 0 0 1 23 11.5v2a2 2 0 0 0 0 4v3a2.5 2.5 0 0 1-2.5 2.5h-9A2.5 2.5 0 0 1 9 20.5v-3a2 2 0 0 0 0-4z" fill="#fff" />
        <path d="M13 14h6M13 18h4" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" className="text-primary-600" />
      </svg>
      <span className={compact ? 'sr-only sm:not-sr-only' : undefined}>{productName}</span>
    </Link>
  );
}

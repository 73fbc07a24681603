import { Skeleton } from '@tickety/ui';
import type { ReactNode } from 'react';

/**
 * A list still loading: `rows` placeholder rows (a lead shape, a title and a line), marked busy, with
 * `label` said to screen readers. The Panel Menu's list (a preview as the lead) and Web Logs (an avatar).
 */
export function ListSkeleton({ label, rows, lead, heading }: { label: string; rows: number; lead: 'preview' | 'avatar'; heading?: boolean }): ReactNode {
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        {label}
      </span>
      {heading ? <Skeleton className="mb-4 h-6 w-48" /> : null}
      <div className="space-y-3">
        {Array.from({ length: rows }, (_, row) => row).map((row) => (
          <div key={row} className="flex items-center gap-4 rounded-xl border border-surface-200 p-4 dark:border-surface-800">
            <Skeleton className={lead === 'preview' ? 'h-14 w-32 shrink-0' : 'size-8 shrink-0 rounded-full'} />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-1/4" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

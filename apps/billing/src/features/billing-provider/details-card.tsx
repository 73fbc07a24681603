import { Card, cx } from '@tickety/ui';
import type { ReactNode } from 'react';

/** Label/value rows (a description list) in a card. */
export function DetailsCard({ title, rows, className }: { title: ReactNode; rows: Array<{ label: ReactNode; value: ReactNode }>; className?: string }) {
  return (
    <Card className={cx('p-5 sm:p-6', className)}>
      <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{title}</h2>
      <dl className="mt-4 divide-y divide-surface-200 dark:divide-surface-800">
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed rows, never reordered
          <div key={i} className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
            <dt className="text-sm font-medium text-surface-600 dark:text-surface-400">{row.label}</dt>
            <dd className="min-w-0 break-words text-sm text-surface-900 sm:col-span-2 dark:text-surface-100">{row.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Classes of an inline text link. */
export const linkClasses =
  'font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:text-primary-400 dark:hover:text-primary-300';

import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

/** A surface with a border and rounded corners. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cx(
        'rounded-xl border border-surface-200 bg-white shadow-sm dark:border-surface-800 dark:bg-surface-900',
        className,
      )}
      {...rest}
    />
  );
}

/** A page's heading block: one h1, an optional description and actions on the right. */
export function PageHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cx('mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-surface-900 sm:text-3xl dark:text-surface-50">{title}</h1>
        {description ? <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** What a list shows when it has nothing: an icon, a title, a sentence and a way forward. */
export function EmptyState({ icon, title, description, children, className }: { icon?: ReactNode; title: ReactNode; description?: ReactNode; children?: ReactNode; className?: string }) {
  return (
    <div className={cx('flex flex-col items-center rounded-xl border border-dashed border-surface-300 px-6 py-12 text-center dark:border-surface-700', className)}>
      {icon ? <div className="mb-4 rounded-full bg-primary-50 p-3 text-primary-600 dark:bg-primary-950 dark:text-primary-400">{icon}</div> : null}
      <h2 className="text-lg font-semibold text-surface-900 dark:text-surface-50">{title}</h2>
      {description ? <p className="mt-2 max-w-md text-sm text-surface-600 dark:text-surface-400">{description}</p> : null}
      {children ? <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div> : null}
    </div>
  );
}

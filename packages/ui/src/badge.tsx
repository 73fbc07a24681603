import type { ReactNode } from 'react';
import { cx } from './cx';

export type Tone = 'neutral' | 'primary' | 'info' | 'warning' | 'danger';

const BADGE: Record<Tone, string> = {
  neutral: 'bg-surface-100 text-surface-700 ring-surface-300 dark:bg-surface-800 dark:text-surface-300 dark:ring-surface-700',
  primary: 'bg-primary-50 text-primary-700 ring-primary-600/20 dark:bg-primary-950 dark:text-primary-300 dark:ring-primary-400/30',
  info: 'bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-950 dark:text-sky-300 dark:ring-sky-400/30',
  warning: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-400/30',
  danger: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30',
};

export function Badge({ tone = 'neutral', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={cx('inline-flex items-center gap-1 rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset', BADGE[tone], className)}>
      {children}
    </span>
  );
}

const ALERT: Record<Tone, string> = {
  neutral: 'border-surface-300 bg-surface-50 text-surface-800 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-200',
  primary: 'border-primary-300 bg-primary-50 text-primary-900 dark:border-primary-800 dark:bg-primary-950 dark:text-primary-100',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
  warning: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
  danger: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
};

/** A message box. Danger alerts are announced at once (role="alert"); others politely (role="status"). */
export function Alert({ tone = 'info', title, children, icon, actions, className }: { tone?: Tone; title?: ReactNode; children?: ReactNode; icon?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={cx('flex gap-3 rounded-lg border p-4 text-sm', ALERT[tone], className)}>
      {icon ? <div className="mt-0.5 shrink-0">{icon}</div> : null}
      <div className="min-w-0 flex-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className={cx(title ? 'mt-1' : undefined, 'opacity-90')}>{children}</div> : null}
        {actions ? <div className="mt-3 flex flex-wrap gap-2">{actions}</div> : null}
      </div>
    </div>
  );
}

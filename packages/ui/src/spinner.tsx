import { cx } from './cx';
import { useUiText } from './ui-text';

const SIZES = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' } as const;

/**
 * A spinning ring. With a label (default "Loading…" in the reader's language) it is a polite live region that screen readers
 * announce; `label={null}` makes it decorative (e.g. inside a busy button).
 */
export function Spinner({ size = 'md', label, className }: { size?: keyof typeof SIZES; label?: string | null; className?: string }) {
  const text = useUiText();
  const ring = <span aria-hidden="true" className={cx('inline-block animate-spin rounded-full border-current border-r-transparent', SIZES[size], className)} />;
  if (label === null) return ring;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {ring}
      <span className="sr-only">{label ?? text.loading}</span>
    </span>
  );
}

/** A grey placeholder block while content loads (decorative). */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cx('block animate-pulse rounded-md bg-surface-200 dark:bg-surface-800', className)} />;
}

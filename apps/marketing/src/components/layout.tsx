import { cx } from '@tickety/ui';
import type { ReactNode } from 'react';

/** The page's content column (the shell's `<main>` is full width; pages set their own measure). */
export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cx('mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8', className)}>{children}</div>;
}

/** A titled section: an optional eyebrow, an h2 and a lead paragraph, then its content. */
export function Section({
  id,
  eyebrow,
  title,
  lead,
  children,
  className,
  centered = true,
}: {
  id: string;
  eyebrow?: ReactNode;
  title: ReactNode;
  lead?: ReactNode;
  children: ReactNode;
  className?: string;
  centered?: boolean;
}) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className={cx('scroll-mt-20 py-16 sm:py-20', className)}>
      <Container>
        <div className={cx('max-w-2xl', centered && 'mx-auto text-center')}>
          {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wider text-primary-700 dark:text-primary-400">{eyebrow}</p> : null}
          <h2 id={headingId} className="mt-2 text-3xl font-bold tracking-tight text-balance text-surface-900 sm:text-4xl dark:text-surface-50">
            {title}
          </h2>
          {lead ? <p className="mt-4 text-lg text-pretty text-surface-600 dark:text-surface-400">{lead}</p> : null}
        </div>
        <div className="mt-12">{children}</div>
      </Container>
    </section>
  );
}

/** A round tinted icon holder. */
export function IconBadge({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary-50 text-primary-700 ring-1 ring-primary-600/15 dark:bg-primary-950 dark:text-primary-300 dark:ring-primary-400/20',
        className,
      )}
    >
      {children}
    </span>
  );
}

import { cx } from '@tickety/ui';

/** A tab of the Panel Menu's and the Automation page's tab bars (links in a `nav`), marked when it is the one shown. */
export function tabClasses(active: boolean): string {
  return cx(
    'inline-flex items-center rounded-t-lg border-b-2 px-3 py-2 text-sm font-semibold whitespace-nowrap transition focus-visible:outline-2 focus-visible:outline-primary-600',
    active
      ? 'border-primary-600 text-primary-700 dark:border-primary-400 dark:text-primary-300'
      : 'border-transparent text-surface-600 hover:text-surface-900 dark:text-surface-400 dark:hover:text-surface-50',
  );
}

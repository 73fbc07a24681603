import { Card } from '@tickety/ui';
import { type ReactNode, useId } from 'react';

/**
 * One state of the playground: its name, what the overlay does in it (the catalogue's rule), how the
 * buttons make the API answer it, and the buttons.
 */
export function PlaygroundGroup({ name, what, how, children }: { name: ReactNode; what: ReactNode; how: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={`${id}-name`}>
        <h2 id={`${id}-name`} className="text-base font-semibold text-surface-900 dark:text-surface-50">
          {name}
        </h2>
        <p className="mt-1 text-sm text-surface-700 dark:text-surface-300">{what}</p>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{how}</p>
        <div className="mt-4 flex flex-wrap gap-2">{children}</div>
      </section>
    </Card>
  );
}

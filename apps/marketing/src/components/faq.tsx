import { cx } from '@tickety/ui';
import ChevronDown from 'lucide-react/icons/chevron-down';
import { type ReactNode, useId, useState } from 'react';

export interface FaqItem {
  question: string;
  answer: ReactNode;
}

/**
 * One question of an FAQ as a disclosure (WAI-ARIA pattern): a heading holding a real button with
 * aria-expanded / aria-controls; Enter and Space toggle it, the answer is hidden when closed.
 */
function Disclosure({ item, defaultOpen = false, headingLevel = 3 }: { item: FaqItem; defaultOpen?: boolean; headingLevel?: 2 | 3 }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="py-1">
      <Heading className="m-0">
        <button
          type="button"
          id={`${id}-button`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-start justify-between gap-4 rounded-lg px-2 py-4 text-left text-base font-semibold text-surface-900 transition hover:bg-surface-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:text-surface-50 dark:hover:bg-surface-800/60"
        >
          <span>{item.question}</span>
          <ChevronDown aria-hidden="true" className={cx('mt-0.5 size-5 shrink-0 text-surface-500 transition-transform', open && 'rotate-180')} />
        </button>
      </Heading>
      <div
        id={`${id}-panel`}
        hidden={!open}
        className="px-2 pb-4 text-surface-600 dark:text-surface-400 [&_a]:font-medium [&_a]:text-primary-700 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-primary-400 [&_p+p]:mt-3"
      >
        {item.answer}
      </div>
    </div>
  );
}

/** A list of questions, each its own disclosure. */
export function Faq({ items, className }: { items: FaqItem[]; className?: string }) {
  return (
    <div className={cx('divide-y divide-surface-200 dark:divide-surface-800', className)}>
      {items.map((item) => (
        <Disclosure key={item.question} item={item} />
      ))}
    </div>
  );
}

import { cloneElement, type ReactElement, type ReactNode, useId, useState } from 'react';
import { cx } from './cx';

/**
 * A tooltip on hover and keyboard focus (docs/behaviour.md#look-and-titles: it fades in over 250 ms). The trigger gets
 * `aria-describedby`; Escape hides it. The child must accept a ref-less `aria-describedby` and the
 * focus/hover handlers (any DOM element or a component forwarding them).
 */
export function Tooltip({ content, children, side = 'top', className }: { content: ReactNode; children: ReactElement<Record<string, unknown>>; side?: 'top' | 'bottom'; className?: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const show = () => setOpen(true);
  const hide = () => setOpen(false);
  const trigger = cloneElement(children, {
    'aria-describedby': open ? id : undefined,
    onMouseEnter: show,
    onMouseLeave: hide,
    onFocus: show,
    onBlur: hide,
    onKeyDown: (e: { key: string }) => {
      if (e.key === 'Escape') hide();
    },
  });
  return (
    <span className="relative inline-flex">
      {trigger}
      {open ? (
        <span
          role="tooltip"
          id={id}
          className={cx(
            'pointer-events-none absolute left-1/2 z-50 w-max max-w-xs -translate-x-1/2 animate-tooltip-in rounded-md bg-surface-900 px-2 py-1 text-xs font-medium text-white shadow-lg dark:bg-surface-100 dark:text-surface-900',
            side === 'top' ? 'bottom-full mb-2' : 'top-full mt-2',
            className,
          )}
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}

import { cx } from '@tickety/ui';
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
}

/**
 * Tabs as the ARIA pattern has them: one tab in the tab order, arrow keys (and Home, End) move
 * between tabs and select them, the panel is labelled by its tab.
 */
export function Tabs<K extends string>({ label, tabs, selected, onSelect, children }: { label: string; tabs: TabItem<K>[]; selected: K; onSelect: (key: K) => void; children: ReactNode }) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.key === selected);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else return;
    event.preventDefault();
    const key = tabs[next]!.key;
    onSelect(key);
    refs.current.get(key)?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-surface-200 dark:border-surface-800">
        {tabs.map((tab) => {
          const active = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                if (el) refs.current.set(tab.key, el);
                else refs.current.delete(tab.key);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              aria-selected={active}
              aria-controls={`${id}-panel`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(tab.key)}
              className={cx(
                '-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium outline-none transition focus-visible:ring-2 focus-visible:ring-primary-500',
                active
                  ? 'border-primary-600 text-primary-700 dark:border-primary-400 dark:text-primary-300'
                  : 'border-transparent text-surface-600 hover:border-surface-300 hover:text-surface-900 dark:text-surface-400 dark:hover:text-surface-100',
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is focusable (ARIA tabs pattern), so its text is reached right after the tabs */}
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`} tabIndex={0} className="pt-4 outline-none focus-visible:ring-2 focus-visible:ring-primary-500">
        {children}
      </div>
    </div>
  );
}

import { Tooltip } from '@tickety/ui';
import { Moon, Sun } from 'lucide-react';
import { THEME_TOGGLE_ATTR } from '../boot/boot';
import { useT } from '../lib/i18n';
import { setScheme } from './theme';
import { useScheme } from './use-scheme';

export function ThemeToggle() {
  const scheme = useScheme();
  const t = useT();
  const next = scheme === 'dark' ? 'light' : 'dark';
  const label = t(next === 'dark' ? 'theme.toDark' : 'theme.toLight');
  return (
    <Tooltip content={label} side="bottom">
      <button
        type="button"
        aria-label={label}
        // Works on a prerendered page before the app is in (boot/boot.ts).
        {...{ [THEME_TOGGLE_ATTR]: '' }}
        onClick={() => setScheme(next)}
        className="inline-flex size-9 items-center justify-center rounded-lg text-surface-600 transition hover:bg-surface-200 hover:text-surface-900 focus-visible:outline-2 focus-visible:outline-offset-2 dark:text-surface-300 dark:hover:bg-surface-800 dark:hover:text-surface-50"
      >
        {/* Both icons, the scheme class on <html> shows one: the same markup in either theme (the
            prerendered page and the app that takes it over agree). */}
        <Sun aria-hidden="true" className="hidden size-5 dark:block" />
        <Moon aria-hidden="true" className="size-5 dark:hidden" />
      </button>
    </Tooltip>
  );
}

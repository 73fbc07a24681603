import { changeLocale, isLocale, LOCALE_NAMES, LOCALES, sharedCatalog, useLocale } from '@tickety/shared';
import { cx } from '@tickety/ui';
import { Languages } from 'lucide-react';
import { useId, useState } from 'react';
import { useT } from '../lib/i18n';

/**
 * The language picker (the account menu, the footer): a native select, so it works with the keyboard,
 * screen readers and the phone's own picker. Each language is named in itself; the pick is remembered
 * in this browser (and in a cookie, so the server prerenders public pages in it).
 */
export function LanguagePicker({ className }: { className?: string }) {
  const locale = useLocale();
  const t = useT();
  const label = sharedCatalog.useT()('language.label');
  const id = useId();
  const [failed, setFailed] = useState(false);
  return (
    <div className={cx('flex flex-wrap items-center gap-2', className)}>
      <label htmlFor={id} className="inline-flex items-center gap-1.5 text-sm text-surface-600 dark:text-surface-400">
        <Languages aria-hidden="true" className="size-4" />
        {label}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          const next = event.target.value;
          if (!isLocale(next)) return;
          setFailed(false);
          changeLocale(next, { remember: true }).catch((error: unknown) => {
            console.error('The language could not be loaded', error);
            setFailed(true);
          });
        }}
        className="min-w-0 rounded-lg border border-surface-300 bg-white px-2 py-1.5 text-sm text-surface-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-100"
      >
        {LOCALES.map((choice) => (
          <option key={choice} value={choice} lang={choice}>
            {LOCALE_NAMES[choice]}
          </option>
        ))}
      </select>
      {failed ? (
        <p role="status" className="w-full text-xs text-red-700 dark:text-red-400">
          {t('language.failed')}
        </p>
      ) : null}
    </div>
  );
}

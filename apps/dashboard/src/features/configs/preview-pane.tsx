import type { FormQuestion } from '@tickety/api-contract';
import { cx } from '@tickety/ui';
import Moon from 'lucide-react/icons/moon';
import Sun from 'lucide-react/icons/sun';
import { type ReactNode, useId, useState } from 'react';
import { DiscordSurface, type DiscordTheme } from '../../components/discord/message-preview';
import { useT } from './i18n';

interface PreviewTab {
  id: string;
  label: string;
  render(): ReactNode;
}

function siteTheme(): DiscordTheme {
  return typeof document !== 'undefined' && document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

const SEGMENT = 'rounded-md px-2.5 py-1 text-xs font-semibold transition focus-visible:outline-2 focus-visible:outline-primary-600';
const SEGMENT_ON = 'bg-white text-surface-900 shadow-sm dark:bg-surface-700 dark:text-surface-50';
const SEGMENT_OFF = 'text-surface-600 hover:text-surface-900 dark:text-surface-400 dark:hover:text-surface-50';

/**
 * The live preview: what Discord shows, in Discord's light or dark theme (the site's to start with),
 * and, for a panel, what the ticket's first message and the form look like.
 */
export function PreviewPane({ tabs, note }: { tabs: PreviewTab[]; note?: ReactNode }) {
  const t = useT();
  const [theme, setTheme] = useState<DiscordTheme>(siteTheme);
  const [tab, setTab] = useState(tabs[0]!.id);
  const headingId = useId();
  const shown = tabs.find((x) => x.id === tab) ?? tabs[0]!;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-surface-200 bg-surface-50 p-3 dark:border-surface-800 dark:bg-surface-900">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-surface-900 dark:text-surface-50">
          {t('preview.title')}
        </h3>
        <fieldset className="flex gap-0.5 rounded-lg bg-surface-200 p-0.5 dark:bg-surface-800">
          <legend className="sr-only">{t('preview.theme')}</legend>
          <button type="button" aria-pressed={theme === 'dark'} onClick={() => setTheme('dark')} className={cx(SEGMENT, 'inline-flex items-center gap-1', theme === 'dark' ? SEGMENT_ON : SEGMENT_OFF)}>
            <Moon aria-hidden="true" className="size-3.5" />
            {t('preview.dark')}
          </button>
          <button type="button" aria-pressed={theme === 'light'} onClick={() => setTheme('light')} className={cx(SEGMENT, 'inline-flex items-center gap-1', theme === 'light' ? SEGMENT_ON : SEGMENT_OFF)}>
            <Sun aria-hidden="true" className="size-3.5" />
            {t('preview.light')}
          </button>
        </fieldset>
      </div>
      {tabs.length > 1 ? (
        <fieldset className="mb-3 flex flex-wrap gap-0.5 rounded-lg bg-surface-200 p-0.5 dark:bg-surface-800">
          <legend className="sr-only">{t('preview.what')}</legend>
          {tabs.map((tab) => (
            <button key={tab.id} type="button" aria-pressed={tab.id === shown.id} onClick={() => setTab(tab.id)} className={cx(SEGMENT, 'flex-1', tab.id === shown.id ? SEGMENT_ON : SEGMENT_OFF)}>
              {tab.label}
            </button>
          ))}
        </fieldset>
      ) : null}
      <DiscordSurface theme={theme}>{shown.render()}</DiscordSurface>
      {note ? <p className="mt-2 text-xs text-surface-600 dark:text-surface-400">{note}</p> : null}
    </section>
  );
}

/** The form as Discord's modal shows it. */
export function FormModalPreview({ title, questions }: { title: string; questions: FormQuestion[] }) {
  const t = useT();
  if (questions.length === 0) return <p className="p-4 text-sm text-(--d-muted)">{t('preview.noForm')}</p>;
  return (
    <div className="p-3">
      <div className="overflow-hidden rounded-[8px] bg-(--d-modal) shadow-lg ring-1 ring-black/10">
        <p className="px-4 pt-4 text-xl font-semibold break-words text-(--d-header)">{title}</p>
        <div className="space-y-4 p-4">
          {questions.map((question) => (
            <div key={question.id}>
              <p className="mb-2 text-xs font-bold break-words text-(--d-header) uppercase">
                {question.label || '…'}
                {question.required ? <span className="ml-1 text-(--d-required)">*</span> : null}
              </p>
              <div className={cx('rounded-[3px] bg-(--d-input-bg) px-2.5 py-2.5 text-sm text-(--d-muted)', question.style === 'paragraph' ? 'min-h-20' : 'h-10')}>{question.placeholder}</div>
            </div>
          ))}
        </div>
        <div className="flex justify-end gap-2 bg-(--d-modal-footer) p-4">
          <span className="px-4 py-2 text-sm font-medium text-(--d-text)">{t('preview.cancel')}</span>
          <span className="rounded-[3px] bg-[#5865f2] px-4 py-2 text-sm font-medium text-white">{t('preview.submit')}</span>
        </div>
      </div>
    </div>
  );
}

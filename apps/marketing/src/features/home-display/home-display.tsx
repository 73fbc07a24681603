import { botInviteUrl, useRuntimeConfig } from '@tickety/shared';
import Check from 'lucide-react/icons/check';
import { HeroActions, PanelPreview } from '../../components/hero';
import { type MessageKey, useT } from '../../lib/i18n';

const HIGHLIGHTS: MessageKey[] = ['homeDisplay.highlight.panels', 'homeDisplay.highlight.transcripts', 'homeDisplay.highlight.statistics'];

/**
 * The home hero for other sites to frame (display layout, no chrome). Every link leaves the frame,
 * so it opens a new tab.
 */
export default function HomeDisplayPage() {
  const config = useRuntimeConfig();
  const t = useT();
  return (
    <div className="mx-auto grid max-w-5xl items-center gap-8 rounded-2xl border border-surface-200 bg-white p-5 shadow-sm sm:p-8 md:grid-cols-[1.2fr_1fr] dark:border-surface-800 dark:bg-surface-900">
      <div>
        <p className="text-sm font-semibold text-primary-700 dark:text-primary-400">{config.productName}</p>
        <h1 className="mt-1 text-2xl font-extrabold tracking-tight text-balance text-surface-900 sm:text-3xl dark:text-white">
          {t('homeDisplay.title')}
        </h1>
        <p className="mt-3 text-sm text-pretty text-surface-600 sm:text-base dark:text-surface-300">
          {t('homeDisplay.lead')}
        </p>
        <ul className="mt-4 space-y-1.5 text-sm text-surface-700 dark:text-surface-300">
          {HIGHLIGHTS.map((highlight) => (
            <li key={highlight} className="flex items-center gap-2">
              <Check aria-hidden="true" className="size-4 shrink-0 text-primary-600 dark:text-primary-400" />
              {t(highlight)}
            </li>
          ))}
        </ul>
        <HeroActions inviteUrl={botInviteUrl(config)} newTab size="md" className="mt-6" />
      </div>
      <div className="hidden md:block">
        <PanelPreview productName={config.productName} compact />
      </div>
    </div>
  );
}

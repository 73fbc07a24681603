import { Link } from '@tickety/shared';
import { buttonClasses, cx } from '@tickety/ui';
import ArrowRight from 'lucide-react/icons/arrow-right';
import Check from 'lucide-react/icons/check';
import FileText from 'lucide-react/icons/file-text';
import Ticket from 'lucide-react/icons/ticket';
import { href } from '../lib/hrefs';
import { useT } from '../lib/i18n';
import { DiscordMark } from './discord-mark';

/**
 * The two calls to action of the hero. `newTab` is for the embeddable display pages: inside a frame,
 * every link leaves the frame, so it opens a new tab (rel="noopener").
 */
export function HeroActions({ inviteUrl, newTab = false, size = 'lg', className }: { inviteUrl: string; newTab?: boolean; size?: 'md' | 'lg'; className?: string }) {
  const t = useT();
  const tab = newTab ? { target: '_blank', rel: 'noopener' } : {};
  const hint = newTab ? <span className="sr-only"> {t('common.newTab')}</span> : null;
  return (
    <div className={cx('flex flex-col gap-3 sm:flex-row sm:flex-wrap', className)}>
      <a href={inviteUrl} {...tab} className={buttonClasses({ variant: 'discord', size })}>
        <DiscordMark className="size-5" />
        {t('common.addToDiscord')}
        {hint}
      </a>
      {newTab ? (
        <a href={href('/dashboard')} {...tab} className={buttonClasses({ variant: 'secondary', size })}>
          {t('hero.openDashboard')}
          <ArrowRight aria-hidden="true" className="size-4" />
          {hint}
        </a>
      ) : (
        <Link to={href('/dashboard')} className={buttonClasses({ variant: 'secondary', size })}>
          {t('hero.openDashboard')}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      )}
    </div>
  );
}

/** A picture of a ticket panel as Discord shows it (decorative: the text around it says the same). */
export function PanelPreview({ productName, compact = false }: { productName: string; compact?: boolean }) {
  const t = useT();
  return (
    <div aria-hidden="true" className={cx('relative mx-auto w-full', compact ? 'max-w-sm' : 'max-w-md')}>
      <div className="overflow-hidden rounded-2xl bg-[#313338] text-[#dbdee1] shadow-2xl ring-1 ring-black/10 dark:ring-white/10">
        <div className="flex items-center gap-2 border-b border-black/25 px-4 py-3 text-sm font-semibold text-white">
          <span className="text-lg leading-none text-[#80848e]">#</span>
          {t('hero.preview.channel')}
        </div>
        <div className="flex gap-3 p-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-600 text-white">
            <Ticket className="size-5" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="flex flex-wrap items-center gap-x-2 text-sm">
              <span className="font-semibold text-white">{productName}</span>
              <span className="rounded bg-[#5865F2] px-1 text-[10px] leading-4 font-semibold text-white">APP</span>
              <span className="text-xs text-[#949ba4]">{t('hero.preview.time')}</span>
            </p>
            <div className="mt-2 rounded border-l-4 border-primary-500 bg-[#2b2d31] p-3">
              <p className="text-sm font-semibold text-white">{t('hero.preview.title')}</p>
              <p className="mt-1 text-xs leading-relaxed text-[#dbdee1]">{t('hero.preview.text')}</p>
            </div>
            <div className="mt-3 flex flex-wrap gap-2">
              <span className="inline-flex items-center gap-1.5 rounded bg-[#248046] px-3 py-1.5 text-xs font-medium text-white">
                <Ticket className="size-3.5" /> {t('hero.preview.openTicket')}
              </span>
              <span className="inline-flex items-center rounded bg-[#4e5058] px-3 py-1.5 text-xs font-medium text-white">{t('hero.preview.billingQuestion')}</span>
            </div>
          </div>
        </div>
        {compact ? null : (
          <div className="mx-4 mb-4 rounded-lg bg-[#2b2d31] p-3 text-xs">
            <p className="flex items-center justify-between gap-2">
              <span className="font-semibold text-white"># ticket-0042</span>
              <span className="rounded-full bg-primary-500/20 px-2 py-0.5 font-medium text-primary-300">{t('hero.preview.claimedBy', { name: 'Mia' })}</span>
            </p>
            <p className="mt-2 text-[#b5bac1]">{t('hero.preview.message')}</p>
            <p className="mt-1 text-[#949ba4]">{t('hero.preview.firstResponse')}</p>
          </div>
        )}
      </div>
      {compact ? null : (
        <>
          <div className="absolute -bottom-5 -left-6 hidden items-center gap-2 rounded-xl bg-white px-3 py-2 text-xs font-medium text-surface-800 shadow-lg ring-1 ring-surface-200 sm:flex dark:bg-surface-800 dark:text-surface-100 dark:ring-surface-700">
            <FileText className="size-4 text-primary-600 dark:text-primary-400" /> {t('hero.preview.transcriptSaved')}
          </div>
          <div className="absolute -top-4 -right-4 hidden items-center gap-2 rounded-xl bg-white px-3 py-2 text-xs font-medium text-surface-800 shadow-lg ring-1 ring-surface-200 sm:flex dark:bg-surface-800 dark:text-surface-100 dark:ring-surface-700">
            <Check className="size-4 text-primary-600 dark:text-primary-400" /> {t('hero.preview.configSaved')}
          </div>
        </>
      )}
    </div>
  );
}

/** The soft green glow behind heroes (decorative). */
export function HeroGlow() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 -top-40 -z-10 transform-gpu overflow-hidden blur-3xl sm:-top-72">
      <div className="relative left-1/2 aspect-[1155/678] w-[36rem] -translate-x-1/2 rotate-[30deg] bg-linear-to-tr from-primary-300 to-sky-300 opacity-30 sm:w-[72rem] dark:from-primary-700 dark:to-sky-800 dark:opacity-25" />
    </div>
  );
}

import { botInviteUrl, formatNumber, Link, useLocation, useRuntimeConfig } from '@tickety/shared';
import { Card, cx } from '@tickety/ui';
import Check from 'lucide-react/icons/check';
import Sparkles from 'lucide-react/icons/sparkles';
import { useEffect } from 'react';
import { DiscordMark } from '../../components/discord-mark';
import { HeroActions, HeroGlow, PanelPreview } from '../../components/hero';
import { Container, IconBadge, Section } from '../../components/layout';
import { href } from '../../lib/hrefs';
import { type MessageKey, useT } from '../../lib/i18n';
import { FEATURES, REASONS, STEPS } from './content';

const PERKS: MessageKey[] = ['home.hero.perk.free', 'home.hero.perk.quick', 'home.hero.perk.themes'];

const BAND_BUTTON =
  'inline-flex h-12 items-center justify-center gap-2 rounded-lg px-6 text-base font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/** Client-side navigation to '/#features' (the header's link) does not scroll by itself. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
}

export default function HomePage() {
  const config = useRuntimeConfig();
  const t = useT();
  const { productName } = config;
  const product = { product: productName };
  const inviteUrl = botInviteUrl(config);
  useScrollToHash();

  return (
    <>
      <section aria-labelledby="home-title" className="relative isolate overflow-hidden">
        <HeroGlow />
        <Container className="grid items-center gap-14 py-16 sm:py-24 lg:grid-cols-[1.1fr_1fr] lg:gap-10">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-primary-50 px-3 py-1 text-sm font-medium text-primary-800 ring-1 ring-primary-600/20 dark:bg-primary-950 dark:text-primary-200 dark:ring-primary-400/30">
              <Sparkles aria-hidden="true" className="size-4" />
              {t('home.hero.eyebrow')}
            </p>
            <h1 id="home-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-surface-900 sm:text-5xl lg:text-6xl dark:text-white">
              {t('home.hero.title')}
            </h1>
            <p className="mt-6 max-w-xl text-lg text-pretty text-surface-600 dark:text-surface-300">
              {t('home.hero.lead', product)}
            </p>
            <HeroActions inviteUrl={inviteUrl} className="mt-8" />
            <ul className="mt-6 flex flex-wrap gap-x-5 gap-y-2 text-sm text-surface-600 dark:text-surface-400">
              {PERKS.map((key) => (
                <li key={key} className="flex items-center gap-1.5">
                  <Check aria-hidden="true" className="size-4 text-primary-600 dark:text-primary-400" />
                  {t(key)}
                </li>
              ))}
            </ul>
          </div>
          <PanelPreview productName={productName} />
        </Container>
      </section>

      <Section
        id="features"
        eyebrow={t('home.features.eyebrow')}
        title={t('home.features.title')}
        lead={t('home.features.lead', product)}
        className="border-t border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-900/40"
      >
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full p-6 transition hover:-translate-y-0.5 hover:shadow-md">
                <IconBadge>
                  <Icon className="size-5" />
                </IconBadge>
                <h3 className="mt-4 font-semibold text-surface-900 dark:text-surface-50">{t(title)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-surface-600 dark:text-surface-400">{t(text, product)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="how-it-works" eyebrow={t('home.how.eyebrow')} title={t('home.how.title')} lead={t('home.how.lead')}>
        <ol className="grid gap-8 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="relative">
              <span
                aria-hidden="true"
                className="flex size-11 items-center justify-center rounded-full bg-primary-600 text-lg font-bold text-white shadow-sm ring-4 ring-primary-100 dark:ring-primary-950"
              >
                {formatNumber(i + 1)}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-surface-900 dark:text-surface-50">
                <span className="sr-only">{t('home.how.step', { step: formatNumber(i + 1) })} </span>
                {t(step.title)}
              </h3>
              <p className="mt-2 text-surface-600 dark:text-surface-400">{t(step.text)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="why"
        eyebrow={t('home.why.eyebrow')}
        title={t('home.why.title')}
        lead={t('home.why.lead')}
        className="border-y border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-900/40"
      >
        <ul className="grid gap-x-10 gap-y-8 md:grid-cols-2 lg:grid-cols-3">
          {REASONS.map((reason) => (
            <li key={reason.title} className="flex gap-4">
              <span aria-hidden="true" className="mt-1 flex size-6 shrink-0 items-center justify-center rounded-full bg-primary-600 text-white">
                <Check className="size-4" />
              </span>
              <div>
                <h3 className="font-semibold text-surface-900 dark:text-surface-50">{t(reason.title)}</h3>
                <p className="mt-1 text-sm leading-relaxed text-surface-600 dark:text-surface-400">{t(reason.text)}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="home-cta" className="py-16 sm:py-24">
        <Container>
          <div className="relative isolate overflow-hidden rounded-3xl bg-linear-to-br from-primary-700 to-primary-900 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20">
            <h2 id="home-cta" className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
              {t('home.cta.title')}
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-lg text-primary-50">{t('home.cta.text', product)}</p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row sm:flex-wrap">
              <a href={inviteUrl} className={cx(BAND_BUTTON, 'bg-white text-primary-800 shadow-sm hover:bg-primary-50')}>
                <DiscordMark className="size-5" />
                {t('common.addToDiscord')}
              </a>
              <Link to={href('/premium')} className={cx(BAND_BUTTON, 'text-white ring-1 ring-white/50 ring-inset hover:bg-white/10')}>
                {t('home.cta.comparePlans')}
              </Link>
            </div>
          </div>
        </Container>
      </section>
    </>
  );
}

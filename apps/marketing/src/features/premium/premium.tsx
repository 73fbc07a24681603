import type { Plan } from '@tickety/api-contract';
import { botInviteUrl, Link, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses, PageHeader } from '@tickety/ui';
import ArrowRight from 'lucide-react/icons/arrow-right';
import CreditCard from 'lucide-react/icons/credit-card';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Faq } from '../../components/faq';
import { Container } from '../../components/layout';
import { type BillingPeriod, isFreePlan, PlanCatalogue } from '../../components/plans';
import { href } from '../../lib/hrefs';
import { type MessageKey, Message, useT } from '../../lib/i18n';
import { premiumFaq } from './premium-faq';

const ASSURANCES: Array<{ icon: typeof CreditCard; title: MessageKey; text: MessageKey }> = [
  { icon: CreditCard, title: 'premium.assurance.pay.title', text: 'premium.assurance.pay.text' },
  { icon: RotateCcw, title: 'premium.assurance.move.title', text: 'premium.assurance.move.text' },
  { icon: ShieldCheck, title: 'premium.assurance.cancel.title', text: 'premium.assurance.cancel.text' },
];

function PlanCta({ plan, period, inviteUrl }: { plan: Plan; period: BillingPeriod; inviteUrl: string }) {
  const t = useT();
  if (isFreePlan(plan)) {
    return (
      <a href={inviteUrl} className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'w-full' })}>
        {t('common.addToDiscord')}
      </a>
    );
  }
  return (
    <Link
      to={href('/premium-purchase', {}, { plan: plan.id, period })}
      className={buttonClasses({ variant: plan.highlight ? 'primary' : 'secondary', size: 'lg', className: 'w-full' })}
    >
      {t('premium.getPlan', { plan: plan.name })}
      <ArrowRight aria-hidden="true" className="size-4" />
    </Link>
  );
}

export default function PremiumPage() {
  const config = useRuntimeConfig();
  const t = useT();
  const inviteUrl = botInviteUrl(config);

  return (
    <Container className="py-12 sm:py-16">
      <PageHeader
        className="sm:block sm:text-center [&_p]:mx-auto [&_p]:max-w-2xl [&_p]:text-base"
        title={t('premium.title', { product: config.productName })}
        description={t('premium.lead')}
      />
      <div className="mx-auto max-w-4xl">
        <PlanCatalogue
          renderCta={(plan, period) => <PlanCta plan={plan} period={period} inviteUrl={inviteUrl} />}
          footer={(plans) => (
            <p className="mt-6 text-center text-sm text-surface-600 dark:text-surface-400">
              {t('premium.prices', { currencies: [...new Set(plans.map((p) => p.currency))].join(', ') })}{' '}
              <Link to={href('/billing')} className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
                {t('premium.manage')}
              </Link>
            </p>
          )}
        />
      </div>

      <ul className="mx-auto mt-16 grid max-w-4xl gap-6 sm:grid-cols-3">
        {ASSURANCES.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3">
            <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary-600 dark:text-primary-400" />
            <div>
              <p className="font-semibold text-surface-900 dark:text-surface-50">{t(title)}</p>
              <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t(text)}</p>
            </div>
          </li>
        ))}
      </ul>

      <section aria-labelledby="premium-faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="premium-faq" className="text-2xl font-bold tracking-tight text-surface-900 dark:text-surface-50">
          {t('premium.faq.title')}
        </h2>
        <Faq items={premiumFaq(t, config.productName)} className="mt-6" />
        <p className="mt-8 text-sm text-surface-600 dark:text-surface-400">
          <Message
            k="premium.faq.more"
            components={{ link: <Link to={href('/support')} className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400" /> }}
          />
        </p>
      </section>
    </Container>
  );
}

import ArrowRight from 'lucide-react/icons/arrow-right';
import CreditCard from 'lucide-react/icons/credit-card';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import ShieldCheck from 'lucide-react/icons/shield-check';
import type { Plan } from '@tickety/api-contract';
import { botInviteUrl, Link, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses, PageHeader } from '@tickety/ui';
import { Faq } from '../components/faq';
import { Container } from '../components/layout';
import { type BillingPeriod, isFreePlan, PlanCatalogue } from '../components/plans';
import { premiumFaq } from './premium-faq';

const ASSURANCES = [
  { icon: CreditCard, title: 'Pay your way', text: 'Paddle, FastSpring, Discord app subscriptions or Chargebee, all on one billing page.' },
  { icon: RotateCcw, title: 'Move it when you need to', text: 'Premium belongs to you: move it to another server from the dashboard.' },
  { icon: ShieldCheck, title: 'Cancel anytime', text: 'Premium runs to the end of the paid period. Your configuration is never deleted.' },
];

function PlanCta({ plan, period, inviteUrl }: { plan: Plan; period: BillingPeriod; inviteUrl: string }) {
  if (isFreePlan(plan)) {
    return (
      <a href={inviteUrl} className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'w-full' })}>
        Add to Discord
      </a>
    );
  }
  return (
    <Link
      to={`/premium-purchase?plan=${encodeURIComponent(plan.id)}&period=${period}`}
      className={buttonClasses({ variant: plan.highlight ? 'primary' : 'secondary', size: 'lg', className: 'w-full' })}
    >
      Get {plan.name}
      <ArrowRight aria-hidden="true" className="size-4" />
    </Link>
  );
}

export default function PremiumPage() {
  const config = useRuntimeConfig();
  const inviteUrl = botInviteUrl(config);

  return (
    <Container className="py-12 sm:py-16">
      <PageHeader
        className="sm:block sm:text-center [&_p]:mx-auto [&_p]:max-w-2xl [&_p]:text-base"
        title={`${config.productName} Premium`}
        description="Start free and upgrade when your community grows: more panels, longer history, support hours and priority help."
      />
      <div className="mx-auto max-w-4xl">
        <PlanCatalogue
          renderCta={(plan, period) => <PlanCta plan={plan} period={period} inviteUrl={inviteUrl} />}
          footer={(plans) => (
            <p className="mt-6 text-center text-sm text-surface-600 dark:text-surface-400">
              Prices in {[...new Set(plans.map((p) => p.currency))].join(', ')}; taxes are added at checkout where they apply.{' '}
              <Link to="/billing" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
                Manage an existing subscription
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
              <p className="font-semibold text-surface-900 dark:text-surface-50">{title}</p>
              <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{text}</p>
            </div>
          </li>
        ))}
      </ul>

      <section aria-labelledby="premium-faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="premium-faq" className="text-2xl font-bold tracking-tight text-surface-900 dark:text-surface-50">
          Frequently asked questions
        </h2>
        <Faq items={premiumFaq(config.productName)} className="mt-6" />
        <p className="mt-8 text-sm text-surface-600 dark:text-surface-400">
          Another question? <Link to="/support" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">Ask us on the support page</Link>.
        </p>
      </section>
    </Container>
  );
}

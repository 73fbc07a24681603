import ArrowRight from 'lucide-react/icons/arrow-right';
import CreditCard from 'lucide-react/icons/credit-card';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import ShieldCheck from 'lucide-react/icons/shield-check';
import type { Plan } from '@tickety/api-contract';
import { botInviteUrl, useRuntimeConfig } from '@tickety/shared';
import { Alert, Button, buttonClasses, EmptyState, PageHeader } from '@tickety/ui';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { Faq } from '../components/faq';
import { Container } from '../components/layout';
import { ExternalLink } from '../components/links';
import { type BillingPeriod, BillingPeriodToggle, isFreePlan, PlanCard, PlanSkeletons, planGridClasses, yearlySavingPercent } from '../components/plans';
import { useMarketingPlansQuery } from '../lib/api';
import { premiumFaq } from './premium-faq';

const ASSURANCES = [
  { icon: CreditCard, title: 'Pay your way', text: 'Paddle, FastSpring, Discord app subscriptions or Chargebee, all on one billing page.' },
  { icon: RotateCcw, title: 'Move it when you need to', text: 'Premium belongs to you: move it to another server from the dashboard.' },
  { icon: ShieldCheck, title: 'Cancel anytime', text: 'Premium runs to the end of the paid period. Your configuration is never deleted.' },
];

function PlanCta({ plan, period, inviteUrl }: { plan: Plan; period: BillingPeriod; inviteUrl: string }) {
  if (isFreePlan(plan)) {
    return (
      <ExternalLink href={inviteUrl} className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'w-full' })}>
        Add to Discord
      </ExternalLink>
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
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const { data: plans, isLoading, isError, isFetching, refetch } = useMarketingPlansQuery();
  const inviteUrl = botInviteUrl(config);

  let body: ReactNode;
  if (plans && plans.length > 0) {
    body = (
      <>
        <div className="mb-8 flex justify-center">
          <BillingPeriodToggle value={period} onChange={setPeriod} saving={yearlySavingPercent(plans)} />
        </div>
        <div className={planGridClasses(plans.length)}>
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} period={period} cta={<PlanCta plan={plan} period={period} inviteUrl={inviteUrl} />} />
          ))}
        </div>
        <p className="mt-6 text-center text-sm text-surface-600 dark:text-surface-400">
          Prices in {plans[0]!.currency}; taxes are added at checkout where they apply.{' '}
          <Link to="/billing" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
            Manage an existing subscription
          </Link>
        </p>
      </>
    );
  } else if (plans) {
    body = <EmptyState title="No plans are on sale right now" description={`Every ${config.productName} feature on the free plan stays available. Check back soon.`} />;
  } else if (isError && !isFetching) {
    body = (
      <Alert
        tone="warning"
        title="The plans could not be loaded"
        actions={
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Try again
          </Button>
        }
      >
        The prices did not arrive. Try again, or come back in a moment.
      </Alert>
    );
  } else {
    body = <PlanSkeletons />;
  }

  return (
    <Container className="py-12 sm:py-16">
      <PageHeader
        className="sm:block sm:text-center [&_p]:mx-auto [&_p]:max-w-2xl [&_p]:text-base"
        title={`${config.productName} Premium`}
        description="Start free and upgrade when your community grows: more panels, longer history, support hours and priority help."
      />
      <div aria-busy={isLoading || undefined} className="mx-auto max-w-4xl">
        {body}
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

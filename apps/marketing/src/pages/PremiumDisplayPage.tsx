import ArrowRight from 'lucide-react/icons/arrow-right';
import { botInviteUrl, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses } from '@tickety/ui';
import { isFreePlan, PlanCatalogue } from '../components/plans';

const NEW_TAB_HINT = <span className="sr-only"> (opens in a new tab)</span>;

/** The premium plans for other sites to frame (display layout). Links open a new tab. */
export default function PremiumDisplayPage() {
  const config = useRuntimeConfig();
  const inviteUrl = botInviteUrl(config);
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-4 text-center text-xl font-bold tracking-tight text-surface-900 sm:text-2xl dark:text-white">{config.productName} Premium</h1>
      <PlanCatalogue
        compact
        renderCta={(plan, period) =>
          isFreePlan(plan) ? (
            <a href={inviteUrl} target="_blank" rel="noopener" className={buttonClasses({ variant: 'secondary', className: 'w-full' })}>
              Add to Discord
              {NEW_TAB_HINT}
            </a>
          ) : (
            <a
              href={`/premium-purchase?plan=${encodeURIComponent(plan.id)}&period=${period}`}
              target="_blank"
              rel="noopener"
              className={buttonClasses({ variant: plan.highlight ? 'primary' : 'secondary', className: 'w-full' })}
            >
              Get {plan.name}
              <ArrowRight aria-hidden="true" className="size-4" />
              {NEW_TAB_HINT}
            </a>
          )
        }
        footer={() => (
          <p className="mt-4 text-center text-sm">
            <a href="/premium" target="_blank" rel="noopener" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
              Compare plans and read the FAQ
              {NEW_TAB_HINT}
            </a>
          </p>
        )}
      />
    </div>
  );
}

import { botInviteUrl, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses } from '@tickety/ui';
import ArrowRight from 'lucide-react/icons/arrow-right';
import { isFreePlan, PlanCatalogue } from '../../components/plans';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';

/** Said to screen readers after a link's text: every link leaves the frame. */
function NewTabHint() {
  const t = useT();
  return <span className="sr-only"> {t('common.newTab')}</span>;
}

/** The premium plans for other sites to frame (display layout). Links open a new tab. */
export default function PremiumDisplayPage() {
  const config = useRuntimeConfig();
  const t = useT();
  const inviteUrl = botInviteUrl(config);
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-4 text-center text-xl font-bold tracking-tight text-surface-900 sm:text-2xl dark:text-white">
        {t('premium.title', { product: config.productName })}
      </h1>
      <PlanCatalogue
        compact
        renderCta={(plan, period) =>
          isFreePlan(plan) ? (
            <a href={inviteUrl} target="_blank" rel="noopener" className={buttonClasses({ variant: 'secondary', className: 'w-full' })}>
              {t('common.addToDiscord')}
              <NewTabHint />
            </a>
          ) : (
            <a
              href={href('/premium-purchase', {}, { plan: plan.id, period })}
              target="_blank"
              rel="noopener"
              className={buttonClasses({ variant: plan.highlight ? 'primary' : 'secondary', className: 'w-full' })}
            >
              {t('premium.getPlan', { plan: plan.name })}
              <ArrowRight aria-hidden="true" className="size-4" />
              <NewTabHint />
            </a>
          )
        }
        footer={() => (
          <p className="mt-4 text-center text-sm">
            <a href={href('/premium')} target="_blank" rel="noopener" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
              {t('premiumDisplay.compare')}
              <NewTabHint />
            </a>
          </p>
        )}
      />
    </div>
  );
}

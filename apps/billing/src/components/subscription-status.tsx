import type { BillingSubscription } from '@tickety/api-contract';
import { formatDate } from '@tickety/shared';
import { Badge } from '@tickety/ui';
import { useT } from '../lib/i18n';

/** A subscription's state in a word, with the tone it deserves. */
export function StatusBadge({ subscription }: { subscription: BillingSubscription }) {
  const t = useT();
  if (subscription.graceUntil) return <Badge tone="warning">{t('subscription.status.grace')}</Badge>;
  if (subscription.premium && subscription.cancelAtPeriodEnd) return <Badge tone="warning">{t('subscription.status.ending')}</Badge>;
  if (subscription.premium) return <Badge tone="primary">{t('subscription.status.active')}</Badge>;
  return <Badge>{t('subscription.status.inactive', { status: subscription.status.replace(/_/g, ' ') })}</Badge>;
}

/** "Renews on …", "Ends on …", "Payment failed: premium kept until …", or the provider's status. */
export function RenewalLine({ subscription }: { subscription: BillingSubscription }) {
  const t = useT();
  const day = (at: string) => formatDate(at.slice(0, 10));
  if (subscription.graceUntil) return <>{t('subscription.renewal.grace', { date: day(subscription.graceUntil) })}</>;
  if (!subscription.currentPeriodEnd) return <>{t('subscription.renewal.none')}</>;
  if (!subscription.premium) return <>{t('subscription.renewal.ended', { date: day(subscription.currentPeriodEnd) })}</>;
  if (subscription.cancelAtPeriodEnd) return <>{t('subscription.renewal.ends', { date: day(subscription.currentPeriodEnd) })}</>;
  return <>{t('subscription.renewal.renews', { date: day(subscription.currentPeriodEnd) })}</>;
}

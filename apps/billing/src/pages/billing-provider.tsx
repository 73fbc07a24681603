import { useOpenBilling, useParams, useRouteData } from '@tickety/shared';
import { Alert, PageHeader } from '@tickety/ui';
import { BackLink } from '../components/back-link';
import { ComingNext, DetailsCard } from '../components/notices';
import { href } from '../lib/hrefs';
import { T, useT } from '../lib/i18n';
import { isProviderId, PROVIDERS } from '../lib/providers';

/** /billing/<provider>/:id and, for staff, /billing/:user/<provider>/:id: one provider's subscription. */
export default function BillingProviderPage() {
  const t = useT();
  const { provider } = useRouteData();
  const { id, user } = useParams();
  // The subscription this page shows is open while it does (the shell's billing tabs name it).
  useOpenBilling(isProviderId(provider) && id ? { provider, id } : null);
  const back = user ? href('/billing/:user', { user }) : href('/billing');
  const backLink = <BackLink to={back} />;

  if (!isProviderId(provider)) {
    return (
      <div>
        <PageHeader title={t('title.billingProvider')} description={t('provider.unknown.description')} actions={backLink} />
        <Alert tone="danger" title={t('provider.unknown.title')}>
          {t('provider.unknown.body')}
        </Alert>
      </div>
    );
  }

  const { name, kind } = PROVIDERS[provider];
  return (
    <div>
      <PageHeader title={t('provider.title', { name })} description={t('provider.description', { name })} actions={backLink} />
      <div className="space-y-6">
        <DetailsCard
          title={t('provider.details.title')}
          rows={[
            { label: t('provider.details.provider'), value: t('provider.details.providerValue', { name, kind: t(kind) }) },
            { label: t('provider.details.id'), value: <code className="font-mono">{id}</code> },
            {
              label: t('provider.details.account'),
              value: user ? (
                <T k="provider.details.accountStaff" values={{ user }} components={{ code: <code className="font-mono" /> }} />
              ) : (
                t('provider.details.accountOwn')
              ),
            },
          ]}
        />
        <ComingNext title={t('provider.next.title', { name })}>{t('provider.next.body', { name })}</ComingNext>
      </div>
    </div>
  );
}

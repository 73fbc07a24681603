import { useParams, useRouteData } from '@tickety/shared';
import { Alert, PageHeader } from '@tickety/ui';
import { BackLink } from '../components/back-link';
import { ComingNext, DetailsCard } from '../components/notices';
import { isProviderId, PROVIDERS } from '../providers';

/** /billing/<provider>/:id and, for staff, /billing/:user/<provider>/:id: one provider's subscription. */
export default function BillingProviderPage() {
  const { provider } = useRouteData();
  const { id, user } = useParams();
  const back = user ? `/billing/${user}` : '/billing';
  const backLink = <BackLink to={back} />;

  if (!isProviderId(provider)) {
    return (
      <div>
        <PageHeader title="Subscription" description="One subscription with a billing provider." actions={backLink} />
        <Alert tone="danger" title="Unknown billing provider">
          This address does not name one of the billing providers (Paddle, FastSpring, Discord or Chargebee).
        </Alert>
      </div>
    );
  }

  const info = PROVIDERS[provider];
  return (
    <div>
      <PageHeader title={`${info.name} subscription`} description={`One subscription billed through ${info.name}: plan, status, renewal and actions.`} actions={backLink} />
      <div className="space-y-6">
        <DetailsCard
          title="Subscription"
          rows={[
            { label: 'Provider', value: `${info.name} (${info.kind})` },
            { label: 'Subscription id', value: <code className="font-mono">{id}</code> },
            { label: 'Account', value: user ? <>Discord user <code className="font-mono">{user}</code> (staff view)</> : 'Yours' },
          ]}
        />
        <ComingNext title={`Details from ${info.name} arrive in the next version`}>
          This subscription's plan, status, renewal or end date, covered servers and its actions (cancel, update payment method, {info.name}'s own portal, where{' '}
          {info.name} offers them) are not loaded in this version.
        </ComingNext>
      </div>
    </div>
  );
}

import { Link } from '@tickety/shared';
import { buttonClasses, Card, PageHeader } from '@tickety/ui';
import { BackLink } from '../components/back-link';
import { CheckoutAvailability } from '../components/notices';

/** /billing/paddleUpdate: Paddle's update-payment-method checkout. */
export default function PaddleUpdatePage() {
  return (
    <div>
      <PageHeader
        title="Update Payment Method"
        description="Change the card your Paddle subscription is charged to."
        actions={<BackLink to="/billing" />}
      />
      <div className="space-y-6">
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">What this page does</h2>
          <p className="mt-2">
            It opens Paddle's update-payment-method form for a Paddle subscription: you enter the new card in Paddle's secure form and the next renewal
            is charged to it. Subscriptions through FastSpring, Discord or Chargebee are updated with that provider.
          </p>
        </Card>
        <CheckoutAvailability purpose="update" />
      </div>
    </div>
  );
}

import { Link, useRuntimeConfig } from '@tickety/shared';
import { buttonClasses, Card, PageHeader } from '@tickety/ui';
import { CheckoutAvailability } from '../components/notices';

/** /billing/paddleBuy: Paddle's checkout for the chosen plan. */
export default function PaddleBuyPage() {
  const { productName } = useRuntimeConfig();
  return (
    <div>
      <PageHeader
        title="Checkout"
        description="Buy premium through Paddle's secure checkout."
        actions={
          <Link to="/premium-purchase" className={buttonClasses({ variant: 'secondary' })}>
            Compare plans
          </Link>
        }
      />
      <div className="space-y-6">
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">What this page does</h2>
          <p className="mt-2">
            It opens Paddle's checkout for the plan you choose on Premium Purchase. Card details go into Paddle's own secure form; {productName} never
            sees them. Once paid, the premium shows on your Billing page, ready to attach to a server.
          </p>
        </Card>
        <CheckoutAvailability purpose="purchase" />
      </div>
    </div>
  );
}

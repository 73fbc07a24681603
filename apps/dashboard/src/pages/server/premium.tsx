import { Link } from '@tickety/shared';
import Gem from 'lucide-react/icons/gem';
import { buttonClasses } from '@tickety/ui';
import { ServerPageFrame } from './server-frame';

/** Server premium (/dashboard/:server/premium). */
export default function ServerPremium() {
  return (
    <ServerPageFrame
      info={{
        name: 'Premium',
        icon: Gem,
        description: (server) => `Premium for ${server}: whether it has it, which subscription covers it, and moving a premium slot here.`,
        feature: 'Managing premium per server',
        upcoming: [
          "This server's premium state and the subscription that covers it.",
          'Assigning one of your premium slots to this server, or moving one here from another server (with a short cooldown).',
        ],
        links: (
          <>
            <Link to="/premium" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              See the premium plans
            </Link>
            <Link to="/billing" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
              Your subscriptions
            </Link>
          </>
        ),
      }}
    />
  );
}

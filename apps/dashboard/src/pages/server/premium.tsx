import { Link } from '@tickety/shared';
import Gem from 'lucide-react/icons/gem';
import { buttonClasses } from '@tickety/ui';
import { href } from '../../lib/hrefs';
import { useT } from '../../lib/i18n';
import { ServerPageFrame } from './server-frame';

/** Server premium (/dashboard/:server/premium). */
export default function ServerPremium() {
  const t = useT();
  return (
    <ServerPageFrame
      info={{
        name: 'sidebar.serverPremium',
        icon: Gem,
        description: 'server.premium.description',
        feature: 'server.premium.feature',
        upcoming: ['server.premium.upcoming.state', 'server.premium.upcoming.slots'],
        links: (
          <>
            <Link to={href('/premium')} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              {t('server.premium.plans')}
            </Link>
            <Link to={href('/billing')} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
              {t('server.premium.subscriptions')}
            </Link>
          </>
        ),
      }}
    />
  );
}

import { siteHref } from '@tickety/shared';
import { Alert, buttonClasses } from '@tickety/ui';
import { Eye } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useT } from '../lib/i18n';

/**
 * The note on every page of a server a staff member views read-only (`access.via` 'staff': the API's
 * staff read, DASHBOARD_SUPPORT_SEARCH_READ, for a server they have no access of their own to): says
 * so, that nothing can be saved and that the visit is in the staff audit, and leads back to support
 * search, where such a visit starts.
 */
export function StaffReadBanner({ serverName }: { serverName: string | null }) {
  const t = useT();
  return (
    <Alert
      tone="warning"
      className="mb-6"
      icon={<Eye aria-hidden="true" className="size-4" />}
      title={t('server.staffRead.title')}
      actions={
        <Link to={siteHref('/support-team')} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          {t('server.staffRead.back')}
        </Link>
      }
    >
      {t('server.staffRead.description', { server: serverName ?? '', hasName: serverName ? 'yes' : 'no' })}
    </Alert>
  );
}

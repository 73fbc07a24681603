import { Alert, PageHeader } from '@tickety/ui';
import Eye from 'lucide-react/icons/eye';
import { useHoldsFlag } from '../../components/notices';
import { useT } from '../../lib/i18n';
import { useStaffTeamQuery } from './api';
import { STAFF_FLAGS } from './flags';
import { TeamAudit } from './team-audit';
import { TeamMembers } from './team-members';

/**
 * /team-manager (SPECIAL_TEAM_MANAGER_READ): every staff member with their flags and who granted
 * each, and the staff audit. With SPECIAL_TEAM_MANAGER_WRITE: add, edit and remove members, each
 * change confirmed; without it the page is read-only and says so.
 */
export default function TeamManagerPage() {
  const t = useT();
  const canWrite = useHoldsFlag('SPECIAL_TEAM_MANAGER_WRITE');
  // The audit's staff filter offers the members (the same cached answer the list shows).
  const members = useStaffTeamQuery().data?.members;
  return (
    <div>
      <PageHeader title={t('title.teamManager')} description={t('teamManager.description')} />
      <div className="space-y-10">
        {canWrite ? null : (
          <Alert tone="info" icon={<Eye className="size-5" aria-hidden="true" />} title={t('teamManager.readOnly.title')}>
            {t('teamManager.readOnly.body', { flag: t(STAFF_FLAGS.SPECIAL_TEAM_MANAGER_WRITE.label) })} <code className="font-mono text-xs break-all">SPECIAL_TEAM_MANAGER_WRITE</code>
          </Alert>
        )}
        <TeamMembers />
        <TeamAudit members={members} />
      </div>
    </div>
  );
}

import { selectStaffPermissions, selectTeam, useAppSelector } from '@tickety/shared';
import { Badge, Card, PageHeader } from '@tickety/ui';
import { ComingNext, flagCode, GrantBadge } from '../components/notices';
import { FLAG_ORDER, STAFF_FLAGS } from '../flags';

/** /team-manager: the signed-in staff member's own flags, with what each allows. */
export default function TeamManagerPage() {
  const team = useAppSelector(selectTeam);
  const held = useAppSelector(selectStaffPermissions);
  const canWrite = held.includes('SPECIAL_TEAM_MANAGER_WRITE');
  return (
    <div>
      <PageHeader title="Team Manager" description="Staff members and the permission flags each one holds." />
      <div className="space-y-6">
        <Card className="p-5 sm:p-6">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">Your flags</h2>
            {team?.owner ? <Badge tone="primary">Owner</Badge> : null}
          </div>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
            {team?.owner
              ? 'You are an owner (listed in STAFF_OWNER_IDS): owners hold every flag.'
              : `You hold ${held.length} of the ${FLAG_ORDER.length} flags.`}
          </p>
          <div className="mt-4 overflow-x-auto">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">Your staff permission flags and what each allows</caption>
              <thead className="border-b border-surface-200 text-xs uppercase tracking-wide text-surface-500 dark:border-surface-800 dark:text-surface-400">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Flag
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    What it allows
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    You
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-surface-200 dark:divide-surface-800">
                {FLAG_ORDER.map((flag) => (
                  <tr key={flag} className="align-top">
                    <th scope="row" className="py-3 pr-4 font-normal">
                      <span className="block font-medium text-surface-900 dark:text-surface-50">{STAFF_FLAGS[flag].label}</span>
                      <code className={`${flagCode} text-surface-500 dark:text-surface-400`}>{flag}</code>
                    </th>
                    <td className="py-3 pr-4 text-surface-700 dark:text-surface-300">{STAFF_FLAGS[flag].allows}</td>
                    <td className="py-3">
                      <GrantBadge granted={held.includes(flag)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
        <ComingNext title="The staff list and granting flags come with the staff tools">
          This version shows only your own flags. Listing every staff member and granting or revoking flags will need the Team manager (write) flag,
          which you {canWrite ? 'hold' : 'do not hold'}.
        </ComingNext>
      </div>
    </div>
  );
}

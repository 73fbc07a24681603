import { formatNumber, type StaffPermission, selectStaffPermissions, selectTeam, useAppSelector } from '@tickety/shared';
import { Badge, Card, PageHeader, Table, type TableColumn } from '@tickety/ui';
import { ComingNext, flagCode, GrantBadge } from '../components/notices';
import { FLAG_ORDER, STAFF_FLAGS } from '../lib/flags';
import { useT } from '../lib/i18n';

/** /team-manager: the signed-in staff member's own flags, with what each allows. */
export default function TeamManagerPage() {
  const t = useT();
  const team = useAppSelector(selectTeam);
  const held = useAppSelector(selectStaffPermissions);
  const canWrite = held.includes('SPECIAL_TEAM_MANAGER_WRITE');
  const columns: TableColumn<StaffPermission>[] = [
    {
      key: 'flag',
      header: t('teamManager.table.flag'),
      label: t('teamManager.table.flag'),
      rowHeader: true,
      sortValue: (flag) => t(STAFF_FLAGS[flag].label),
      cell: (flag) => (
        <span>
          <span className="block font-medium text-surface-900 dark:text-surface-50">{t(STAFF_FLAGS[flag].label)}</span>
          <code className={`${flagCode} text-surface-500 dark:text-surface-400`}>{flag}</code>
        </span>
      ),
    },
    { key: 'allows', header: t('teamManager.table.allows'), label: t('teamManager.table.allows'), cell: (flag) => t(STAFF_FLAGS[flag].allows), className: 'text-surface-700 dark:text-surface-300' },
    {
      key: 'you',
      header: t('teamManager.table.you'),
      label: t('teamManager.table.you'),
      sortValue: (flag) => (held.includes(flag) ? 0 : 1),
      cell: (flag) => <GrantBadge granted={held.includes(flag)} />,
    },
  ];
  return (
    <div>
      <PageHeader title={t('title.teamManager')} description={t('teamManager.description')} />
      <div className="space-y-6">
        <Card className="p-5 sm:p-6">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('teamManager.yourFlags')}</h2>
            {team?.owner ? <Badge tone="primary">{t('teamManager.owner')}</Badge> : null}
          </div>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
            {team?.owner
              ? t('teamManager.ownerNote')
              : t('teamManager.heldCount', { held: formatNumber(held.length), total: formatNumber(FLAG_ORDER.length) })}
          </p>
          <Table
            className="mt-4"
            caption={t('teamManager.table.caption')}
            columns={columns}
            rows={FLAG_ORDER}
            rowKey={(flag) => flag}
            empty={null}
          />
        </Card>
        <ComingNext title={t('teamManager.next.title')}>
          {t(canWrite ? 'teamManager.next.bodyHeld' : 'teamManager.next.bodyNotHeld', { flag: t(STAFF_FLAGS.SPECIAL_TEAM_MANAGER_WRITE.label) })}
        </ComingNext>
      </div>
    </div>
  );
}

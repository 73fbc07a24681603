import { OWNER_ONLY_STAFF_PERMISSIONS } from '@tickety/api-contract';
import { failureText, formatDateTime, formatNumber, isSnowflake, type StaffPermission, selectStaffPermissions, selectTeam, selectUser, useAppSelector } from '@tickety/shared';
import { Alert, Avatar, Badge, Button, Card, EmptyState, LoadFailed, Skeleton, Spinner, TextField } from '@tickety/ui';
import CircleCheck from 'lucide-react/icons/circle-check';
import UserPlus from 'lucide-react/icons/user-plus';
import Users from 'lucide-react/icons/users';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useHoldsFlag } from '../../components/notices';
import { useT } from '../../lib/i18n';
import {
  type StaffLookupAnswer,
  type StaffTeamMember,
  useLazyStaffLookupQuery,
  useRemoveStaffMemberMutation,
  useSetStaffMemberMutation,
  useStaffTeamQuery,
} from './api';
import { ChangeSummary, FlagChoices, GrantList, usePersonName } from './team-flags';

/** The change waiting for its confirmation. */
type Pending =
  | { kind: 'add'; person: StaffLookupAnswer; permissions: StaffPermission[] }
  | { kind: 'edit'; member: StaffTeamMember; permissions: StaffPermission[] }
  | { kind: 'remove'; member: StaffTeamMember };

/** The last change done, said once above the list. */
type Done = { kind: 'add' | 'edit' | 'remove'; name: string; count: number } | null;

/**
 * The staff members: owners first, each with their flags and who granted each; with
 * SPECIAL_TEAM_MANAGER_WRITE, adding a member by Discord id (looked up first), editing a member's
 * flags (only flags the viewer holds can change; never one's own, never an owner's) and removing
 * one, each after a confirmation.
 */
export function TeamMembers() {
  const t = useT();
  const nameOf = usePersonName();
  const canWrite = useHoldsFlag('SPECIAL_TEAM_MANAGER_WRITE');
  const held = useAppSelector(selectStaffPermissions);
  const viewerId = useAppSelector(selectUser)?.id ?? null;
  const team = useStaffTeamQuery(undefined, { refetchOnMountOrArgChange: true });
  /** Whether the viewer is an owner (STAFF_OWNER_IDS): only owners change owner-only flags. */
  const viewerIsOwner = useAppSelector(selectTeam)?.owner === true;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  const [editing, setEditing] = useState<{ id: string; permissions: StaffPermission[] } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<Done>(null);
  const [error, setError] = useState<unknown>(undefined);
  const opener = useRef<HTMLElement | null>(null);
  const [setMember, setState] = useSetStaffMemberMutation();
  const [removeMember, removeState] = useRemoveStaffMemberMutation();
  const [addKey, setAddKey] = useState(0);

  const ask = (next: Pending) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setError(undefined);
    setPending(next);
  };
  const returnFocus = () => {
    const target = opener.current;
    opener.current = null;
    setTimeout(() => {
      if (target?.isConnected) target.focus();
      else heading.current?.focus();
    }, 0);
  };
  const cancel = () => {
    setPending(null);
    returnFocus();
  };
  const confirm = async () => {
    if (!pending) return;
    setError(undefined);
    try {
      if (pending.kind === 'remove') {
        await removeMember({ user: pending.member.id }).unwrap();
        setDone({ kind: 'remove', name: nameOf(pending.member), count: 0 });
      } else {
        const user = pending.kind === 'add' ? pending.person.id : pending.member.id;
        await setMember({ user, permissions: pending.permissions }).unwrap();
        setDone({ kind: pending.kind, name: nameOf(pending.kind === 'add' ? pending.person : pending.member), count: pending.permissions.length });
        if (pending.kind === 'add') setAddKey((k) => k + 1);
      }
    } catch (failure) {
      setError(failure);
      return;
    }
    setEditing(null);
    setPending(null);
    opener.current = null;
    returnFocus();
  };

  let body: ReactNode;
  if (!team.data) {
    body = team.isError ? (
      <LoadFailed title={t('team.members.loadFailed')} reason={failureText(team.error)} retryLabel={t('team.retry')} onRetry={() => void team.refetch()} />
    ) : (
      <div role="status" aria-busy="true" className="space-y-3">
        <span className="sr-only">{t('team.members.loading')}</span>
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
    );
  } else if (team.data.members.length === 0) {
    body = <EmptyState icon={<Users className="size-6" aria-hidden="true" />} title={t('team.members.empty')} description={t('team.members.emptyBody')} />;
  } else {
    body = (
      <>
        {team.isError ? (
          <LoadFailed tone="warning" title={t('team.members.refreshFailed')} reason={failureText(team.error)} retryLabel={t('team.retry')} onRetry={() => void team.refetch()} />
        ) : null}
        <ul className="space-y-4" aria-labelledby={headingId}>
          {team.data.members.map((member) => {
            const name = nameOf(member);
            const self = member.id === viewerId;
            const editable = canWrite && !member.owner && !self;
            // Removing a member takes every flag away: one who holds an owner-only flag only an owner removes.
            const removable = editable && (viewerIsOwner || !member.permissions.some((p) => OWNER_ONLY_STAFF_PERMISSIONS.includes(p)));
            const isEditing = editing?.id === member.id;
            return (
              <li key={member.id}>
                <Card className="p-4 sm:p-5">
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                    <div className="flex min-w-0 items-start gap-3">
                      <Avatar src={member.avatarUrl} name={name} size="md" />
                      <div className="min-w-0">
                        <div className="flex flex-wrap items-center gap-2">
                          <h3 className="font-semibold break-words text-surface-900 dark:text-surface-50">{name}</h3>
                          {member.owner ? <Badge tone="warning">{t('team.member.owner')}</Badge> : null}
                          {self ? <Badge>{t('team.member.you')}</Badge> : null}
                        </div>
                        {member.username ? <p className="text-sm break-all text-surface-600 dark:text-surface-400">@{member.username}</p> : null}
                        <p className="text-xs text-surface-600 dark:text-surface-400">
                          {t('team.member.id')} <code className="font-mono break-all">{member.id}</code>
                        </p>
                        {member.addedAt ? (
                          <p className="text-xs text-surface-600 dark:text-surface-400">
                            {t('team.member.addedBy', { name: nameOf(member.addedBy) })} <time dateTime={member.addedAt}>{formatDateTime(member.addedAt)}</time>
                          </p>
                        ) : null}
                      </div>
                    </div>
                    {editable && !isEditing ? (
                      <div className="flex flex-wrap gap-2">
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={t('team.member.editFor', { name })}
                          onClick={() => {
                            setDone(null);
                            setEditing({ id: member.id, permissions: [...member.permissions] });
                          }}
                        >
                          {t('team.member.edit')}
                        </Button>
                        {removable ? (
                          <Button variant="secondary" size="sm" aria-label={t('team.member.removeFor', { name })} onClick={() => ask({ kind: 'remove', member })}>
                            {t('team.member.remove')}
                          </Button>
                        ) : null}
                      </div>
                    ) : null}
                  </div>
                  <div className="mt-4">
                    {isEditing && editing ? (
                      <div className="space-y-4">
                        <FlagChoices legend={t('team.member.flagsLegend', { name })} value={editing.permissions} held={held} owner={viewerIsOwner} onChange={(permissions) => setEditing({ id: member.id, permissions })} />
                        {editing.permissions.length === 0 ? <p className="text-sm text-surface-700 dark:text-surface-300">{t('team.member.noneLeft')}</p> : null}
                        <div className="flex flex-wrap gap-2">
                          <Button
                            size="sm"
                            disabled={editing.permissions.length === 0 || sameFlags(editing.permissions, member.permissions)}
                            onClick={() => ask({ kind: 'edit', member, permissions: editing.permissions })}
                          >
                            {t('team.member.save')}
                          </Button>
                          <Button variant="secondary" size="sm" onClick={() => setEditing(null)}>
                            {t('team.member.cancelEdit')}
                          </Button>
                        </div>
                      </div>
                    ) : (
                      <GrantList grants={member.grants} owner={member.owner} memberName={name} />
                    )}
                    {member.owner ? <p className="mt-3 text-xs text-surface-600 dark:text-surface-400">{t('team.member.ownerNote')}</p> : null}
                    {self && !member.owner && canWrite ? <p className="mt-3 text-xs text-surface-600 dark:text-surface-400">{t('team.member.selfNote')}</p> : null}
                    {editable && !removable ? <p className="mt-3 text-xs text-surface-600 dark:text-surface-400">{t('team.member.managerNote')}</p> : null}
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2 ref={heading} id={headingId} tabIndex={-1} className="text-lg font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
          {t('team.members.heading')}
          {team.data ? <span className="ml-2 text-sm font-normal text-surface-600 dark:text-surface-400">({formatNumber(team.data.members.length)})</span> : null}
        </h2>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('team.members.description')}</p>
      </div>
      {done ? (
        <Alert tone="primary" icon={<CircleCheck className="size-5" aria-hidden="true" />}>
          {done.kind === 'add'
            ? t('team.done.add', { name: done.name, count: done.count })
            : done.kind === 'edit'
              ? t('team.done.edit', { name: done.name })
              : t('team.done.remove', { name: done.name })}
        </Alert>
      ) : null}
      {canWrite ? <AddMember key={addKey} held={held} owner={viewerIsOwner} viewerId={viewerId} onAsk={(person, permissions) => ask({ kind: 'add', person, permissions })} /> : null}
      {body}
      {pending ? (
        <ConfirmDialog
          title={
            pending.kind === 'add'
              ? t('team.confirm.addTitle', { name: nameOf(pending.person) })
              : pending.kind === 'edit'
                ? t('team.confirm.editTitle', { name: nameOf(pending.member) })
                : t('team.confirm.removeTitle', { name: nameOf(pending.member) })
          }
          confirmLabel={pending.kind === 'add' ? t('team.confirm.add') : pending.kind === 'edit' ? t('team.confirm.edit') : t('team.confirm.remove')}
          danger={pending.kind === 'remove'}
          busy={setState.isLoading || removeState.isLoading}
          error={error}
          errorTitle={t('team.confirm.failed')}
          onConfirm={() => void confirm()}
          onCancel={cancel}
        >
          {pending.kind === 'remove' ? (
            <>
              <p>{t('team.confirm.removeBody', { name: nameOf(pending.member) })}</p>
              <ChangeSummary before={pending.member.permissions} after={[]} />
            </>
          ) : (
            <>
              <p>{t('team.confirm.body')}</p>
              <ChangeSummary before={pending.kind === 'edit' ? pending.member.permissions : []} after={pending.permissions} />
            </>
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function sameFlags(before: readonly StaffPermission[], after: readonly StaffPermission[]): boolean {
  return before.length === after.length && before.every((flag) => after.includes(flag));
}

/** "Add a member": a Discord id, looked up (name and avatar shown), then the flags to grant. */
function AddMember({
  held,
  owner,
  viewerId,
  onAsk,
}: {
  held: readonly StaffPermission[];
  /** Whether the viewer is an owner (only owners grant OWNER_ONLY_STAFF_PERMISSIONS). */
  owner: boolean;
  viewerId: string | null;
  onAsk: (person: StaffLookupAnswer, permissions: StaffPermission[]) => void;
}) {
  const t = useT();
  const nameOf = usePersonName();
  const headingId = useId();
  const [id, setId] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [permissions, setPermissions] = useState<StaffPermission[]>([]);
  const [lookup, result] = useLazyStaffLookupQuery();
  const asked = result.originalArgs;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (!isSnowflake(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setPermissions([]);
    void lookup(value);
  };

  const person = result.data && result.data.id === asked && !result.isFetching ? result.data : null;
  let found: ReactNode = null;
  if (result.isFetching) {
    found = (
      <p role="status" className="flex items-center gap-2 text-sm text-surface-700 dark:text-surface-300">
        <Spinner size="sm" label={null} /> {t('team.add.looking')}
      </p>
    );
  } else if (result.isError) {
    found = (
      <Alert
        tone="danger"
        title={t('team.add.lookupFailed')}
        actions={
          asked ? (
            <Button variant="secondary" size="sm" onClick={() => void lookup(asked)}>
              {t('team.retry')}
            </Button>
          ) : null
        }
      >
        {failureText(result.error)}
      </Alert>
    );
  } else if (person) {
    const name = nameOf(person);
    found = (
      <div className="space-y-4 rounded-lg border border-surface-200 p-4 dark:border-surface-700">
        <section className="flex items-center gap-3" aria-label={t('team.add.found')}>
          <Avatar src={person.avatarUrl} name={name} size="lg" />
          <div className="min-w-0">
            <p className="font-semibold break-words text-surface-900 dark:text-surface-50">{name}</p>
            {person.username ? <p className="text-sm break-all text-surface-600 dark:text-surface-400">@{person.username}</p> : null}
            <p className="text-xs text-surface-600 dark:text-surface-400">
              {t('team.member.id')} <code className="font-mono break-all">{person.id}</code>
            </p>
          </div>
        </section>
        {person.owner ? (
          <p className="text-sm">{t('team.add.isOwner', { name })}</p>
        ) : person.member ? (
          <p className="text-sm">{t('team.add.isMember', { name })}</p>
        ) : person.id === viewerId ? (
          <p className="text-sm">{t('team.member.selfNote')}</p>
        ) : (
          <>
            <FlagChoices legend={t('team.add.flagsLegend', { name })} value={permissions} held={held} owner={owner} onChange={setPermissions} />
            <Button disabled={permissions.length === 0} onClick={() => onAsk(person, permissions)}>
              <UserPlus className="size-4" aria-hidden="true" />
              {t('team.add.submit', { name })}
            </Button>
            {permissions.length === 0 ? <p className="text-xs text-surface-600 dark:text-surface-400">{t('team.add.pickOne')}</p> : null}
          </>
        )}
      </div>
    );
  }

  return (
    <Card className="p-4 sm:p-5">
      <h3 id={headingId} className="font-semibold text-surface-900 dark:text-surface-50">
        {t('team.add.heading')}
      </h3>
      <form className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={submit} aria-labelledby={headingId} noValidate>
        <TextField
          className="min-w-0 flex-1"
          label={t('team.add.idLabel')}
          hint={t('team.add.idHint')}
          inputMode="numeric"
          autoComplete="off"
          value={id}
          error={invalid ? t('team.add.idInvalid') : undefined}
          onChange={(e) => setId(e.target.value)}
        />
        <Button type="submit" variant="secondary" className="sm:mb-5" loading={result.isFetching}>
          {t('team.add.lookup')}
        </Button>
      </form>
      {found ? <div className="mt-4">{found}</div> : null}
    </Card>
  );
}

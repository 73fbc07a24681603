/**
 * The Blocklist tab's "Block a member or a role": a member by their user ID (named when the dashboard
 * knows them) or a role from the server's roles, the reason the member is told, and an optional end
 * in the viewer's time zone. Checked here before the entry joins the draft; `addedBy` and `addedAt`
 * are the viewer and now until the save, where the API sets them for good.
 */
import { BLOCK_REASON_MAX, type BlockEntry, type BlockKind, discordLength } from '@tickety/api-contract';
import { Button, inputClasses } from '@tickety/ui';
import Plus from 'lucide-react/icons/plus';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { fieldId } from '../../field-id';
import { ChoiceGroup, FieldContext, type FieldScope, FieldFrame, TextInput } from '../../fields';
import { SingleRolePicker, useResources } from '../../pickers';
import { entryKey, fromLocalInput, roleName, toLocalInput, viewerTimeZone } from './entries';
import { useT } from './i18n';

interface AddFormProps {
  entries: readonly BlockEntry[];
  /** Names of people the dashboard knows, by user id. */
  people: ReadonlyMap<string, string>;
  meId: string;
  full: boolean;
  limit: number;
  onAdd(entry: BlockEntry, name: string): void;
}

type Problems = Partial<Record<'add.userId' | 'add.role' | 'add.reason' | 'add.expires', string>>;

export function AddForm({ entries, people, meId, full, limit, onAdd }: AddFormProps) {
  const t = useT();
  const scope = useId();
  const [problems, setProblems] = useState<Problems>({});
  const fields = useMemo<FieldScope>(() => ({ scope, errors: (path) => (problems[path as keyof Problems] ? [problems[path as keyof Problems]!] : []), under: () => [] }), [scope, problems]);
  const roles = useResources().data?.roles;
  const [kind, setKind] = useState<BlockKind>('user');
  const [userId, setUserId] = useState('');
  const [roleId, setRoleId] = useState('');
  const [reason, setReason] = useState('');
  const [expires, setExpires] = useState('');
  const zone = viewerTimeZone();
  const trimmedId = userId.trim();
  const known = /^\d{17,20}$/.test(trimmedId) ? people.get(trimmedId) : undefined;
  const pickedRole = roleId ? (roleName(roles, roleId) ?? roleId) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = kind === 'user' ? trimmedId : roleId;
    const name = kind === 'user' ? (known ?? t('blocklist.userName', { id })) : (pickedRole ?? id);
    const found: Problems = {};
    if (kind === 'user' && !/^\d{17,20}$/.test(id)) found['add.userId'] = t('blocklist.error.userId');
    if (kind === 'role' && id === '') found['add.role'] = t('blocklist.error.role');
    if (id !== '' && entries.some((entry) => entryKey(entry) === `${kind}:${id}`)) found[kind === 'user' ? 'add.userId' : 'add.role'] = t('blocklist.error.duplicate', { name });
    if (reason.trim() === '') found['add.reason'] = t('blocklist.error.reason');
    else if (discordLength(reason.trim()) > BLOCK_REASON_MAX) found['add.reason'] = t('blocklist.error.reasonLong', { max: BLOCK_REASON_MAX });
    const expiresAt = expires === '' ? null : fromLocalInput(expires);
    if (expires !== '' && (expiresAt === null || Date.parse(expiresAt) <= Date.now())) found['add.expires'] = t('blocklist.error.expires');
    setProblems(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(fieldId(scope, Object.keys(found)[0]!))?.focus();
      return;
    }
    onAdd({ kind, id, reason: reason.trim(), addedBy: meId, addedAt: new Date().toISOString(), expiresAt }, name);
    setUserId('');
    setRoleId('');
    setReason('');
    setExpires('');
  };

  if (full) return <p className="text-sm text-surface-700 dark:text-surface-300">{t('blocklist.full', { limit })}</p>;

  return (
    <FieldContext.Provider value={fields}>
    <form noValidate onSubmit={submit} aria-label={t('blocklist.add.title')} className="space-y-4">
      <ChoiceGroup
        path="add.kind"
        legend={t('blocklist.add.kind')}
        value={kind}
        onChange={(next) => {
          setKind(next);
          setProblems({});
        }}
        options={[
          { value: 'user', label: t('blocklist.kind.user') },
          { value: 'role', label: t('blocklist.kind.role') },
        ]}
      />
      {kind === 'user' ? (
        <FieldFrame path="add.userId" label={t('blocklist.add.userId')} hint={known ? t('blocklist.add.known', { name: known }) : t('blocklist.add.userIdHint')}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              className={inputClasses}
              value={userId}
              onChange={(event) => setUserId(event.target.value)}
            />
          )}
        </FieldFrame>
      ) : (
        <FieldFrame path="add.role" label={t('blocklist.add.role')} hint={pickedRole ? t('blocklist.add.rolePicked', { name: pickedRole }) : undefined}>
          {(control) => (
            <SingleRolePicker id={control.id} onPick={setRoleId} exclude={entries.filter((entry) => entry.kind === 'role').map((entry) => entry.id)} placeholder={t('blocklist.add.pickRole')} />
          )}
        </FieldFrame>
      )}
      <TextInput path="add.reason" label={t('blocklist.add.reason')} value={reason} onChange={setReason} max={BLOCK_REASON_MAX} required hint={t('blocklist.add.reasonHint')} />
      <FieldFrame path="add.expires" label={t('blocklist.add.expires')} hint={t('blocklist.add.expiresHint', { zone })}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            className={inputClasses}
            min={toLocalInput(new Date().toISOString())}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        )}
      </FieldFrame>
      <Button type="submit" variant="secondary">
        <Plus aria-hidden="true" className="size-4" />
        {t('blocklist.add.submit')}
      </Button>
    </form>
    </FieldContext.Provider>
  );
}

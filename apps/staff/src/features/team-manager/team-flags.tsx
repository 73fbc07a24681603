import { OWNER_ONLY_STAFF_PERMISSIONS } from '@tickety/api-contract';
import { formatDateTime, type StaffPermission } from '@tickety/shared';
import { Badge, cx } from '@tickety/ui';
import { useId } from 'react';
import { useT } from '../../lib/i18n';
import type { StaffGrant } from './api';
import { FLAG_ORDER, flagCode, STAFF_FLAGS } from './flags';

/** A person's name as the page writes it: their name, else "Unknown user". */
export function usePersonName(): (person: { name: string | null } | null) => string {
  const t = useT();
  return (person) => person?.name ?? t('team.unknownUser');
}

/** The flags a member holds: a badge each with its code, and who granted it and when. */
export function GrantList({ grants, owner, memberName }: { grants: readonly StaffGrant[]; owner: boolean; memberName: string }) {
  const t = useT();
  const nameOf = usePersonName();
  return (
    <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap" aria-label={t('team.member.flagsOf', { name: memberName })}>
      {grants.map((grant) => (
        <li key={grant.permission} className="min-w-0 rounded-lg border border-surface-200 px-3 py-2 dark:border-surface-700">
          <Badge tone="primary">{t(STAFF_FLAGS[grant.permission].label)}</Badge>
          <code className={cx(flagCode, 'mt-1 block text-surface-600 dark:text-surface-400')}>{grant.permission}</code>
          <p className="mt-1 text-xs text-surface-600 dark:text-surface-400">
            {owner ? (
              t('team.member.ownerGrant')
            ) : grant.grantedAt ? (
              <>
                {t('team.member.grantedBy', { name: nameOf(grant.grantedBy) })}{' '}
                <time dateTime={grant.grantedAt}>{formatDateTime(grant.grantedAt)}</time>
              </>
            ) : (
              t('team.member.grantUnknown')
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

interface FlagChoicesProps {
  legend: string;
  value: readonly StaffPermission[];
  onChange: (next: StaffPermission[]) => void;
  /** The flags the viewer holds: only these can be ticked or unticked. */
  held: readonly StaffPermission[];
  /** Whether the viewer is an owner: only owners change OWNER_ONLY_STAFF_PERMISSIONS. */
  owner: boolean;
  disabled?: boolean;
}

/** A checkbox per flag; a flag the viewer does not hold (or only an owner changes) cannot be changed, and says why. */
export function FlagChoices({ legend, value, onChange, held, owner, disabled = false }: FlagChoicesProps) {
  const t = useT();
  const id = useId();
  const toggle = (flag: StaffPermission, on: boolean) => onChange(FLAG_ORDER.filter((f) => (f === flag ? on : value.includes(f))));
  return (
    <fieldset className="min-w-0" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium text-surface-800 dark:text-surface-200">{legend}</legend>
      <ul className="space-y-2">
        {FLAG_ORDER.map((flag) => {
          const ownerOnly = !owner && OWNER_ONLY_STAFF_PERMISSIONS.includes(flag);
          const holds = held.includes(flag) && !ownerOnly;
          const inputId = `${id}-${flag}`;
          const noteId = `${inputId}-note`;
          return (
            <li key={flag} className="flex items-start gap-3">
              <input
                id={inputId}
                type="checkbox"
                className="mt-1 size-4 shrink-0 rounded border-surface-300 accent-primary-600 disabled:opacity-50 dark:border-surface-600"
                checked={value.includes(flag)}
                disabled={!holds}
                aria-describedby={noteId}
                onChange={(e) => toggle(flag, e.target.checked)}
              />
              <label htmlFor={inputId} className={cx('min-w-0 text-sm', !holds && 'opacity-70')}>
                <span className="block font-medium text-surface-900 dark:text-surface-50">{t(STAFF_FLAGS[flag].label)}</span>
                <code className={cx(flagCode, 'block text-surface-600 dark:text-surface-400')}>{flag}</code>
                <span id={noteId} className="block text-xs text-surface-600 dark:text-surface-400">
                  {holds ? t(STAFF_FLAGS[flag].allows) : ownerOnly ? t('team.flags.ownerOnly') : t('team.flags.notHeld')}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** What a change grants and revokes, as two lists for the confirmation. */
export function ChangeSummary({ before, after }: { before: readonly StaffPermission[]; after: readonly StaffPermission[] }) {
  const t = useT();
  const granted = after.filter((f) => !before.includes(f));
  const revoked = before.filter((f) => !after.includes(f));
  const list = (flags: StaffPermission[]) => (
    <ul className="mt-1 list-disc space-y-0.5 pl-5">
      {flags.map((flag) => (
        <li key={flag}>
          {t(STAFF_FLAGS[flag].label)} <code className={flagCode}>{flag}</code>
        </li>
      ))}
    </ul>
  );
  return (
    <div className="space-y-2">
      {granted.length > 0 ? (
        <div>
          <p className="font-medium">{t('team.change.grants')}</p>
          {list(granted)}
        </div>
      ) : null}
      {revoked.length > 0 ? (
        <div>
          <p className="font-medium">{t('team.change.revokes')}</p>
          {list(revoked)}
        </div>
      ) : null}
    </div>
  );
}

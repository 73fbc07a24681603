import { failureText, formatDateTime, type StaffPermission, useSearchParams } from '@tickety/shared';
import { Avatar, Button, cx, EmptyState, inputClasses, LoadFailed, Skeleton, Table, type TableColumn } from '@tickety/ui';
import ScrollText from 'lucide-react/icons/scroll-text';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import { type AuditFilters, type StaffAuditEntry, type StaffTeamMember, useStaffAuditInfiniteQuery } from './api';
import { flagCode, STAFF_FLAGS } from './flags';
import { usePersonName } from './team-flags';

/** The target filter waits this long after the last key before asking. */
const TARGET_DEBOUNCE_MS = 300;

/** Actions the page names in words; any other shows as its code. */
const ACTION_KEYS = {
  'team.add': 'audit.action.teamAdd',
  'team.update': 'audit.action.teamUpdate',
  'team.remove': 'audit.action.teamRemove',
  'billing.view': 'audit.action.billingView',
  'webhook.replay': 'audit.action.webhookReplay',
} as const;

/** The team changes as a family in the filter (every `team.*`). */
const TEAM_FAMILY = 'team';

function flagsOf(state: StaffAuditEntry['before']): string[] | null {
  const value = state?.permissions;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

/**
 * The staff audit: who did what to whom and when, with a team change's before and after; filtered by
 * staff member, action and target text (kept in the address), newest first, "Load more" for older.
 */
export function TeamAudit({ members }: { members: readonly StaffTeamMember[] | undefined }) {
  const t = useT();
  const nameOf = usePersonName();
  const ids = useId();
  const [params, setParams] = useSearchParams();
  const staff = params.get('staff') ?? '';
  const action = params.get('action') ?? '';
  const target = params.get('target') ?? '';
  const [targetInput, setTargetInput] = useState(target);
  const heading = useRef<HTMLHeadingElement>(null);

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  // The target text is asked for once typing pauses.
  useEffect(() => {
    const trimmed = targetInput.trim();
    if (trimmed === target) return;
    const timer = setTimeout(() => setParam('target', trimmed), TARGET_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  });

  const args = useMemo<AuditFilters>(() => ({ ...(staff ? { staff } : {}), ...(action ? { action } : {}), ...(target ? { target } : {}) }), [staff, action, target]);
  const list = useStaffAuditInfiniteQuery(args, { refetchOnMountOrArgChange: true });
  const current = list.currentData?.pages;
  const rows = useMemo(() => (current ?? []).flatMap((p) => p.entries), [current]);
  const known = list.data?.pages[0]?.actions ?? [];
  const actionChoices = [...new Set([...known, ...(action && action !== TEAM_FAMILY ? [action] : [])])];
  const filtered = Boolean(staff || action || target);

  const actionLabel = (value: string) => (value in ACTION_KEYS ? t(ACTION_KEYS[value as keyof typeof ACTION_KEYS]) : value);

  const loadMore = async () => {
    await list.fetchNextPage();
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  };

  const columns: Array<TableColumn<StaffAuditEntry>> = [
    {
      key: 'at',
      header: t('audit.col.when'),
      label: t('audit.col.when'),
      cell: (entry) => (
        <time dateTime={entry.at} className="whitespace-nowrap">
          {formatDateTime(entry.at, { seconds: true })}
        </time>
      ),
    },
    {
      key: 'staff',
      header: t('audit.col.staff'),
      label: t('audit.col.staff'),
      cell: (entry) => (
        <span className="flex min-w-0 items-center gap-2">
          <Avatar src={entry.staff.avatarUrl} name={nameOf(entry.staff)} size="xs" />
          <span className="min-w-0">
            <span className="block break-words">{nameOf(entry.staff)}</span>
            <code className={cx(flagCode, 'text-surface-500 dark:text-surface-400')}>{entry.staff.id}</code>
          </span>
        </span>
      ),
    },
    {
      key: 'action',
      header: t('audit.col.action'),
      label: t('audit.col.action'),
      rowHeader: true,
      cell: (entry) => (
        <span>
          <span className="block font-medium">{actionLabel(entry.action)}</span>
          <code className={cx(flagCode, 'text-surface-500 dark:text-surface-400')}>{entry.action}</code>
        </span>
      ),
    },
    { key: 'target', header: t('audit.col.target'), label: t('audit.col.target'), cell: (e) => <span className="break-words">{e.target}</span> },
    { key: 'change', header: t('audit.col.change'), label: t('audit.col.change'), cell: (e) => <Change entry={e} /> },
  ];

  let body: ReactNode;
  if (current === undefined) {
    body = list.isError ? (
      <LoadFailed title={t('audit.loadFailed')} reason={failureText(list.error)} retryLabel={t('team.retry')} onRetry={() => void list.refetch()} />
    ) : (
      <div role="status" aria-busy="true">
        <span className="sr-only">{t('audit.loading')}</span>
        <Skeleton className="h-48" />
      </div>
    );
  } else {
    body = (
      <>
        {list.isError ? (
          <LoadFailed tone="warning" title={t('audit.moreFailed')} reason={failureText(list.error)} retryLabel={t('team.retry')} onRetry={() => void (list.isFetchNextPageError ? loadMore() : list.refetch())} />
        ) : null}
        <Table
          caption={t('audit.caption')}
          columns={columns}
          rows={rows}
          rowKey={(e) => e.id}
          empty={<EmptyState icon={<ScrollText className="size-6" aria-hidden="true" />} title={filtered ? t('audit.emptyFiltered') : t('audit.empty')} />}
        />
        {list.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="secondary" aria-disabled={list.isFetchingNextPage || undefined} onClick={() => (list.isFetchingNextPage ? undefined : void loadMore())}>
              {list.isFetchingNextPage ? t('audit.loadingMore') : t('audit.loadMore')}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-4">
      <div>
        <h2 ref={heading} id={`${ids}-heading`} tabIndex={-1} className="text-lg font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
          {t('audit.heading')}
        </h2>
        <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('audit.description')}</p>
      </div>
      <fieldset className="grid min-w-0 gap-3 sm:grid-cols-3">
        <legend className="sr-only">{t('audit.filters')}</legend>
        <div className="min-w-0">
          <label htmlFor={`${ids}-staff`} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('audit.filter.staff')}
          </label>
          <select id={`${ids}-staff`} className={cx(inputClasses, 'pr-8')} value={staff} onChange={(e) => setParam('staff', e.target.value)}>
            <option value="">{t('audit.filter.anyone')}</option>
            {(members ?? []).map((member) => (
              <option key={member.id} value={member.id}>
                {nameOf(member)} ({member.id})
              </option>
            ))}
            {staff && !(members ?? []).some((m) => m.id === staff) ? <option value={staff}>{staff}</option> : null}
          </select>
        </div>
        <div className="min-w-0">
          <label htmlFor={`${ids}-action`} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('audit.filter.action')}
          </label>
          <select id={`${ids}-action`} className={cx(inputClasses, 'pr-8')} value={action} onChange={(e) => setParam('action', e.target.value)}>
            <option value="">{t('audit.filter.anyAction')}</option>
            <option value={TEAM_FAMILY}>{t('audit.filter.teamChanges')}</option>
            {actionChoices.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0">
          <label htmlFor={`${ids}-target`} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('audit.filter.target')}
          </label>
          <input
            id={`${ids}-target`}
            type="search"
            className={inputClasses}
            value={targetInput}
            maxLength={100}
            placeholder={t('audit.filter.targetPlaceholder')}
            onChange={(e) => setTargetInput(e.target.value)}
          />
        </div>
      </fieldset>
      {body}
    </section>
  );
}

/** A team change's before → after: the flags granted and revoked (other actions record none). */
function Change({ entry }: { entry: StaffAuditEntry }) {
  const t = useT();
  const before = flagsOf(entry.before);
  const after = flagsOf(entry.after);
  if (before === null && after === null) return <span className="text-surface-500 dark:text-surface-400">{t('audit.noChange')}</span>;
  const granted = (after ?? []).filter((f) => !(before ?? []).includes(f));
  const revoked = (before ?? []).filter((f) => !(after ?? []).includes(f));
  const label = (f: string) => (f in STAFF_FLAGS ? t(STAFF_FLAGS[f as StaffPermission].label) : f);
  return (
    <ul className="space-y-0.5 text-xs">
      {granted.map((flag) => (
        <li key={`+${flag}`} className="text-emerald-800 dark:text-emerald-300">
          <span aria-hidden="true">+ </span>
          <span className="sr-only">{t('audit.granted')} </span>
          {label(flag)}
        </li>
      ))}
      {revoked.map((flag) => (
        <li key={`-${flag}`} className="text-red-700 dark:text-red-300">
          <span aria-hidden="true">− </span>
          <span className="sr-only">{t('audit.revoked')} </span>
          {label(flag)}
        </li>
      ))}
      <li className="text-surface-600 dark:text-surface-400">
        {t('audit.beforeAfter', { before: before ? String(before.length) : '—', after: after ? String(after.length) : '—' })}
      </li>
    </ul>
  );
}

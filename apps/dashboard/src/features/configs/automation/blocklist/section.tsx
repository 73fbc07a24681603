/**
 * The Automation page's Blocklist tab: members and roles who may not open tickets. A searchable list
 * (name, id, reason) with each entry's reason, end (in the viewer's time zone; expired ones marked),
 * who added it and when; an add form; remove; the plan's `blocklistLimit`; the save of the whole
 * configuration against the version it started from (`useConfigEditor`). The API sets `addedBy` and
 * `addedAt` of new entries (docs/api.md, "The server's configuration").
 */
import type { BlockEntry, ServerConfig } from '@tickety/api-contract';
import { formatDateTime, formatNumber, useAppSelector, useNavigate, useNow } from '@tickety/shared';
import { Alert, Badge, Button, ConfirmDialog, cx, inputClasses } from '@tickety/ui';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Save from 'lucide-react/icons/save';
import Search from 'lucide-react/icons/search';
import Shield from 'lucide-react/icons/shield';
import Trash from 'lucide-react/icons/trash-2';
import User from 'lucide-react/icons/user';
import { useCallback, useId, useMemo, useState } from 'react';
import { useAreaWrite } from '../../../../lib/server-access';
import { useWebLogActorsQuery } from '../../../logs-web/api';
import type { LiveConfig } from '../../api';
import { useLeaveGuard } from '../../leave-guard';
import { useResources } from '../../pickers';
import { type EditorTarget, useConfigEditor } from '../../use-config-editor';
import type { SectionProps } from '../section-props';
import { AddForm } from './add-form';
import { entryKey, isExpired, roleName, searchEntries } from './entries';
import { useT } from './i18n';

const TARGET: EditorTarget<BlockEntry[]> = {
  from: (config) => config.blocklist,
  apply: (config: ServerConfig, draft) => ({ ...config, blocklist: draft }),
  own: (path) => (path[0] === 'blocklist' ? path.slice(1).join('.') : null),
  savedView: () => ({ kind: 'list' }),
};

export default function Section({ server, live, onSaved, onRefetch }: SectionProps) {
  const t = useT();
  const searchId = useId();
  const headingId = useId();
  const now = useNow(30_000);
  const me = useAppSelector((state) => state.auth.user);
  const write = useAreaWrite('panels');
  const roles = useResources().data?.roles;
  const [query, setQuery] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const navigate = useNavigate();
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  const saved = useCallback((next: LiveConfig) => onSaved(next), [onSaved]);
  const editor = useConfigEditor({ server, base: live, initial: live.config.blocklist, pristine: live.config.blocklist, target: TARGET, onSaved: saved, refetch: onRefetch });
  // Who added an entry is someone who saved the configuration: Web Logs knows their names (when the viewer may read it).
  const actors = useWebLogActorsQuery(server).data?.actors;
  const people = useMemo(() => {
    const names = new Map<string, string>((actors ?? []).map((actor) => [actor.id, actor.name]));
    if (me) names.set(me.id, me.globalName ?? me.username);
    return names;
  }, [actors, me]);

  // Leaving with unsaved changes (a link, another tab of the page, closing the browser's tab) asks first.
  useLeaveGuard(editor.dirty, setLeavingTo);
  const entries = editor.draft;
  const limit = editor.base.blocklistLimit;
  const savedKeys = useMemo(() => new Set(editor.base.config.blocklist.map(entryKey)), [editor.base.config.blocklist]);
  const nameOf = useCallback(
    (entry: BlockEntry) => (entry.kind === 'role' ? (roleName(roles, entry.id) ?? t(roles ? 'blocklist.roleGone' : 'blocklist.roleUnknown', { id: entry.id })) : (people.get(entry.id) ?? t('blocklist.userName', { id: entry.id }))),
    [roles, people, t],
  );
  const shown = useMemo(() => searchEntries(entries, query, nameOf), [entries, query, nameOf]);
  const over = entries.length > limit;
  const problems = [...editor.validation.fields.values()].flat();

  const remove = (entry: BlockEntry) => {
    editor.update((draft) => draft.filter((item) => entryKey(item) !== entryKey(entry)));
    setSaid(t('blocklist.removed', { name: nameOf(entry) }));
  };

  return (
    <section aria-labelledby={headingId} className="space-y-5">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold text-surface-900 dark:text-surface-50">
            {t('blocklist.title')}
          </h2>
          <p className="text-sm text-surface-600 dark:text-surface-400">{t('blocklist.description')}</p>
        </div>
        <p className={cx('shrink-0 text-sm tabular-nums', over ? 'font-semibold text-red-700 dark:text-red-400' : 'text-surface-700 dark:text-surface-300')}>
          {t('blocklist.count', { count: formatNumber(entries.length), limit: formatNumber(limit) })}
        </p>
      </div>

      {write.reason ? <Alert tone="info">{write.reason}</Alert> : null}
      {over ? <Alert tone="danger">{t('blocklist.overLimit', { limit: formatNumber(limit) })}</Alert> : null}
      {editor.conflict ? (
        <Alert
          tone="warning"
          title={t('editor.conflict.title')}
          actions={
            <Button size="sm" onClick={() => void editor.reload()}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('common.reload')}
            </Button>
          }
        >
          <p>{editor.conflict}</p>
          <p className="mt-1">{t('editor.conflict.body')}</p>
        </Alert>
      ) : null}
      {editor.notice ? <Alert tone="info">{t(`editor.notice.${editor.notice}`, { version: editor.base.version })}</Alert> : null}
      {editor.failure ? (
        <Alert tone="danger" title={t('editor.failed')}>
          {editor.failure}
        </Alert>
      ) : null}
      {editor.showSummary || editor.serverErrors.size > 0 ? (
        <Alert tone="danger" title={t('blocklist.problems')}>
          <ul className="list-disc space-y-0.5 pl-5">
            {[...problems, ...editor.serverErrors.values()].map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <fieldset disabled={!write.canWrite} className="m-0 min-w-0 rounded-xl border border-surface-200 p-4 dark:border-surface-800">
          <legend className="px-1 text-sm font-semibold text-surface-900 dark:text-surface-100">{t('blocklist.add.title')}</legend>
          <AddForm
            entries={entries}
            people={people}
            meId={me?.id ?? '0'.repeat(17)}
            full={entries.length >= limit}
            limit={limit}
            onAdd={(entry, name) => {
              editor.update((draft) => [...draft, entry]);
              setSaid(t('blocklist.add.added', { name }));
            }}
          />
        </fieldset>

        <div className="min-w-0 space-y-3">
          <div className="relative">
            <label htmlFor={searchId} className="sr-only">
              {t('blocklist.search')}
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-surface-500" />
            <input id={searchId} type="search" className={cx(inputClasses, 'pl-9')} placeholder={t('blocklist.searchPlaceholder')} value={query} onChange={(event) => setQuery(event.target.value)} />
          </div>
          {entries.length === 0 ? (
            <p className="rounded-xl border border-dashed border-surface-300 p-6 text-center text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">{t('blocklist.empty')}</p>
          ) : shown.length === 0 ? (
            <p className="p-4 text-center text-sm text-surface-600 dark:text-surface-400">{t('blocklist.noMatch', { query: query.trim() })}</p>
          ) : (
            <ul aria-label={t('blocklist.list')} className="divide-y divide-surface-200 rounded-xl border border-surface-200 dark:divide-surface-800 dark:border-surface-800">
              {shown.map((entry) => {
                const name = nameOf(entry);
                const expired = isExpired(entry, now);
                const isNew = !savedKeys.has(entryKey(entry));
                const Icon = entry.kind === 'role' ? Shield : User;
                return (
                  <li key={entryKey(entry)} className={cx('flex flex-col gap-2 p-3 sm:flex-row sm:items-start sm:justify-between', expired && 'bg-surface-50 dark:bg-surface-900/60')}>
                    <div className="min-w-0 space-y-1">
                      <p className="flex flex-wrap items-center gap-2">
                        <Icon aria-hidden="true" className="size-4 shrink-0 text-surface-500" />
                        <span className={cx('font-medium break-words text-surface-900 dark:text-surface-100', expired && 'line-through decoration-surface-400')}>{name}</span>
                        {/* The id beside a resolved name (an unknown one is named by its id already). */}
                        {name.includes(entry.id) ? null : <span className="font-mono text-xs text-surface-500 dark:text-surface-400">{entry.id}</span>}
                        <Badge tone="neutral">{t(entry.kind === 'role' ? 'blocklist.kind.role' : 'blocklist.kind.user')}</Badge>
                        {expired ? <Badge tone="warning">{t('blocklist.expired')}</Badge> : null}
                      </p>
                      <p className="text-sm break-words text-surface-800 dark:text-surface-200">{t('blocklist.reason', { reason: entry.reason })}</p>
                      <p className="text-xs text-surface-600 dark:text-surface-400">
                        {entry.expiresAt === null
                          ? t('blocklist.forever')
                          : expired
                            ? t('blocklist.expiredOn', { when: formatDateTime(entry.expiresAt) })
                            : t('blocklist.until', { when: formatDateTime(entry.expiresAt) })}
                        {' · '}
                        {isNew ? t('blocklist.unsaved') : t('blocklist.addedBy', { name: people.get(entry.addedBy) ?? entry.addedBy, when: formatDateTime(entry.addedAt) })}
                      </p>
                    </div>
                    {write.canWrite ? (
                      <Button size="sm" variant="ghost" className="self-start" aria-label={t('blocklist.removeLabel', { name })} onClick={() => remove(entry)}>
                        <Trash aria-hidden="true" className="size-4" />
                        {t('blocklist.remove')}
                      </Button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>

      <div className="sticky bottom-0 z-20 flex flex-col gap-2 border-t border-surface-200 bg-white/95 py-3 backdrop-blur-sm sm:flex-row sm:items-center sm:justify-between dark:border-surface-800 dark:bg-surface-950/95">
        <p role="status" className="text-sm text-surface-700 dark:text-surface-300">
          {said && editor.dirty ? said : editor.dirty ? t('editor.status.unsaved') : t('editor.status.clean')}
        </p>
        {write.canWrite ? (
          <div className="flex flex-wrap gap-2">
            {editor.dirty ? (
              <Button
                variant="ghost"
                disabled={editor.saving}
                onClick={() => {
                  editor.discard();
                  setSaid(null);
                }}
              >
                {t('editor.discard')}
              </Button>
            ) : null}
            <Button loading={editor.saving} disabled={!editor.dirty || over} onClick={() => void editor.save().then(() => setSaid(null))}>
              {editor.saving ? null : <Save aria-hidden="true" className="size-4" />}
              {t('editor.save')}
            </Button>
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={leavingTo !== null}
        title={t('editor.leave.title')}
        confirmLabel={t('editor.leave.confirm')}
        cancelLabel={t('editor.leave.stay')}
        onCancel={() => setLeavingTo(null)}
        onConfirm={() => {
          const to = leavingTo;
          setLeavingTo(null);
          editor.discard();
          if (to) navigate(to);
        }}
      >
        <p>{t('editor.leave.body', { name: t('blocklist.title') })}</p>
      </ConfirmDialog>
    </section>
  );
}

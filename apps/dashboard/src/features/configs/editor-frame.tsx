/**
 * What every editor of the Panel Menu has around its fields: the way back, the version it edits, the
 * live preview beside the form (below it on narrow screens), the problems the schema finds, the save
 * bar, the conflict and failure messages, and the unsaved-changes warning.
 */

import type { ServerConfig } from '@tickety/api-contract';
import { formatDateTime, Link, useNavigate } from '@tickety/shared';
import { Alert, Button, buttonClasses, ConfirmDialog } from '@tickety/ui';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import Eye from 'lucide-react/icons/eye';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Save from 'lucide-react/icons/save';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useT } from './i18n';
import { useAreaWrite } from '../../lib/server-access';
import type { MenuView } from './config-draft';
import { fieldId } from './field-id';
import { FieldContext, type FieldScope, focusField } from './fields';
import { parsePath } from './issues';
import { useLeaveGuard } from './leave-guard';
import type { DraftStash } from './stash';
import type { ConfigEditor } from './use-config-editor';

interface EditorFrameProps<D> {
  editor: ConfigEditor<D>;
  /** The heading ("Edit panel “Support”"). */
  title: string;
  /** What the user calls the item (the unsaved-changes messages name it). */
  label: string;
  backHref: string;
  backLabel: string;
  view: MenuView;
  stashKey: string;
  flash: string | null;
  /** The draft was kept from an earlier visit (the browser's Back left it). */
  restored: boolean;
  onLeftDirty(stash: DraftStash): void;
  /** The field a path names, for the list of problems ("Title"); null: say only the problem. */
  fieldLabel(path: string): string | null;
  preview: ReactNode;
  children: ReactNode;
}

/** Names the part of the configuration an issue elsewhere is in ("Panel “Billing”"). */
function useElsewhereName() {
  const t = useT();
  return (path: string, config: ServerConfig): string => {
    const [head, index] = parsePath(path);
    if (head === 'panels' && typeof index === 'number') return t('editor.elsewhere.panel', { name: config.panels[index]?.name ?? String(index + 1) });
    if (head === 'multiPanels' && typeof index === 'number') return t('editor.elsewhere.multi', { name: config.multiPanels[index]?.name ?? String(index + 1) });
    if (head === 'general') return t('editor.elsewhere.general');
    if (head === 'access') return t('editor.elsewhere.access');
    return t('editor.elsewhere.config');
  };
}

export function EditorFrame<D>({ editor, title, label, backHref, backLabel, view, stashKey, flash, restored, onLeftDirty, fieldLabel, preview, children }: EditorFrameProps<D>) {
  const t = useT();
  const navigate = useNavigate();
  const scope = useId();
  const headingId = useId();
  const previewId = useId();
  const summaryRef = useRef<HTMLDivElement>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const elsewhereName = useElsewhereName();
  const { validation, serverErrors, base } = editor;

  // The warning when leaving with changes; a draft left without it (Back) is kept by the page.
  const discarded = useRef(false);
  useLeaveGuard(editor.dirty, setLeavingTo);
  // A member whose roles give read access to panels sees the editor with every field off.
  const write = useAreaWrite('panels');
  const readOnlyId = useId();
  const latest = useRef({ dirty: editor.dirty, draft: editor.draft, base, label, onLeftDirty, stashKey, view });
  latest.current = { dirty: editor.dirty, draft: editor.draft, base, label, onLeftDirty, stashKey, view };
  // Only when the editor goes away (its key and view are its identity, fixed for its life).
  useEffect(
    () => () => {
      const now = latest.current;
      if (now.dirty && !discarded.current) now.onLeftDirty({ key: now.stashKey, view: now.view, label: now.label, draft: now.draft, base: now.base });
    },
    [],
  );

  useEffect(() => {
    if (!editor.focusRequest) return;
    const { path } = editor.focusRequest;
    focusField(scope, path, editor.failure ? failureRef : summaryRef);
  }, [editor.focusRequest, editor.failure, scope]);

  const fields = useMemo<FieldScope>(
    () => ({
      scope,
      errors: (path) => {
        const own = validation.fields.get(path) ?? [];
        const server = serverErrors.get(path);
        return server && !own.includes(server) ? [...own, server] : own;
      },
      under: (path) => {
        const out: string[] = [];
        for (const [key, messages] of validation.fields) if (key.startsWith(`${path}.`)) out.push(...messages);
        return out;
      },
    }),
    [scope, validation, serverErrors],
  );

  const problems = [...validation.fields.entries(), ...[...serverErrors.entries()].filter(([path]) => !validation.fields.has(path)).map(([path, m]) => [path, [m]] as const)];
  const savedLine =
    base.version === 0 || !base.savedAt
      ? t('editor.version.none')
      : t('editor.version.saved', { version: base.version, name: base.savedBy?.name ?? '', when: formatDateTime(base.savedAt) });

  return (
    <FieldContext.Provider value={fields}>
      <form
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void editor.save();
        }}
      >
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <Link to={backHref} className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline dark:text-primary-400">
              <ArrowLeft aria-hidden="true" className="size-4" />
              {backLabel}
            </Link>
            <h2 id={headingId} className="mt-1 text-xl font-bold break-words text-surface-900 dark:text-surface-50">
              {title}
            </h2>
            <p className="mt-0.5 text-xs text-surface-600 dark:text-surface-400">{savedLine}</p>
          </div>
          <a href={`#${previewId}`} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'self-start xl:hidden' })}>
            <Eye aria-hidden="true" className="size-4" />
            {t('editor.jumpToPreview')}
          </a>
        </div>

        <div className="space-y-3">
          {write.reason ? (
            <Alert tone="info">
              <p id={readOnlyId}>{write.reason}</p>
            </Alert>
          ) : null}
          {flash ? <Alert tone="primary">{flash}</Alert> : null}
          {restored ? <Alert tone="info">{t('editor.restored', { name: label })}</Alert> : null}
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
          {editor.notice ? <Alert tone="info">{t(`editor.notice.${editor.notice}`, { version: base.version })}</Alert> : null}
          {editor.failure ? (
            <div ref={failureRef} tabIndex={-1} className="outline-none">
              <Alert
                tone="danger"
                title={t('editor.failed')}
                actions={
                  <Button size="sm" variant="secondary" onClick={() => void editor.save()}>
                    {t('common.retry')}
                  </Button>
                }
              >
                {editor.failure}
              </Alert>
            </div>
          ) : null}
          {validation.elsewhere.length > 0 ? (
            <Alert tone="warning" title={t('editor.elsewhere.title')}>
              <ul className="list-disc space-y-0.5 pl-5">
                {validation.elsewhere.map((issue) => (
                  <li key={`${issue.path}-${issue.message}`}>
                    {elsewhereName(issue.path, base.config)}: {issue.message}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {editor.showSummary && problems.length > 0 ? (
            <div ref={summaryRef} tabIndex={-1} className="outline-none">
              <Alert tone="danger" title={t('editor.summary', { count: problems.length })}>
                <ul className="list-disc space-y-0.5 pl-5">
                  {problems.map(([path, messages]) => {
                    const name = fieldLabel(path);
                    return (
                      <li key={path}>
                        <button
                          type="button"
                          className="text-left underline underline-offset-2"
                          onClick={() => document.getElementById(fieldId(scope, path))?.focus()}
                        >
                          {name ? `${name}: ` : ''}
                          {messages[0]}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </Alert>
            </div>
          ) : null}
        </div>

        <div className="mt-4 grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,27rem)]">
          <fieldset disabled={!write.canWrite} aria-describedby={write.reason ? readOnlyId : undefined} className="m-0 min-w-0 space-y-5 border-0 p-0">
            {children}
          </fieldset>
          <aside id={previewId} tabIndex={-1} aria-label={t('preview.label')} className="min-w-0 outline-none xl:sticky xl:top-4">
            {preview}
          </aside>
        </div>

        <div className="sticky bottom-0 z-20 mt-6 flex flex-col gap-2 border-t border-surface-200 bg-white/95 py-3 backdrop-blur-sm sm:flex-row sm:items-center sm:justify-between dark:border-surface-800 dark:bg-surface-950/95">
          <p role="status" className="text-sm text-surface-700 dark:text-surface-300">
            {editor.dirty ? t('editor.status.unsaved') : t('editor.status.clean')}
            {validation.count > 0 ? <span className="ml-2 font-semibold text-red-700 dark:text-red-400">{t('editor.status.problems', { count: validation.count })}</span> : null}
          </p>
          {write.canWrite ? (
            <div className="flex flex-wrap gap-2">
              {editor.dirty ? (
                <Button variant="ghost" onClick={() => setConfirmDiscard(true)} disabled={editor.saving}>
                  {t('editor.discard')}
                </Button>
              ) : null}
              <Button type="submit" loading={editor.saving}>
                {editor.saving ? null : <Save aria-hidden="true" className="size-4" />}
                {t('editor.save')}
              </Button>
            </div>
          ) : null}
        </div>
      </form>

      <ConfirmDialog
        open={leavingTo !== null}
        title={t('editor.leave.title')}
        confirmLabel={t('editor.leave.confirm')}
        cancelLabel={t('editor.leave.stay')}
        onCancel={() => setLeavingTo(null)}
        onConfirm={() => {
          const to = leavingTo;
          discarded.current = true;
          setLeavingTo(null);
          if (to) navigate(to);
        }}
      >
        <p>{t('editor.leave.body', { name: label })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmDiscard}
        title={t('editor.discardConfirm.title')}
        confirmLabel={t('editor.discard')}
        cancelLabel={t('common.cancel')}
        onCancel={() => setConfirmDiscard(false)}
        onConfirm={() => {
          setConfirmDiscard(false);
          editor.discard();
        }}
      >
        <p>{t('editor.discardConfirm.body', { name: label })}</p>
      </ConfirmDialog>
    </FieldContext.Provider>
  );
}

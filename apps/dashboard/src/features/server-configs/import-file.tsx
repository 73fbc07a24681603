import type { ImportPreview, ServerConfigAnswer } from '@tickety/api-contract';
import { formatNumber } from '@tickety/shared';
import { Alert, Badge, Button, Card, ConfirmDialog, cx, Skeleton } from '@tickety/ui';
import FileUp from 'lucide-react/icons/file-up';
import { type DragEvent, lazy, Suspense, useId, useRef, useState } from 'react';
import { failureCode, failureDetail, failureText } from '../../lib/failures';
import { useT } from './i18n';
import { CONFIG_FILE_MAX_BYTES } from '@tickety/api-contract/config-file-name';
import { FILE_PROBLEM, kilobytes, readConfigFile, useApplyImportMutation, usePreviewImportMutation } from './api';
import { When } from './parts';

// What a checked file would change is shown by code fetched once a file has been checked.
const ImportChanges = lazy(() => import('./import-changes').then((module) => ({ default: module.ImportChanges })));

type Problem = { title: string; text: string; detail?: string | null; conflict?: boolean };

type State =
  | { step: 'idle' }
  | { step: 'checking'; name: string }
  | { step: 'problem'; name: string; problem: Problem; file?: unknown }
  | { step: 'preview'; name: string; file: unknown; preview: ImportPreview; applyProblem: Problem | null };

/**
 * Import: choose (or drop) a configuration file; the browser checks its size and that it is a
 * Tickety configuration file, the API checks it (signature, schema, size) and answers what it would
 * change, where it comes from and which channels and roles it could not match here. Nothing changes
 * until "Apply" is confirmed; the import is then one new version.
 */
export function ImportFile({ server, canWrite, readOnlyReason, onImported }: { server: string; canWrite: boolean; readOnlyReason: string | null; onImported: (answer: ServerConfigAnswer, preview: ImportPreview) => void }) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ step: 'idle' });
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [preview] = usePreviewImportMutation();
  const [apply, applying] = useApplyImportMutation();
  const maxKb = formatNumber(kilobytes(CONFIG_FILE_MAX_BYTES));

  const check = async (name: string, file: unknown) => {
    setState({ step: 'checking', name });
    try {
      const answer = await preview({ server, file }).unwrap();
      setState({ step: 'preview', name, file, preview: answer, applyProblem: null });
    } catch (error) {
      const code = failureCode(error);
      const title = code === 1016 ? t('restore.import.tooLargeTitle') : code === 1001 ? t('restore.import.invalidTitle') : code === 1015 ? t('restore.import.rejectedTitle') : t('restore.import.failedTitle');
      setState({ step: 'problem', name, file, problem: { title, text: failureText(error), detail: failureDetail(error) } });
    }
  };

  const choose = async (chosen: File | undefined) => {
    if (!chosen || !canWrite) return;
    setState({ step: 'checking', name: chosen.name });
    const read = await readConfigFile(chosen);
    if (!read.ok) {
      const problem = read.problem;
      const text =
        problem.kind === 'tooLarge'
          ? t(FILE_PROBLEM.tooLarge, { size: formatNumber(kilobytes(problem.bytes)), max: maxKb })
          : problem.kind === 'notJson'
            ? t(FILE_PROBLEM.notJson, { detail: problem.detail })
            : t(FILE_PROBLEM[problem.kind]);
      setState({ step: 'problem', name: read.name, problem: { title: t('restore.import.cannotUseTitle', { name: read.name }), text } });
      return;
    }
    await check(read.name, read.file);
  };

  const reset = () => {
    setState({ step: 'idle' });
    if (input.current) input.current.value = '';
  };

  const doApply = async () => {
    if (state.step !== 'preview') return;
    try {
      const answer = await apply({ server, file: state.file, expectedVersion: state.preview.liveVersion }).unwrap();
      setConfirming(false);
      onImported(answer, state.preview);
      reset();
    } catch (error) {
      setConfirming(false);
      const conflict = failureCode(error) === 1013;
      setState({
        ...state,
        applyProblem: {
          title: conflict ? t('restore.import.conflictTitle') : t('restore.import.applyFailedTitle'),
          text: failureText(error),
          detail: conflict ? null : failureDetail(error),
          conflict,
        },
      });
    }
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!canWrite) return;
    void choose(event.dataTransfer?.files?.[0]);
  };
  const onDragOver = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = canWrite ? 'copy' : 'none';
    if (canWrite) setDragging(true);
  };

  const checking = state.step === 'checking';
  const shownPreview = state.step === 'preview' ? state.preview : null;

  return (
    <Card className="p-4 sm:p-5">
      <section aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} tabIndex={-1} className="text-lg font-semibold text-surface-900 outline-none focus-visible:ring-2 focus-visible:ring-primary-500 dark:text-surface-50">
          {t('restore.import.title')}
        </h2>
        <p id={`${id}-hint`} className="mt-1 text-sm text-surface-600 dark:text-surface-400">
          {t('restore.import.hint', { max: maxKb })}
        </p>

        {state.step !== 'preview' ? (
          <label
            htmlFor={`${id}-file`}
            onDrop={onDrop}
            onDragOver={onDragOver}
            onDragLeave={() => setDragging(false)}
            data-testid="import-drop-zone"
            className={cx(
              'mt-4 flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition focus-within:ring-2 focus-within:ring-primary-500',
              canWrite ? 'cursor-pointer' : 'cursor-not-allowed opacity-70',
              dragging ? 'border-primary-500 bg-primary-50 dark:border-primary-400 dark:bg-primary-950' : 'border-surface-300 hover:border-primary-400 dark:border-surface-700',
            )}
          >
            <FileUp aria-hidden="true" className="size-7 text-primary-600 dark:text-primary-400" />
            <span className="text-sm font-semibold text-surface-900 dark:text-surface-50">{checking ? t('restore.import.checking', { name: state.name }) : t('restore.import.choose')}</span>
            <span className="text-xs text-surface-600 dark:text-surface-400">{t('restore.import.drop')}</span>
            <input
              ref={input}
              id={`${id}-file`}
              type="file"
              accept="application/json,.json"
              className="sr-only"
              disabled={!canWrite || checking}
              aria-describedby={`${id}-hint${canWrite ? '' : ` ${id}-readonly`}`}
              onChange={(event) => void choose(event.target.files?.[0])}
            />
          </label>
        ) : null}
        {!canWrite ? (
          <p id={`${id}-readonly`} className="mt-2 text-xs text-surface-600 dark:text-surface-400">
            {readOnlyReason ?? t('restore.readOnly')}
          </p>
        ) : null}

        <div aria-live="polite">
          {state.step === 'problem' ? (
            <Alert
              tone="danger"
              className="mt-4"
              title={state.problem.title}
              actions={
                state.file !== undefined ? (
                  <Button variant="secondary" size="sm" onClick={() => void check(state.name, state.file)}>
                    {t('restore.import.checkAgain')}
                  </Button>
                ) : undefined
              }
            >
              <p>{state.problem.text}</p>
              {state.problem.detail ? <p className="mt-1">{state.problem.detail}</p> : null}
            </Alert>
          ) : null}
        </div>

        {state.step === 'preview' && shownPreview ? (
          <div className="mt-4 space-y-4">
            <div className="rounded-lg border border-surface-200 bg-surface-50 p-3 text-sm dark:border-surface-800 dark:bg-surface-950">
              <p className="font-medium text-surface-900 dark:text-surface-50">{t('restore.import.file', { name: state.name })}</p>
              <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_minmax(0,1fr)]">
                <dt className="text-surface-600 dark:text-surface-400">{t('restore.import.fromServer')}</dt>
                <dd className="break-words [overflow-wrap:anywhere]">
                  {shownPreview.from.serverName}{' '}
                  {shownPreview.sameServer ? <Badge tone="neutral">{t('restore.import.thisServer')}</Badge> : <Badge tone="info">{t('restore.import.otherServer')}</Badge>}
                </dd>
                <dt className="text-surface-600 dark:text-surface-400">{t('restore.import.fromVersion')}</dt>
                <dd>{t('restore.version', { version: shownPreview.from.version })}</dd>
                <dt className="text-surface-600 dark:text-surface-400">{t('restore.import.exportedAt')}</dt>
                <dd>
                  <When at={shownPreview.from.exportedAt} now={Date.now()} inline />
                </dd>
              </dl>
            </div>

            {!shownPreview.sameServer ? (
              <Alert tone="info" title={t('restore.import.otherServerTitle', { server: shownPreview.from.serverName })}>
                {t('restore.import.otherServerBody')}
              </Alert>
            ) : null}

            <Suspense fallback={<Skeleton className="h-24 w-full" />}>
              <ImportChanges preview={shownPreview} />
            </Suspense>

            <div aria-live="polite">
              {state.applyProblem ? (
                <Alert
                  tone="danger"
                  title={state.applyProblem.title}
                  actions={
                    state.applyProblem.conflict ? (
                      <Button variant="secondary" size="sm" onClick={() => void check(state.name, state.file)}>
                        {t('restore.import.checkAgain')}
                      </Button>
                    ) : undefined
                  }
                >
                  <p>{state.applyProblem.text}</p>
                  {state.applyProblem.conflict ? <p className="mt-1">{t('restore.import.conflictBody')}</p> : null}
                  {state.applyProblem.detail ? <p className="mt-1">{state.applyProblem.detail}</p> : null}
                </Alert>
              ) : null}
            </div>

            <div className="flex flex-wrap gap-2">
              <Button
                onClick={() => {
                  if (canWrite && shownPreview.changes.length > 0) setConfirming(true);
                }}
                aria-disabled={!canWrite || shownPreview.changes.length === 0 || undefined}
                aria-describedby={shownPreview.changes.length === 0 ? `${id}-nothing` : undefined}
              >
                {t('restore.import.apply')}
              </Button>
              <Button variant="secondary" onClick={reset}>
                {t('restore.import.another')}
              </Button>
            </div>
            {shownPreview.changes.length === 0 ? (
              <p id={`${id}-nothing`} className="text-sm text-surface-600 dark:text-surface-400">
                {t('restore.import.nothing')}
              </p>
            ) : null}

            <ConfirmDialog
              open={confirming}
              title={t('restore.import.confirmTitle', { server: shownPreview.from.serverName, version: shownPreview.from.version })}
              confirmLabel={t('restore.import.confirmAction')}
              cancelLabel={t('common.cancel')}
              tone="primary"
              busy={applying.isLoading}
              onConfirm={() => void doApply()}
              onCancel={() => setConfirming(false)}
            >
              <p>{t('restore.import.confirmBody', { count: shownPreview.changes.length, current: shownPreview.liveVersion, next: shownPreview.liveVersion + 1 })}</p>
              {shownPreview.unmapped.length > 0 ? <p>{t('restore.import.confirmUnmapped', { count: shownPreview.unmapped.length })}</p> : null}
              <p>{t('restore.confirm.posts')}</p>
            </ConfirmDialog>
          </div>
        ) : null}
      </section>
    </Card>
  );
}

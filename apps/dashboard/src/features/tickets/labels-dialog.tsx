/**
 * "Manage labels" (tickets: write): the server's labels, at most TICKET_LABELS_CONFIG_MAX, each a name
 * and a colour, checked with the contract's TicketLabel schema and saved whole with
 * `PUT /tickets/labels` at the configuration version read. Its own chunk: the schemas load only
 * when the dialog opens.
 */
import { TICKET_LABEL_NAME_MAX, TICKET_LABELS_CONFIG_MAX, TicketLabel } from '@tickety/api-contract';
import { Alert, Button, cx, inputClasses } from '@tickety/ui';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { useEffect, useId, useRef, useState } from 'react';
import { failureCode, failureText } from '../../lib/failures';
import { useConfigNamesQuery } from '../configs/api';
import { useSaveTicketLabelsMutation } from './api';
import { useT } from './i18n';
import { colourCss } from './model';

/** Colours to pick from at a click (Discord's palette); any other through the colour field. */
const PRESETS = [0x5865f2, 0x57f287, 0xfee75c, 0xeb459e, 0xed4245, 0x3498db, 0xe67e22, 0x95a5a6] as const;

type Row = TicketLabel;
type RowProblem = 'name' | 'nameLong' | 'duplicate';

/** A new label's id: `l` and 12 random letters or digits (the contract's ShortId). */
function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `l${[...bytes].map((byte) => (byte % 36).toString(36)).join('')}`;
}

/** What is wrong with each row (by index): the contract's schema, then names used twice (case-insensitive). */
export function labelProblems(rows: readonly Row[]): Map<number, RowProblem> {
  const problems = new Map<number, RowProblem>();
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const parsed = TicketLabel.safeParse(row);
    if (!parsed.success) {
      problems.set(index, row.name.trim() === '' ? 'name' : row.name.trim().length > TICKET_LABEL_NAME_MAX ? 'nameLong' : 'name');
      return;
    }
    const key = parsed.data.name.toLocaleLowerCase();
    if (seen.has(key)) problems.set(index, 'duplicate');
    else seen.set(key, index);
  });
  return problems;
}

function hexOf(colour: number): string {
  return colourCss(colour);
}

export default function LabelsDialog({ server, labels, onClose }: { server: string; labels: readonly TicketLabel[]; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const config = useConfigNamesQuery(server, { refetchOnMountOrArgChange: true });
  const version = (config.data as { version?: number } | undefined)?.version;
  const configured = (config.data?.config as { labels?: TicketLabel[] } | undefined)?.labels;
  const [rows, setRows] = useState<Row[]>(() => labels.map((label) => ({ ...label })));
  const [touched, setTouched] = useState(false);
  const [tried, setTried] = useState(false);
  const [save, saving] = useSaveTicketLabelsMutation();
  const [outcome, setOutcome] = useState<{ kind: 'conflict' } | { kind: 'failed'; reason: string } | null>(null);

  // The configuration's labels are the ones being edited once read (the queue's may be a moment older).
  useEffect(() => {
    if (configured && !touched) setRows(configured.map((label) => ({ ...label })));
  }, [configured, touched]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    element.querySelector<HTMLElement>('input, button')?.focus();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  const problems = labelProblems(rows);
  const change = (index: number, patch: Partial<Row>) => {
    setTouched(true);
    setOutcome(null);
    setRows((list) => list.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  };
  const add = () => {
    if (rows.length >= TICKET_LABELS_CONFIG_MAX) return;
    setTouched(true);
    setRows((list) => [...list, { id: newId(), name: t('tickets.manage.newName'), colour: PRESETS[list.length % PRESETS.length]! }]);
    // The new row's name takes focus once rendered.
    requestAnimationFrame(() => dialog.current?.querySelector<HTMLInputElement>('li:last-child input[type="text"]')?.select());
  };
  const remove = (index: number) => {
    setTouched(true);
    setRows((list) => list.filter((_, at) => at !== index));
  };
  const submit = async () => {
    setTried(true);
    if (problems.size > 0) return;
    const answer = await save({ server, labels: rows.map((row) => ({ ...row, name: row.name.trim() })), version: version ? version : null });
    if ('error' in answer) {
      setOutcome(failureCode(answer.error) === 1013 ? { kind: 'conflict' } : { kind: 'failed', reason: failureText(answer.error) });
      return;
    }
    onClose();
  };

  const problemText = (problem: RowProblem) =>
    problem === 'duplicate' ? t('tickets.manage.error.duplicate') : problem === 'nameLong' ? t('tickets.manage.error.nameLong', { max: TICKET_LABEL_NAME_MAX }) : t('tickets.manage.error.name');

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        if (!saving.isLoading) onClose();
      }}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-xl border border-surface-200 bg-white p-0 text-surface-900 shadow-xl backdrop:bg-surface-950/60 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-50"
    >
      <form
        className="p-5"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {t('tickets.manageLabels')}
        </h2>
        <p id={`${id}-body`} className="mt-1 text-sm text-surface-600 dark:text-surface-400">
          {t('tickets.manage.body', { max: TICKET_LABELS_CONFIG_MAX })}
        </p>
        {config.isLoading ? <p className="mt-3 text-sm">{t('tickets.manage.loading')}</p> : null}
        {rows.length === 0 ? <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">{t('tickets.manage.empty')}</p> : null}
        <ul className="mt-4 max-h-[50vh] space-y-3 overflow-y-auto pr-1">
          {rows.map((row, index) => {
            const number = index + 1;
            const problem = tried || row.name.trim() === '' ? problems.get(index) : problems.get(index) === 'duplicate' ? 'duplicate' : undefined;
            return (
              <li key={row.id} className="rounded-lg border border-surface-200 p-3 dark:border-surface-700">
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    type="text"
                    aria-label={t('tickets.manage.name', { index: number })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? `${id}-problem-${index}` : undefined}
                    value={row.name}
                    maxLength={TICKET_LABEL_NAME_MAX + 8}
                    onChange={(event) => change(index, { name: event.target.value })}
                    className={cx(inputClasses, 'min-w-0 flex-1')}
                  />
                  <input
                    type="color"
                    aria-label={t('tickets.manage.colour', { index: number })}
                    value={hexOf(row.colour)}
                    onChange={(event) => change(index, { colour: Number.parseInt(event.target.value.slice(1), 16) })}
                    className="h-9 w-12 cursor-pointer rounded border border-surface-300 bg-transparent dark:border-surface-600"
                  />
                  <Button variant="ghost" size="sm" aria-label={t('tickets.manage.delete', { index: number })} onClick={() => remove(index)}>
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </div>
                <div className="mt-2 flex flex-wrap gap-1">
                  {PRESETS.map((preset) => (
                    <button
                      key={preset}
                      type="button"
                      aria-label={t('tickets.manage.preset', { colour: hexOf(preset), index: number })}
                      aria-pressed={row.colour === preset}
                      onClick={() => change(index, { colour: preset })}
                      className={cx('size-6 rounded-full border-2', row.colour === preset ? 'border-surface-900 dark:border-white' : 'border-transparent')}
                      style={{ backgroundColor: hexOf(preset) }}
                    />
                  ))}
                </div>
                {problem ? (
                  <p id={`${id}-problem-${index}`} className="mt-1 text-sm text-red-700 dark:text-red-300">
                    {problemText(problem)}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <Button variant="secondary" size="sm" onClick={add} disabled={rows.length >= TICKET_LABELS_CONFIG_MAX}>
            <Plus aria-hidden="true" className="size-4" />
            {t('tickets.manage.add')}
          </Button>
          <span className="text-xs text-surface-500 dark:text-surface-400">{t('tickets.manage.count', { count: rows.length, max: TICKET_LABELS_CONFIG_MAX })}</span>
          {rows.length >= TICKET_LABELS_CONFIG_MAX ? <span className="text-xs text-surface-600 dark:text-surface-300">{t('tickets.manage.full', { max: TICKET_LABELS_CONFIG_MAX })}</span> : null}
        </div>
        <div role="alert" className="empty:hidden">
          {tried && problems.size > 0 ? <p className="mt-3 text-sm text-red-700 dark:text-red-300">{t('tickets.manage.invalid')}</p> : null}
          {outcome?.kind === 'conflict' ? (
            <Alert tone="warning" className="mt-3">
              {t('tickets.manage.conflict')}
            </Alert>
          ) : null}
          {outcome?.kind === 'failed' ? (
            <Alert tone="danger" title={t('tickets.manage.failed')} className="mt-3">
              {outcome.reason}
            </Alert>
          ) : null}
        </div>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving.isLoading}>
            {outcome?.kind === 'conflict' ? t('common.close') : t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving.isLoading} disabled={outcome?.kind === 'conflict'}>
            {t('tickets.manage.save')}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

import type { TicketCommandRequest, TicketLabel, TicketSummary } from '@tickety/api-contract';
import { Button, ConfirmDialog, cx, inputClasses } from '@tickety/ui';
import Tags from 'lucide-react/icons/tags';
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from './i18n';
import { colourCss } from './model';

type Kind = TicketCommandRequest['kind'];

/** The labels popover: a checkbox per server label, applied together (Escape or the button closes it). */
function LabelsPopover({ ticket, labels, busy, onApply }: { ticket: TicketSummary; labels: readonly TicketLabel[]; busy: boolean; onApply: (ids: string[]) => void }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>(ticket.labels);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) {
      setChosen(ticket.labels);
      panel.current?.querySelector<HTMLElement>('input, button')?.focus();
    }
  }, [open, ticket.labels]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  // A press outside closes it, as a popover does (without moving focus back: the press put it elsewhere).
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  return (
    <div className="relative">
      <Button ref={button} variant="secondary" size="sm" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => (open ? close() : setOpen(true))} loading={busy}>
        <Tags aria-hidden="true" className="size-4" />
        {t('tickets.action.labels')}
      </Button>
      {open ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the popover from any of its controls
        <div
          ref={panel}
          id={`${id}-panel`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
          className="absolute right-0 z-20 mt-1 w-64 rounded-lg border border-surface-200 bg-white p-3 shadow-lg dark:border-surface-700 dark:bg-surface-900"
        >
          <fieldset className="min-w-0">
          <legend className="mb-2 text-sm font-semibold text-surface-900 dark:text-surface-50">{t('tickets.labels.title')}</legend>
          {labels.length === 0 ? (
            <p className="text-sm text-surface-600 dark:text-surface-400">{t('tickets.labels.none')}</p>
          ) : (
            <ul className="max-h-64 space-y-1 overflow-y-auto">
              {labels.map((label) => (
                <li key={label.id}>
                  <label className="flex items-center gap-2 text-sm text-surface-800 dark:text-surface-200">
                    <input
                      type="checkbox"
                      checked={chosen.includes(label.id)}
                      onChange={(event) => setChosen((list) => (event.target.checked ? [...list, label.id] : list.filter((item) => item !== label.id)))}
                    />
                    <span aria-hidden="true" className="size-3 shrink-0 rounded-full" style={{ backgroundColor: colourCss(label.colour) }} />
                    <span className="min-w-0 truncate">{label.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          </fieldset>
          <div className="mt-3 flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={close}>
              {t('common.cancel')}
            </Button>
            {labels.length > 0 ? (
              <Button
                size="sm"
                onClick={() => {
                  // In the server's order, as the API keeps them.
                  onApply(labels.filter((label) => chosen.includes(label.id)).map((label) => label.id));
                  close();
                }}
              >
                {t('tickets.labels.apply')}
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** The close question, with an optional reason the member sees. */
function CloseDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: (reason: string | null) => void }) {
  const t = useT();
  const id = useId();
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (open) setReason('');
  }, [open]);
  return (
    <ConfirmDialog
      open={open}
      title={t('tickets.close.title')}
      confirmLabel={t('tickets.action.close')}
      cancelLabel={t('common.cancel')}
      onCancel={onClose}
      onConfirm={() => onConfirm(reason.trim() || null)}
      extra={
        <div>
          <label htmlFor={`${id}-reason`} className="block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('tickets.close.reason')}
          </label>
          <textarea id={`${id}-reason`} rows={3} maxLength={1024} value={reason} onChange={(event) => setReason(event.target.value)} aria-describedby={`${id}-help`} className={cx(inputClasses, 'mt-1')} />
          <p id={`${id}-help`} className="mt-1 text-xs text-surface-500 dark:text-surface-400">
            {t('tickets.close.reasonHelp')}
          </p>
        </div>
      }
    >
      <p>{t('tickets.close.body')}</p>
    </ConfirmDialog>
  );
}

/** Claim or unclaim, labels and close: each becomes a command for the bot; a kind still under way is busy. */
export function TicketActions({ ticket, labels, pending, onCommand }: { ticket: TicketSummary; labels: readonly TicketLabel[]; pending: ReadonlySet<Kind>; onCommand: (command: TicketCommandRequest) => void }) {
  const t = useT();
  const [closing, setClosing] = useState(false);
  return (
    <fieldset className="flex min-w-0 flex-wrap items-center gap-2">
      <legend className="sr-only">{t('tickets.actions')}</legend>
      {ticket.claimer ? (
        <Button variant="secondary" size="sm" loading={pending.has('unclaim')} onClick={() => onCommand({ kind: 'unclaim' })}>
          {t('tickets.action.unclaim')}
        </Button>
      ) : (
        <Button variant="secondary" size="sm" loading={pending.has('claim')} onClick={() => onCommand({ kind: 'claim' })}>
          {t('tickets.action.claim')}
        </Button>
      )}
      <LabelsPopover ticket={ticket} labels={labels} busy={pending.has('set_labels')} onApply={(ids) => onCommand({ kind: 'set_labels', labels: ids })} />
      <Button variant="danger" size="sm" loading={pending.has('close')} onClick={() => setClosing(true)}>
        {t('tickets.action.close')}
      </Button>
      <CloseDialog
        open={closing}
        onClose={() => setClosing(false)}
        onConfirm={(reason) => {
          setClosing(false);
          onCommand({ kind: 'close', reason });
        }}
      />
    </fieldset>
  );
}
